import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DELETED_USER_NAME } from '../../shared/account';
import type { Page } from '../../shared/marketplace';
import type { Message } from '../../shared/messages';
import type { Notification } from '../../shared/notifications';
import { createApp } from '../app';
import { hashToken } from '../auth/tokens';
import { sessions, userEvents } from '../db/schema';
import { setupTestApp, STRONG_PASSWORD } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import { dataOf, serveApp, servedEvents, SseClient, type SseEvent } from '../test/sse';
import { until } from '../test/wait';
import { rowsOf } from '../db/result-rows';
import { createHintSender } from './hints';
import { EVENTS_CHANNEL, Outbox } from './outbox';
import { sweepEvents } from './sweep';

// A 1 s heartbeat, so the session re-check on each heartbeat can be observed.
const { ctx, call, signUpAndIn, signIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000', EVENT_HEARTBEAT_SECONDS: '1' });
const { story, act } = lifecycleHelpers(call, signUpAndIn);

const served = servedEvents(() => ctx.app);

async function connect(
  token?: string,
  opts: { lastEventId?: string; lastEventIdQuery?: string; headers?: Record<string, string> } = {},
) {
  return served.connect(token, opts);
}

const send = (token: string, bookingId: string, body: string) =>
  call<Message>('POST', `/bookings/${bookingId}/messages`, { cookie: token, body: { body, client_id: randomUUID() } });

const ids = (events: SseEvent[]) => events.map((e) => Number(e.id));

async function pair() {
  const s = await story(1);
  return { requester: s.requester, driver: s.drivers[0]!, bookingId: s.offers[0]!.id, requestId: s.request.id };
}

describe('GET /api/events', () => {
  it('refuses a signed-out caller with the JSON 401', async () => {
    const res = await fetch(`${served.url()}/api/events`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'unauthenticated' });
  });

  it('starts with ready (retry 2000, the current position), uncompressed, no-store, unbuffered', async () => {
    const { requester } = await pair();
    const stream = await connect(requester.token, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('cache-control')).toBe('no-store');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    expect(stream.headers.get('content-encoding')).toBeNull();
    const [ready] = await stream.take(1);
    // The offer already told the requester (booking.changed 'offered', and her notification): her position is 2.
    expect(ready).toEqual({ event: 'ready', data: '{"resumed":false}', id: '2', retry: 2000 });
    expect(stream.pending()).toEqual([]);
  });

  it('delivers message.created to both people with increasing ids, and booking.changed when the other acts', async () => {
    const { requester, driver, bookingId, requestId } = await pair();
    const theirs = await connect(requester.token);
    const mine = await connect(driver.token);
    const [ready] = await theirs.take(1);
    await mine.take(1);

    const sent = await send(driver.token, bookingId, 'Hello from the road');
    const [created, notified] = await theirs.take(2);
    expect(created!.event).toBe('message.created');
    expect(Number(created!.id)).toBe(Number(ready!.id) + 1);
    expect(dataOf(created!)).toEqual({ booking_id: bookingId, message: sent.body });
    // The recipient's notification of it follows, in the same transaction (docs/notifications.md).
    expect(notified).toMatchObject({ event: 'notification.created', id: String(Number(ready!.id) + 2) });
    // The sender's own stream hears it too (their other tabs).
    expect((await mine.take(1))[0]).toMatchObject({ event: 'message.created' });

    expect((await act(requester.token, bookingId, 'choose')).status).toBe(200);
    const [changed] = await mine.take(1);
    expect(changed!.event).toBe('booking.changed');
    expect(dataOf(changed!)).toEqual({
      booking_id: bookingId,
      request_id: requestId,
      status: 'confirmed',
      event_type: 'chosen',
    });

    await send(requester.token, bookingId, 'See you at eight');
    await send(driver.token, bookingId, 'Perfect');
    const more = await theirs.take(5);
    // Her reply reads her notification of his message (notification.read); his next one is a new notification.
    expect(more.map((e) => e.event)).toEqual([
      'booking.changed',
      'message.created',
      'notification.read',
      'message.created',
      'notification.created',
    ]);
    expect(ids(more)).toEqual([3, 4, 5, 6, 7].map((k) => Number(ready!.id) + k));

    // conversation.read reaches both when the reader's mark moves (the driver's 'Seen').
    await call('POST', `/bookings/${bookingId}/messages/read`, { cookie: requester.token, body: {} });
    await mine.takeUntil((e) => e.event === 'conversation.read');
    const [read] = await theirs.take(1);
    expect(read!.event).toBe('conversation.read');
    expect(dataOf(read!)).toMatchObject({ booking_id: bookingId, reader_id: requester.user.id });
  });

  it("an offer's notification (written by the database's accept) arrives worded, live and on a resume, as the API words it", async () => {
    const { requester, driver, requestId } = await pair();
    const listed = async () =>
      (await call<Page<Notification>>('GET', '/notifications?limit=50', { cookie: requester.token })).body.items;
    // On a resume from the start: her notification of the offer, then the offer itself.
    const resumed = await connect(requester.token, { lastEventId: '0' });
    const [, created, changed] = await resumed.take(3);
    expect(created!.event).toBe('notification.created');
    expect(changed).toMatchObject({ event: 'booking.changed', id: '2' });
    const [first] = await listed();
    expect(first).toMatchObject({ type: 'offer_received', text: 'Driver 1 offered to carry “Feed sacks”.' });
    expect(dataOf(created!)).toEqual({ notification: first });

    // Live: a second driver's offer.
    const other = await signUpAndIn('Driver Two');
    expect((await call('POST', '/bookings', { cookie: other.token, body: { request_id: requestId } })).status).toBe(
      201,
    );
    const live = (await resumed.takeUntil((e) => e.event === 'notification.created')).at(-1);
    expect(dataOf(live!)).toEqual({ notification: (await listed())[0] });
    expect((await listed())[0]!.text).toBe('Driver Two offered to carry “Feed sacks”.');

    // The first driver leaves: her stored event names a deleted user from then on, as her notifications do.
    const gone = await call('POST', '/account/delete', {
      cookie: driver.token,
      body: { confirm: 'DELETE', password: STRONG_PASSWORD },
    });
    expect(gone.status).toBe(204);
    const again = await connect(requester.token, { lastEventId: '0' });
    const [, replayed] = await again.take(2);
    expect((dataOf(replayed!) as { notification: Notification }).notification.text).toBe(
      `${DELETED_USER_NAME} offered to carry “Feed sacks”.`,
    );
    expect((await listed()).map((n) => n.text)).toContain(`${DELETED_USER_NAME} offered to carry “Feed sacks”.`);
  });

  it('resumes with Last-Event-ID: exactly the missed events, none twice, then live again', async () => {
    // The requester writes and watches her own stream: one message.created per message, nothing else.
    const { requester, bookingId } = await pair();
    const first = await connect(requester.token);
    const [ready] = await first.take(1);
    await send(requester.token, bookingId, 'one');
    const [seen] = await first.take(1);
    const streams = ctx.app.events.size;
    first.close();
    await first.ended;
    // The server notices the client went away and forgets the stream.
    await expect.poll(() => ctx.app.events.size).toBe(streams - 1);

    const missed = [];
    for (const body of ['two', 'three', 'four']) missed.push((await send(requester.token, bookingId, body)).body);

    const again = await connect(requester.token, { lastEventId: seen!.id });
    const [resumed] = await again.take(1);
    expect(resumed).toMatchObject({ event: 'ready', id: seen!.id, data: '{"resumed":true}' });
    const replayed = await again.take(3);
    expect(replayed.map((e) => dataOf<{ message: Message }>(e).message.body)).toEqual(['two', 'three', 'four']);
    expect(ids(replayed)).toEqual([2, 3, 4].map((k) => Number(ready!.id) + k));
    expect(await again.quiet(100)).toEqual([]);
    await send(requester.token, bookingId, 'five');
    const [live] = await again.take(1);
    expect(Number(live!.id)).toBe(Number(ready!.id) + 5);

    // The same through ?last_event_id= (for clients that cannot set the header), from the very start.
    const viaQuery = await connect(requester.token, { lastEventIdQuery: ready!.id });
    const all = await viaQuery.take(6);
    expect(all[0]).toMatchObject({ event: 'ready', data: '{"resumed":true}' });
    expect(ids(all.slice(1))).toEqual([1, 2, 3, 4, 5].map((k) => Number(ready!.id) + k));
    // Up to date already: ready says so, and nothing follows.
    const upToDate = await connect(requester.token, { lastEventId: live!.id });
    expect((await upToDate.take(1))[0]).toMatchObject({ data: '{"resumed":true}', id: live!.id });
    expect(await upToDate.quiet(100)).toEqual([]);
  });

  it('answers reset for an id it cannot resume from, and continues from the head', async () => {
    const { requester, bookingId } = await pair();
    for (const body of ['a', 'b', 'c']) await send(requester.token, bookingId, body);
    const head = 5; // the offer (booking.changed, notification.created), then her three messages
    for (const bad of ['abc', '-1', '1.5', String(head + 1), '99999999999999999999']) {
      const stream = await connect(requester.token, { lastEventId: bad });
      const [ready, reset] = await stream.take(2);
      expect(ready).toMatchObject({ event: 'ready', data: '{"resumed":false}', id: String(head) });
      expect(reset).toMatchObject({ event: 'reset', data: '{}' });
      stream.close();
    }

    // Events older than the retention are swept: a resume from before them is impossible.
    await ctx.database.db
      .update(userEvents)
      .set({ createdAt: sql`now() - interval '100 hours'` })
      .where(sql`${userEvents.userId} = ${requester.user.id} and ${userEvents.seq} <= 2`);
    expect(await sweepEvents(ctx.database.db, 72)).toBeGreaterThanOrEqual(2);
    const kept = await ctx.database.db.select().from(userEvents).where(eq(userEvents.userId, requester.user.id));
    expect(kept.map((e) => e.seq).sort()).toEqual([3, 4, 5]);

    const tooOld = await connect(requester.token, { lastEventId: '1' });
    expect((await tooOld.take(2)).map((e) => e.event)).toEqual(['ready', 'reset']);
    // From the oldest kept row minus one, the replay is still whole.
    const justInTime = await connect(requester.token, { lastEventId: '2' });
    const replay = await justInTime.take(4);
    expect(replay.map((e) => [e.event, e.id])).toEqual([
      ['ready', '2'],
      ['message.created', '3'],
      ['message.created', '4'],
      ['message.created', '5'],
    ]);
    await send(requester.token, bookingId, 'd');
    expect((await tooOld.take(1))[0]).toMatchObject({ event: 'message.created', id: '6' });
  });

  it('ends the stream when its session is signed out; the user’s other sessions keep theirs', async () => {
    const { requester, driver, bookingId } = await pair();
    const otherToken = await signIn(requester.email, 'Correct-Horse-9');
    const doomed = await connect(requester.token);
    const survivor = await connect(otherToken);
    await doomed.take(1);
    await survivor.take(1);

    expect((await call('POST', '/auth/sign-out', { cookie: requester.token })).status).toBe(204);
    await doomed.ended;
    expect(doomed.closed).toBe(true);

    await send(driver.token, bookingId, 'Still there?');
    expect((await survivor.take(1))[0]).toMatchObject({ event: 'message.created' });
    expect(survivor.closed).toBe(false);
  });

  it('re-checks the session on every heartbeat: one deleted without any notice ends its stream', async () => {
    const { requester } = await pair();
    const stream = await connect(requester.token);
    await stream.take(1);
    await stream.until(() => stream.comments.length > 0, 'a heartbeat', 3_000);
    expect(stream.comments[0]).toBe('heartbeat');
    await ctx.database.db.delete(sessions).where(eq(sessions.tokenHash, hashToken(requester.token)));
    await stream.ended;
    expect(stream.closed).toBe(true);
  });

  it('a notification without data, or out of order, is read from user_events: each event once, in order', async () => {
    // Her own messages: her stream carries exactly one event for each.
    const { requester, bookingId } = await pair();
    const stream = await connect(requester.token);
    const [ready] = await stream.take(1);
    const head = Number(ready!.id);
    await send(requester.token, bookingId, 'real');
    await stream.take(1);
    // Stray and repeated hints: a known seq again, one far ahead, one without data. None invents an event.
    for (const payload of [
      { u: requester.user.id, s: head + 1, t: 'message.created', d: { fake: true } },
      { u: requester.user.id, s: head + 9 },
      { u: requester.user.id, s: head + 2 },
      'not json',
    ])
      await ctx.database.notifications.notify(
        EVENTS_CHANNEL,
        typeof payload === 'string' ? payload : JSON.stringify(payload),
      );
    await send(requester.token, bookingId, 'next');
    const [next] = await stream.take(1);
    expect(next).toMatchObject({ event: 'message.created', id: String(head + 2) });
    expect(dataOf<{ message: Message }>(next!).message.body).toBe('next');
    expect(await stream.quiet(150)).toEqual([]);
  });

  it('sends a flush’s events in one NOTIFY, in order; a flush too long for one payload event by event', async () => {
    const payloads: string[] = [];
    const stop = ctx.database.notifications.listen(EVENTS_CHANNEL, (payload) => payloads.push(payload));
    const hear = (n: number) => until(`${n} notification(s)`, () => payloads.length >= n);
    try {
      await until('the LISTEN', () => ctx.database.notifications.isListening(EVENTS_CHANNEL));
      // Choosing one of two offers: the chosen and the declined bookings to their people, and the notices.
      const s = await story(2);
      const stored = async () => Number((await ctx.database.db.select().from(userEvents)).length);
      const before = await stored();
      expect((await act(s.requester.token, s.offers[0]!.id, 'choose')).status).toBe(200);
      const written = (await stored()) - before;
      // The offers' own notifications may still be arriving: the choose's is the one that carries 'chosen'.
      type Sent = { u: string; s: number; t: string; d?: { event_type?: string } };
      const chosen = (p: string) =>
        p.startsWith('[') && (JSON.parse(p) as Sent[]).some((e) => e.d?.event_type === 'chosen');
      await until('the choose’s NOTIFY', () => payloads.some(chosen));
      expect(payloads.filter(chosen)).toHaveLength(1);
      const batch = JSON.parse(payloads.find(chosen)!) as Sent[];
      expect(batch).toHaveLength(written);
      expect(written).toBeGreaterThanOrEqual(4);
      expect(batch.filter((e) => e.t === 'booking.changed').map((e) => e.u)).toEqual(
        expect.arrayContaining([s.requester.user.id, s.drivers[0]!.user.id, s.drivers[1]!.user.id]),
      );
      // In (user, seq) order: each user's events in the order they were numbered.
      const order = batch.map((e) => `${e.u}:${String(e.s).padStart(12, '0')}`);
      expect(order).toEqual([...order].sort());

      // Three events of 3,000 bytes and one of 8,000: too long together, so one NOTIFY each; the 8,000 one without
      // its data (the listeners read it from user_events).
      const user = s.requester.user.id;
      const from = payloads.length;
      const out = new Outbox();
      for (const size of [3000, 3000, 3000, 8000])
        out.add([user], 'notification.read', { ids: ['x'.repeat(size)], all: false });
      await ctx.database.db.transaction((tx) => out.flush(tx));
      await hear(from + 4);
      const singles = payloads.slice(from).map((p) => JSON.parse(p) as { u: string; s: number; d?: unknown });
      expect(singles.every((n) => !Array.isArray(n) && n.u === user)).toBe(true);
      expect(singles.map((n) => 'd' in n)).toEqual([true, true, true, false]);
      expect(singles.map((n) => n.s - singles[0]!.s)).toEqual([0, 1, 2, 3]);
    } finally {
      await stop();
    }
  });

  it('a transaction that defers its hints sends none at commit: it keeps each once, and the sender sends them after', async () => {
    const { requester } = await pair();
    const user = requester.user.id;
    // What this test sends. Other writes' hints may be about: the wake-ups of the job queue, events to other users,
    // and the pair's own offer, whose hints its instance sends after the response (decision 047).
    const heard: string[] = [];
    const stop = ctx.database.notifications.listen(EVENTS_CHANNEL, (payload) => {
      if (payload === 'marker' || (payload.includes(user) && payload.includes('notification.read')))
        heard.push(payload);
    });
    try {
      await until('the LISTEN', () => ctx.database.notifications.isListening(EVENTS_CHANNEL));
      const out = new Outbox().add([user], 'notification.read', { ids: [], all: true });
      const kept = await ctx.database.db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('rr.defer_hints', 'on', true)`);
        // The job queue's wake-up twice: kept once, as pg_notify sends it once.
        await tx.execute(sql`select rr_hint('rr_jobs', ''), rr_hint('rr_jobs', '')`);
        await out.flush(tx);
        const [row] = rowsOf<{ hints: string }>(await tx.execute(sql`select current_setting('rr.hints') as hints`));
        return JSON.parse(row!.hints) as [string, string][];
      });
      expect(kept.map(([channel]) => channel)).toEqual(['rr_jobs', EVENTS_CHANNEL]);
      const [event] = JSON.parse(kept[1]![1]) as { u: string; s: number; t: string }[];
      expect(event).toMatchObject({ u: user, t: 'notification.read' });
      // NOTIFYs arrive in commit order: the marker sent after the commit is the first thing heard.
      await ctx.database.notifications.notify(EVENTS_CHANNEL, 'marker');
      await until('the marker', () => heard.length > 0);
      expect(heard).toEqual(['marker']);

      const sender = createHintSender(ctx.database.db);
      sender.send([...kept, ['not', 'a', 'hint'], 42]);
      sender.send('not hints');
      await sender.drain();
      await until('the hint', () => heard.length > 1);
      expect(heard).toEqual(['marker', kept[1]![1]]);
    } finally {
      await stop();
    }
  });

  it('a hint lost after its commit (its instance died) is made up for on the next heartbeat', async () => {
    const { requester } = await pair();
    const stream = await connect(requester.token);
    const [ready] = await stream.take(1);
    // The event is stored and its hint kept back, as a move's is, and never sent.
    const out = new Outbox().add([requester.user.id], 'notification.read', { ids: [], all: true });
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('rr.defer_hints', 'on', true)`);
      await out.flush(tx);
    });
    const [caught] = await stream.take(1, 3_000);
    expect(caught).toMatchObject({ event: 'notification.read', id: String(Number(ready!.id) + 1) });
    expect(dataOf(caught!)).toEqual({ ids: [], all: true });
  });

  it('closing the app ends its streams (no open connection keeps a test or a shutdown waiting)', async () => {
    const { requester } = await pair();
    const app = createApp({ db: ctx.database.db, env: ctx.env, notifications: ctx.database.notifications });
    const own = await serveApp(app);
    try {
      const stream = await SseClient.open(own.url, { cookie: requester.token });
      await stream.take(1);
      expect(app.events.size).toBe(1);
      await app.close();
      await stream.ended;
      expect(app.events.size).toBe(0);
    } finally {
      await own.close();
    }
  });
});
