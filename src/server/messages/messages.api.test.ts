import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ConversationPage, ConversationSummary, Message, Unread } from '../../shared/messages';
import { NUL_MESSAGE } from '../../shared/text';
import { blocks, bookings, messages } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import { collectPages, tick, type PageBody } from '../test/marketplace';

const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const { story, act, offer, postRequest } = lifecycleHelpers(call, signUpAndIn);

const NOT_FOUND = { code: 'not_found', message: 'Booking not found.' };

const send = (token: string, bookingId: string, body: unknown, clientId: string = randomUUID()) =>
  call<Message>('POST', `/bookings/${bookingId}/messages`, { cookie: token, body: { body, client_id: clientId } });
const pageOf = (token: string, bookingId: string, query = '') =>
  call<ConversationPage>('GET', `/bookings/${bookingId}/messages${query}`, { cookie: token });
const markRead = (token: string, bookingId: string) =>
  call<{ read_at: string | null }>('POST', `/bookings/${bookingId}/messages/read`, { cookie: token, body: {} });
const conversations = (token: string, query = '') =>
  call<PageBody<ConversationSummary>>('GET', `/messages/conversations${query}`, { cookie: token });
const unread = async (token: string) =>
  (await call<Unread>('GET', '/messages/unread', { cookie: token })).body.conversations;

/** A requester and a driver with one offer between them: the conversation exists from here. */
async function pair(title = 'Feed sacks') {
  const s = await story(1, title);
  return { requester: s.requester, driver: s.drivers[0]!, bookingId: s.offers[0]!.id, requestId: s.request.id };
}

async function messageCount(bookingId: string) {
  const rows = await ctx.database.db.select().from(messages).where(eq(messages.bookingId, bookingId));
  return rows.length;
}

describe('who may read and write a conversation', () => {
  it('only its driver and requester; anyone else gets the booking page’s 404, a signed-out caller 401', async () => {
    const { requester, driver, bookingId } = await pair();
    const stranger = await signUpAndIn('Stranger');

    const first = await send(driver.token, bookingId, 'Hello, I can take it Tuesday.');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      booking_id: bookingId,
      sender_id: driver.user.id,
      body: 'Hello, I can take it Tuesday.',
    });
    expect((await send(requester.token, bookingId, 'Great, thanks!')).status).toBe(201);

    const seen = await pageOf(requester.token, bookingId);
    expect(seen.status).toBe(200);
    expect(seen.body.items.map((m) => m.body)).toEqual(['Great, thanks!', 'Hello, I can take it Tuesday.']);
    expect(seen.body).toMatchObject({ state: 'open', closes_at: null, next_cursor: null });

    for (const res of [
      await pageOf(stranger.token, bookingId),
      await send(stranger.token, bookingId, 'Let me in'),
      await markRead(stranger.token, bookingId),
      await pageOf(driver.token, randomUUID()),
      await send(driver.token, 'not-a-uuid', 'x'),
      await markRead(driver.token, 'not-a-uuid'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    expect(await messageCount(bookingId)).toBe(2);

    for (const [method, path] of [
      ['GET', `/bookings/${bookingId}/messages`],
      ['POST', `/bookings/${bookingId}/messages`],
      ['POST', `/bookings/${bookingId}/messages/read`],
      ['GET', '/messages/conversations'],
      ['GET', '/messages/unread'],
    ] as const) {
      const res = await call(method, path, {
        body: method === 'POST' ? { body: 'x', client_id: randomUUID() } : undefined,
      });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'unauthenticated' });
    }
  });
});

describe('what a message may be', () => {
  it('refuses empty, blank, too long, NUL and a bad client_id with the first rule’s message; stores nothing', async () => {
    const { driver, bookingId } = await pair();
    const cases: [unknown, string | undefined, string][] = [
      ['', undefined, 'Message cannot be empty'],
      ['   \n\t  ', undefined, 'Message cannot be empty'],
      [undefined, undefined, 'Message cannot be empty'],
      [42, undefined, 'Message cannot be empty'],
      ['x'.repeat(2001), undefined, 'Message must be less than 2000 characters'],
      ['hello\u0000world', undefined, NUL_MESSAGE],
      ['hello', 'not-a-uuid', 'client_id must be a UUID'],
    ];
    for (const [body, clientId, message] of cases) {
      const res = await call('POST', `/bookings/${bookingId}/messages`, {
        cookie: driver.token,
        body: { body, client_id: clientId ?? randomUUID() },
      });
      expect(res.status, JSON.stringify(body)?.slice(0, 40)).toBe(400);
      expect(res.body).toEqual({ code: 'validation_error', message });
    }
    const missingId = await call('POST', `/bookings/${bookingId}/messages`, {
      cookie: driver.token,
      body: { body: 'hi' },
    });
    expect(missingId.body).toEqual({ code: 'validation_error', message: 'client_id must be a UUID' });
    const notObject = await call('POST', `/bookings/${bookingId}/messages`, { cookie: driver.token, body: ['hi'] });
    expect(notObject.status).toBe(400);
    expect(await messageCount(bookingId)).toBe(0);

    // Exactly 2000 characters is fine; surrounding blank lines and trailing spaces go, inner lines stay.
    expect((await send(driver.token, bookingId, 'y'.repeat(2000))).status).toBe(201);
    const trimmed = await send(driver.token, bookingId, '\n\n  first line\nsecond line  \n\n');
    expect(trimmed.body.body).toBe('  first line\nsecond line');
  });
});

describe('a retried send is stored once', () => {
  it('the same client_id and body answers 200 with the stored message; another body or booking is 422', async () => {
    const { requester, driver, bookingId } = await pair();
    const other = await pair();
    const clientId = randomUUID();
    const first = await send(driver.token, bookingId, 'On my way', clientId);
    expect(first.status).toBe(201);
    const again = await send(driver.token, bookingId, 'On my way', clientId);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await messageCount(bookingId)).toBe(1);

    const changed = await send(driver.token, bookingId, 'On my way!', clientId);
    expect(changed.status).toBe(422);
    expect(changed.body).toMatchObject({ code: 'idempotency_key_reused' });
    // Another conversation of the same sender (the requester of `other` is someone else; the driver offers there).
    const elsewhere = await offer(driver.token, other.requestId);
    const moved = await send(driver.token, elsewhere.id, 'On my way', clientId);
    expect(moved.status).toBe(422);
    expect(moved.body).toMatchObject({ code: 'idempotency_key_reused' });
    // client_id is the sender's own: the other person may happen to use the same one.
    expect((await send(requester.token, bookingId, 'See you', clientId)).status).toBe(201);
    expect(await messageCount(bookingId)).toBe(2);
    expect(await messageCount(elsewhere.id)).toBe(0);
  });

  it('five parallel sends with one client_id store exactly one message (one 201, the rest 200)', async () => {
    const { driver, bookingId } = await pair();
    const clientId = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => send(driver.token, bookingId, 'Only once', clientId)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await messageCount(bookingId)).toBe(1);
  });

  it('one client_id sent to two conversations at once: one stored (201), the other refused whole (422)', async () => {
    const { driver, bookingId } = await pair();
    const other = await pair();
    const elsewhere = await offer(driver.token, other.requestId);
    const clientId = randomUUID();
    // Different bookings lock different rows: the two meet on the (sender, client_id) key, whoever comes second.
    const results = await Promise.all([
      send(driver.token, bookingId, 'On my way', clientId),
      send(driver.token, elsewhere.id, 'On my way', clientId),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
    expect(results.find((r) => r.status === 422)!.body).toMatchObject({ code: 'idempotency_key_reused' });
    expect((await messageCount(bookingId)) + (await messageCount(elsewhere.id))).toBe(1);
  });
});

describe('closed and blocked conversations', () => {
  it('an ended booking stays open 30 days, then is read-only (409 conversation_closed); reading still works', async () => {
    const { requester, driver, bookingId } = await pair();
    expect((await send(driver.token, bookingId, 'Can I help?')).status).toBe(201);
    expect((await act(requester.token, bookingId, 'decline')).status).toBe(200);

    const ended = await pageOf(driver.token, bookingId);
    expect(ended.body.state).toBe('open');
    const [row] = await ctx.database.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(ended.body.closes_at).toBe(new Date(row!.endedAt!.getTime() + 30 * 86_400_000).toISOString());
    expect((await send(requester.token, bookingId, 'Sorry, found someone')).status).toBe(201);

    await ctx.database.db
      .update(bookings)
      .set({ endedAt: sql`now() - interval '31 days'` })
      .where(eq(bookings.id, bookingId));
    for (const token of [driver.token, requester.token]) {
      const refused = await send(token, bookingId, 'Still there?');
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ code: 'conversation_closed', message: 'This conversation is closed.' });
    }
    const page = await pageOf(requester.token, bookingId);
    expect(page.status).toBe(200);
    expect(page.body.state).toBe('closed');
    expect(page.body.items).toHaveLength(2);
    expect((await markRead(driver.token, bookingId)).status).toBe(200);
    const listed = (await conversations(driver.token)).body.items.find((c) => c.booking_id === bookingId);
    expect(listed?.state).toBe('closed');
    expect(await messageCount(bookingId)).toBe(2);
  });

  it('a block either way stops messages both ways (403 blocked); the page says so', async () => {
    const { requester, driver, bookingId } = await pair();
    expect((await send(driver.token, bookingId, 'Before the block')).status).toBe(201);
    await ctx.database.db.insert(blocks).values({ blockerId: requester.user.id, blockedId: driver.user.id });
    for (const token of [driver.token, requester.token]) {
      const refused = await send(token, bookingId, 'Hello?');
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ code: 'blocked', message: "You can't contact this person." });
    }
    expect((await pageOf(driver.token, bookingId)).body.state).toBe('blocked');
    expect((await conversations(requester.token)).body.items[0]).toMatchObject({
      booking_id: bookingId,
      state: 'blocked',
    });
    await ctx.database.db
      .delete(blocks)
      .where(and(eq(blocks.blockerId, requester.user.id), eq(blocks.blockedId, driver.user.id)));
    expect((await send(driver.token, bookingId, 'After the unblock')).status).toBe(201);
  });
});

describe('the message limit', () => {
  it('lets a user send 30 messages a minute; the 31st is 429 with Retry-After and is not stored', async () => {
    const { requester, driver, bookingId } = await pair();
    for (let i = 0; i < 30; i++) expect((await send(driver.token, bookingId, `Message ${i + 1}`)).status).toBe(201);
    const refused = await send(driver.token, bookingId, 'One too many');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'too_many_requests' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await messageCount(bookingId)).toBe(30);
    // Per user: the other person still writes.
    expect((await send(requester.token, bookingId, 'Slow down!')).status).toBe(201);
  });
});

describe('conversation pages', () => {
  it('pages newest first with a keyset cursor, none lost or repeated; a bad cursor or limit is 400', async () => {
    const { requester, driver, bookingId } = await pair();
    const bodies: string[] = [];
    for (let i = 0; i < 12; i++) {
      const who = i % 2 ? requester : driver;
      bodies.push(`Line ${i}`);
      expect((await send(who.token, bookingId, `Line ${i}`)).status).toBe(201);
    }
    const { items, pages } = await collectPages<Message>(async (cursor) =>
      pageOf(driver.token, bookingId, `?limit=5${cursor ? `&cursor=${cursor}` : ''}`),
    );
    expect(pages).toBe(3);
    expect(items.map((m) => m.body)).toEqual([...bodies].reverse());
    expect((await pageOf(driver.token, bookingId)).body.items).toHaveLength(12);

    expect((await pageOf(driver.token, bookingId, '?cursor=nope')).body).toMatchObject({ code: 'validation_error' });
    expect((await pageOf(driver.token, bookingId, '?limit=51')).status).toBe(400);
  });
});

describe('conversation list, unread counts and read marks', () => {
  it('lists every booking I am party to by latest activity, counts unread, and clears it on read', async () => {
    const requester = await signUpAndIn('Ana Diaz');
    const d1 = await signUpAndIn('Driver One');
    const d2 = await signUpAndIn('Driver Two');
    const r1 = await postRequest(requester.token, 'Hay bales');
    const r2 = await postRequest(requester.token, 'Seed potatoes');
    const b1 = await offer(d1.token, r1.id);
    await tick();
    const b2 = await offer(d2.token, r2.id);

    // A conversation exists from the offer, before anyone writes: the newest offer first.
    let list = await conversations(requester.token);
    expect(list.body.items.map((c) => [c.booking_id, c.other.full_name, c.request_title, c.last_message])).toEqual([
      [b2.id, 'Driver Two', 'Seed potatoes', null],
      [b1.id, 'Driver One', 'Hay bales', null],
    ]);
    expect(await unread(requester.token)).toBe(0);

    // Driver One writes: that conversation moves up; the first line (at most 200 characters) is its preview.
    const long = `${'a'.repeat(250)}\nsecond line`;
    await send(d1.token, b1.id, 'Hi Ana');
    await tick();
    const last = await send(d1.token, b1.id, long);
    list = await conversations(requester.token);
    expect(list.body.items[0]).toMatchObject({
      booking_id: b1.id,
      other: { id: d1.user.id, full_name: 'Driver One' },
      unread_count: 2,
      state: 'open',
      last_message: { preview: 'a'.repeat(200), from_me: false, created_at: last.body.created_at },
      activity_at: last.body.created_at,
    });
    expect(list.body.items[1]).toMatchObject({ booking_id: b2.id, unread_count: 0 });
    expect(await unread(requester.token)).toBe(1);
    // The sender has seen their own conversation.
    expect(await unread(d1.token)).toBe(0);
    expect((await conversations(d1.token)).body.items[0]).toMatchObject({
      unread_count: 0,
      last_message: { from_me: true },
    });

    await send(d2.token, b2.id, 'Potatoes tomorrow?');
    expect(await unread(requester.token)).toBe(2);
    expect((await conversations(requester.token)).body.items.map((c) => c.booking_id)).toEqual([b2.id, b1.id]);

    // Before the requester reads, Driver One sees no 'Seen'; after, other_read_at covers both messages.
    expect((await pageOf(d1.token, b1.id)).body.other_read_at).toBeNull();
    const read = await markRead(requester.token, b1.id);
    expect(read.status).toBe(200);
    expect(read.body.read_at).toBe(last.body.created_at);
    expect((await pageOf(d1.token, b1.id)).body.other_read_at).toBe(last.body.created_at);
    expect(await unread(requester.token)).toBe(1);
    expect((await conversations(requester.token)).body.items.find((c) => c.booking_id === b1.id)?.unread_count).toBe(0);

    // Reading again changes nothing; a reply from the requester does not count as unread for her.
    expect((await markRead(requester.token, b1.id)).body.read_at).toBe(last.body.created_at);
    await send(requester.token, b1.id, 'Thanks!');
    expect(await unread(requester.token)).toBe(1);
    expect(await unread(d1.token)).toBe(1);
    await markRead(requester.token, b2.id);
    expect(await unread(requester.token)).toBe(0);

    // The read mark never moves backwards.
    const [before] = await ctx.database.db.select().from(bookings).where(eq(bookings.id, b1.id));
    await markRead(requester.token, b1.id);
    const [after] = await ctx.database.db.select().from(bookings).where(eq(bookings.id, b1.id));
    expect(after!.requesterReadAt!.getTime()).toBeGreaterThanOrEqual(before!.requesterReadAt!.getTime());

    // With no message yet, there is nothing to mark.
    const r3 = await postRequest(requester.token, 'Eggs');
    const b3 = await offer(d2.token, r3.id);
    expect((await markRead(requester.token, b3.id)).body).toEqual({ read_at: null });
  });

  it('pages the list beyond 20 by activity, newest first, with nothing lost or repeated', async () => {
    const requester = await signUpAndIn('Busy Requester');
    const driver = await signUpAndIn('Busy Driver');
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      const r = await postRequest(requester.token, `Errand ${i}`);
      ids.push((await offer(driver.token, r.id)).id);
      await tick();
    }
    // Writing in the oldest conversation brings it to the top.
    await send(driver.token, ids[0]!, 'Still need this?');
    const expected = [ids[0]!, ...ids.slice(1).reverse()];

    for (const who of [requester, driver]) {
      const { items, pages } = await collectPages<ConversationSummary>(async (cursor) =>
        conversations(who.token, cursor ? `?cursor=${cursor}` : ''),
      );
      expect(pages).toBe(2);
      expect(items.map((c) => c.booking_id)).toEqual(expected);
    }
    const small = await collectPages<ConversationSummary>(async (cursor) =>
      conversations(driver.token, `?limit=7${cursor ? `&cursor=${cursor}` : ''}`),
    );
    expect(small.pages).toBe(4);
    expect(small.items.map((c) => c.booking_id)).toEqual(expected);
    expect((await conversations(driver.token, '?cursor=%%%')).status).toBe(400);
  });
});
