import { createHash, randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Notification } from '../../shared/notifications';
import { bookingDetailPath, PAGE_PATHS, requestDetailPath } from '../../shared/routes';
import { jobs, knownBrowsers, notificationPreferences, notifications } from '../db/schema';
import { setupTestApp, STRONG_PASSWORD, type CallResult } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import { dataOf, servedEvents } from '../test/sse';
import { NOTIFICATION_EMAIL_JOB } from './index';
import { toNotification } from './row-to-notification';

/**
 * Every event that notifies writes its notification (docs/notifications.md): to the right person, never to the one
 * who acted, in words and with a link, with its one e-mail job. Read from the notifications table, as the API
 * (server-core) lists it: newest first, through toNotification.
 */

const DAY = 24 * 3_600_000;
/** The app's clock runs `shift` ahead of the wall clock (the review sweep's 14 days pass without waiting). */
let shift = 0;
const clock = () => new Date(Date.now() + shift);
afterEach(() => {
  shift = 0;
});

const { ctx, call, signUpAndIn, signIn } = setupTestApp(
  { AUTH_PER_IP_MAX: '100000', MESSAGE_LIMIT_PER_USER_MAX: '100000' },
  { clock },
);
const life = lifecycleHelpers(call, signUpAndIn);
const { postRequest, offer, act, complete } = life;
const events = servedEvents(() => ctx.app);

type Account = Awaited<ReturnType<typeof signUpAndIn>>;

/** My notifications, newest first, as the API's list gives them. */
async function inbox(who: Account): Promise<Notification[]> {
  const rows = await ctx.database.db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, who.user.id))
    .orderBy(desc(notifications.createdAt), desc(notifications.id));
  return rows.map(toNotification);
}

/** The e-mail jobs of one notification. */
async function mailJobs(notificationId: string) {
  return ctx.database.db
    .select({ id: jobs.id, runAt: jobs.runAt, dedupeKey: jobs.dedupeKey })
    .from(jobs)
    .where(and(eq(jobs.kind, NOTIFICATION_EMAIL_JOB), sql`${jobs.payload} ->> 'notification_id' = ${notificationId}`));
}

/** `who` has exactly these notifications (newest first), each with its one e-mail job. */
async function expectInbox(
  who: Account,
  expected: Pick<Notification, 'type' | 'text' | 'link'>[],
  { together = false } = {},
) {
  const got = await inbox(who);
  const shown = got.map(({ type, text, link }) => ({ type, text, link }));
  // Notices of one move share their time: `together` compares them in type order.
  const byType = (a: { type: string }, b: { type: string }) => a.type.localeCompare(b.type);
  if (together) expect(shown.sort(byType)).toEqual([...expected].sort(byType));
  else expect(shown).toEqual(expected);
  for (const n of got) {
    expect(n.read_at).toBeNull();
    expect(await mailJobs(n.id)).toHaveLength(1);
  }
  return got;
}

/** Ana asks, Bob offers (Ana hears of it). */
async function offered(title = 'Feed sacks') {
  const ana = await signUpAndIn('Ana Requester');
  const bob = await signUpAndIn('Bob Driver');
  const request = await postRequest(ana.token, title);
  const booking = await offer(bob.token, request.id);
  return { ana, bob, request, bookingId: booking.id };
}

const received = (requestId: string, name = 'Bob Driver', title = 'Feed sacks') => ({
  type: 'offer_received' as const,
  text: `${name} offered to carry “${title}”.`,
  link: requestDetailPath(requestId),
});

async function ok<T>(res: Promise<CallResult<T>>, status = 200): Promise<CallResult<T>> {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r;
}

describe('the lifecycle notifies the other person', () => {
  it('an offer: the requester is told, the driver is not', async () => {
    const { ana, bob, request, bookingId } = await offered();
    await expectInbox(ana, [
      {
        type: 'offer_received',
        text: 'Bob Driver offered to carry “Feed sacks”.',
        link: requestDetailPath(request.id),
      },
    ]);
    expect(await inbox(bob)).toEqual([]);
    const [row] = await ctx.database.db.select().from(notifications).where(eq(notifications.userId, ana.user.id));
    expect(row?.data).toMatchObject({ booking_id: bookingId, request_id: request.id, actor_name: 'Bob Driver' });
  });

  it('choose: the chosen driver is told; every other pending driver hears another was chosen', async () => {
    const { ana, bob, request, bookingId } = await offered();
    const cid = await signUpAndIn('Cid Driver');
    const other = await offer(cid.token, request.id);
    await ok(act(ana.token, bookingId, 'choose'));

    // One move, two notices (written together, so in no set order): chosen, and the payment held for him.
    await expectInbox(
      bob,
      [
        {
          type: 'offer_chosen',
          text: 'Ana Requester chose you to carry “Feed sacks”.',
          link: bookingDetailPath(bookingId),
        },
        {
          type: 'payment_held',
          text: 'Ana Requester paid $12.50 for “Feed sacks”; it is held until delivery.',
          link: bookingDetailPath(bookingId),
        },
      ],
      { together: true },
    );
    await expectInbox(cid, [
      {
        type: 'offer_declined',
        text: 'Another driver was chosen to carry “Feed sacks”.',
        link: bookingDetailPath(other.id),
      },
    ]);
    // The requester only has the two offers: choosing tells her nothing.
    await expectInbox(ana, [received(request.id, 'Cid Driver'), received(request.id, 'Bob Driver')]);
  });

  it('decline: the driver is told; withdraw: the requester is told', async () => {
    const { ana, bob, request, bookingId } = await offered();
    await ok(act(ana.token, bookingId, 'decline'));
    await expectInbox(bob, [
      {
        type: 'offer_declined',
        text: 'Your offer to carry “Feed sacks” was declined.',
        link: bookingDetailPath(bookingId),
      },
    ]);

    const again = await postRequest(ana.token, 'Hay bales');
    const second = await offer(bob.token, again.id);
    await ok(act(bob.token, second.id, 'withdraw'));
    await expectInbox(ana, [
      {
        type: 'booking_cancelled',
        text: 'Bob Driver withdrew their offer to carry “Hay bales”.',
        link: bookingDetailPath(second.id),
      },
      received(again.id, 'Bob Driver', 'Hay bales'),
      received(request.id),
    ]);
    // Bob's own withdrawal tells him nothing.
    expect((await inbox(bob)).map((n) => n.type)).toEqual(['offer_declined']);
  });

  it('cancel, either side, with the reason in words: only the other person is told', async () => {
    const { ana, bob, request, bookingId } = await offered();
    await ok(act(ana.token, bookingId, 'choose'));
    await ok(act(bob.token, bookingId, 'cancel', { reason: 'too_late' }));
    const anaHears = await inbox(ana);
    expect(anaHears.find((n) => n.type === 'booking_cancelled')).toMatchObject({
      text: "Bob Driver cancelled the booking for “Feed sacks” (Can't make it in time).",
      link: bookingDetailPath(bookingId),
    });
    // The driver cancelled: everything goes back to her card.
    expect(anaHears.find((n) => n.type === 'payment_refunded')).toMatchObject({
      text: 'You were refunded $13.75 for “Feed sacks”.',
      link: bookingDetailPath(bookingId),
    });
    expect((await inbox(bob)).map((n) => n.type).sort()).toEqual(['offer_chosen', 'payment_held']);

    // The request is open again: Bob offers anew, Ana chooses and then cancels herself.
    const next = await offer(bob.token, request.id);
    await ok(act(ana.token, next.id, 'choose'));
    await ok(act(ana.token, next.id, 'cancel', { reason: 'item_not_ready', details: 'Still in the barn' }));
    const [mine] = await inbox(bob);
    expect(mine).toMatchObject({
      type: 'booking_cancelled',
      text: 'Ana Requester cancelled the booking for “Feed sacks” (Item not ready).',
      link: bookingDetailPath(next.id),
    });
    // Her own cancellation tells her only of her refund.
    expect((await inbox(ana)).map((n) => n.type)).toEqual([
      'payment_refunded',
      'offer_received',
      ...anaHears.map((n) => n.type),
    ]);
    for (const n of [...(await inbox(ana)), ...(await inbox(bob))]) expect(await mailJobs(n.id)).toHaveLength(1);
  });

  it('pickup and complete (driver, with the code) tell the requester; receive tells the driver', async () => {
    const { ana, bob, request, bookingId } = await offered();
    const chosen = await ok(act(ana.token, bookingId, 'choose'));
    const code = (chosen.body as { delivery_code: string }).delivery_code;
    await ok(act(bob.token, bookingId, 'pickup'));
    await ok(complete(bob.token, bookingId, code));
    await expectInbox(ana, [
      { type: 'delivery_completed', text: 'Bob Driver delivered “Feed sacks”.', link: bookingDetailPath(bookingId) },
      { type: 'picked_up', text: 'Bob Driver picked up “Feed sacks”.', link: bookingDetailPath(bookingId) },
      received(request.id),
    ]);
    const bobHears = await inbox(bob);
    // The delivery released his money; choosing had told him twice (chosen, and the payment held).
    expect(bobHears[0]).toMatchObject({
      type: 'payment_released',
      text: '$12.50 for “Feed sacks” was released to you.',
    });
    expect(
      bobHears
        .slice(1)
        .map((n) => n.type)
        .sort(),
    ).toEqual(['offer_chosen', 'payment_held']);

    const other = await postRequest(ana.token, 'Seed potatoes');
    const second = await offer(bob.token, other.id);
    await ok(act(ana.token, second.id, 'choose'));
    await ok(act(ana.token, second.id, 'receive'));
    const latest = await inbox(bob);
    expect(latest.find((n) => n.type === 'delivery_completed')).toMatchObject({
      text: 'Ana Requester confirmed receiving “Seed potatoes”.',
      link: bookingDetailPath(second.id),
    });
    expect(
      latest
        .slice(0, 2)
        .map((n) => n.type)
        .sort(),
    ).toEqual(['delivery_completed', 'payment_released']);
    expect((await inbox(ana))[0]?.type).toBe('offer_received');
  });

  it('withdrawing a request tells each pending driver, with the title still readable', async () => {
    const { ana, bob, request, bookingId } = await offered('Fence posts');
    const cid = await signUpAndIn('Cid Driver');
    const other = await offer(cid.token, request.id);
    await ok(call('DELETE', `/requests/${request.id}`, { cookie: ana.token }), 204);
    for (const [driver, id] of [
      [bob, bookingId],
      [cid, other.id],
    ] as const)
      await expectInbox(driver, [
        {
          type: 'offer_declined',
          text: 'The request “Fence posts” was withdrawn, so your offer was declined.',
          link: bookingDetailPath(id),
        },
      ]);
    expect((await inbox(ana)).map((n) => n.type)).toEqual(['offer_received', 'offer_received']);
  });

  it('a block declines pending offers: the driver the blocker declined is told, the blocker is not', async () => {
    const { ana, bob, bookingId } = await offered();
    await ok(call('POST', '/blocks', { cookie: ana.token, body: { user_id: bob.user.id } }), 201);
    await expectInbox(bob, [
      {
        type: 'offer_declined',
        text: 'Your offer to carry “Feed sacks” was declined.',
        link: bookingDetailPath(bookingId),
      },
    ]);
    expect((await inbox(ana)).map((n) => n.type)).toEqual(['offer_received']);

    // A driver who blocks the requester ends their own offer: nobody is told.
    const dan = await signUpAndIn('Dan Driver');
    const eve = await signUpAndIn('Eve Requester');
    const req = await postRequest(eve.token, 'Milk churns');
    await offer(dan.token, req.id);
    await ok(call('POST', '/blocks', { cookie: dan.token, body: { user_id: eve.user.id } }), 201);
    expect(await inbox(dan)).toEqual([]);
    expect((await inbox(eve)).map((n) => n.type)).toEqual(['offer_received']);
  });

  it('no e-mail job for a type the recipient switched off; the notification is still written', async () => {
    const ana = await signUpAndIn('Ana Requester');
    const bob = await signUpAndIn('Bob Driver');
    await ctx.database.db.insert(notificationPreferences).values({ userId: ana.user.id, emailOff: ['offer_received'] });
    const request = await postRequest(ana.token);
    await offer(bob.token, request.id);
    const [n] = await inbox(ana);
    expect(n).toMatchObject({ type: 'offer_received', text: 'Bob Driver offered to carry “Feed sacks”.' });
    expect(await mailJobs(n!.id)).toEqual([]);
  });
});

describe('messages are grouped per conversation while unread', () => {
  const send = (who: Account, bookingId: string, body: string, clientId = randomUUID()) =>
    call('POST', `/bookings/${bookingId}/messages`, { cookie: who.token, body: { body, client_id: clientId } });
  const markRead = (who: Account, bookingId: string) =>
    call('POST', `/bookings/${bookingId}/messages/read`, { cookie: who.token, body: {} });
  const messageNotes = async (who: Account) => (await inbox(who)).filter((n) => n.type === 'message');

  it('3 messages make one unread notification; reading the conversation reads it; a 4th makes a new one', async () => {
    const { ana, bob, bookingId } = await offered();
    const link = `${bookingDetailPath(bookingId)}#messages`;
    const first = randomUUID();
    await ok(send(bob, bookingId, 'Hello', first), 201);
    const [one] = await messageNotes(ana);
    expect(one).toMatchObject({ text: 'Bob Driver sent you a message about “Feed sacks”.', link, read_at: null });

    await ok(send(bob, bookingId, 'I can come Tuesday'), 201);
    // A retry of the first message (same client_id) is not a new message.
    await ok(send(bob, bookingId, 'Hello', first), 200);
    await ok(send(bob, bookingId, 'Or Wednesday'), 201);
    const grouped = await messageNotes(ana);
    expect(grouped).toHaveLength(1);
    expect(grouped[0]).toMatchObject({
      id: one!.id,
      text: 'Bob Driver sent you 3 messages about “Feed sacks”.',
      link,
      read_at: null,
    });
    // One e-mail job for the conversation (it waits a minute, so a message read at once sends nothing).
    const [job] = await mailJobs(one!.id);
    expect(await mailJobs(one!.id)).toHaveLength(1);
    expect(job!.runAt.getTime()).toBeGreaterThan(Date.now() + 30_000);
    // The sender is not told of their own messages.
    expect(await messageNotes(bob)).toEqual([]);

    const stream = await events.connect(ana.token);
    await stream.take(1); // ready
    await ok(markRead(ana, bookingId));
    const [read] = await messageNotes(ana);
    expect(read?.id).toBe(one!.id);
    expect(read?.read_at).not.toBeNull();
    const seen = await stream.takeUntil((e) => e.event === 'notification.read');
    expect(dataOf(seen.at(-1)!)).toEqual({ ids: [one!.id], all: false });
    stream.close();

    await ok(send(bob, bookingId, 'See you then'), 201);
    const [fresh, old] = await messageNotes(ana);
    expect(fresh).toMatchObject({ text: 'Bob Driver sent you a message about “Feed sacks”.', read_at: null });
    expect(fresh!.id).not.toBe(one!.id);
    expect(old?.id).toBe(one!.id);
    // The new notification has an e-mail job of its own, even within the same 15-minute window: the job's
    // throttle, not the key, keeps the conversation to one mail per 15 minutes.
    expect(await mailJobs(fresh!.id)).toHaveLength(1);
  });

  it('replying reads my own unread notification of the conversation', async () => {
    const { ana, bob, bookingId } = await offered();
    await ok(send(bob, bookingId, 'Is the gate open?'), 201);
    expect((await messageNotes(ana))[0]?.read_at).toBeNull();
    await ok(send(ana, bookingId, 'Yes'), 201);
    expect((await messageNotes(ana))[0]?.read_at).not.toBeNull();
    const [toBob] = await messageNotes(bob);
    expect(toBob).toMatchObject({ text: 'Ana Requester sent you a message about “Feed sacks”.', read_at: null });
  });
});

describe('published reviews tell the reviewed person', () => {
  const submit = (who: Account, bookingId: string, rating: number) =>
    call('POST', `/bookings/${bookingId}/review`, { cookie: who.token, body: { rating } });

  async function completed(title = 'Feed sacks') {
    const { ana, bob, bookingId } = await offered(title);
    await ok(act(ana.token, bookingId, 'choose'));
    await ok(act(ana.token, bookingId, 'receive'));
    return { ana, bob, bookingId };
  }
  const reviewNotes = async (who: Account) => (await inbox(who)).filter((n) => n.type === 'review_published');

  it('the second review publishes both: each person is told of the review of them, once', async () => {
    const { ana, bob, bookingId } = await completed();
    await ok(submit(bob, bookingId, 5), 201);
    // Hidden until both have reviewed: nobody is told yet.
    expect(await reviewNotes(ana)).toEqual([]);
    await ok(submit(ana, bookingId, 4), 201);
    for (const [who, text] of [
      [ana, 'Bob Driver reviewed you for “Feed sacks”.'],
      [bob, 'Ana Requester reviewed you for “Feed sacks”.'],
    ] as const) {
      const notes = await reviewNotes(who);
      expect(notes.map((n) => [n.text, n.link])).toEqual([[text, bookingDetailPath(bookingId)]]);
      expect(await mailJobs(notes[0]!.id)).toHaveLength(1);
    }
    const [row] = await ctx.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.id, (await reviewNotes(ana))[0]!.id));
    expect(row?.data).toMatchObject({ rating: 5, user_id: ana.user.id, booking_id: bookingId });
  });

  it('the sweep publishes a lone review after 14 days and tells the reviewed person', async () => {
    const { ana, bob, bookingId } = await completed('Wool bales');
    await ok(submit(ana, bookingId, 3), 201);
    shift = 14 * DAY + 60_000;
    expect(await ctx.app.reviews.publishDue()).toBeGreaterThanOrEqual(1);
    const notes = await reviewNotes(bob);
    expect(notes.map((n) => n.text)).toEqual(['Ana Requester reviewed you for “Wool bales”.']);
    expect(await reviewNotes(ana)).toEqual([]);
    // A second sweep publishes nothing and tells nobody again.
    await ctx.app.reviews.publishDue();
    expect(await reviewNotes(bob)).toHaveLength(1);
  });
});

describe('sign-in from a browser not seen before on the account', () => {
  const CHROME_ON_WINDOWS =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
  const signInFrom = (email: string, opts: { browser?: string; password?: string } = {}) =>
    call('POST', '/auth/sign-in', {
      body: { email, password: opts.password ?? STRONG_PASSWORD },
      headers: {
        'user-agent': CHROME_ON_WINDOWS,
        ...(opts.browser ? { cookie: `rr_browser=${opts.browser}` } : {}),
      },
    });
  const browserCookie = (headers: Headers) =>
    headers
      .getSetCookie()
      .find((c) => c.startsWith('rr_browser='))
      ?.match(/^rr_browser=([^;]+)/)?.[1];
  const knownOf = (userId: string) =>
    ctx.database.db.select().from(knownBrowsers).where(eq(knownBrowsers.userId, userId));

  it('the sign-up browser is known; another browser is told (and e-mailed); that browser again is not', async () => {
    const up = await call('POST', '/auth/sign-up', {
      body: {
        email: `nina.${randomUUID()}@example.com`,
        password: STRONG_PASSWORD,
        full_name: 'Nina',
        age_confirmed: true,
      },
    });
    expect(up.status).toBe(201);
    const email = (up.body as { user: { email: string; id: string } }).user.email;
    const who = { user: (up.body as { user: { id: string } }).user } as Account;
    const first = browserCookie(up.headers)!;
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookieLine = up.headers.getSetCookie().find((c) => c.startsWith('rr_browser='))!;
    expect(cookieLine).toMatch(/HttpOnly/);
    expect(cookieLine).toMatch(/SameSite=Lax/);
    expect(cookieLine).toMatch(/Path=\//);
    expect(cookieLine).toMatch(/Max-Age=34560000/);
    // Stored hashed only.
    expect((await knownOf(who.user.id)).map((b) => b.browserHash)).toEqual([
      createHash('sha256').update(first).digest('hex'),
    ]);

    // Signing in from the sign-up browser: silent.
    const same = await ok(signInFrom(email, { browser: first }));
    expect(browserCookie(same.headers)).toBe(first);
    expect(await inbox(who)).toEqual([]);

    // A wrong password from a new browser changes nothing.
    expect((await signInFrom(email, { password: 'Wrong-Horse-9' })).status).toBe(401);
    expect(await knownOf(who.user.id)).toHaveLength(1);
    expect(await inbox(who)).toEqual([]);

    // Another browser (no cookie): told, always e-mailed.
    const other = await ok(signInFrom(email));
    const second = browserCookie(other.headers)!;
    expect(second).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    const [notice] = await expectInbox(who, [
      {
        type: 'new_sign_in',
        text: 'Someone signed in to your RuralRoute account from a new browser (Chrome on Windows).',
        link: PAGE_PATHS.settings,
      },
    ]);
    expect(await knownOf(who.user.id)).toHaveLength(2);

    // That browser again (its cookie sent back): nothing new.
    await ok(signInFrom(email, { browser: second }));
    expect((await inbox(who)).map((n) => n.id)).toEqual([notice!.id]);
  });

  it('a security notice is e-mailed even with every e-mail switched off', async () => {
    const nina = await signUpAndIn('Nina');
    await ctx.database.db
      .insert(notificationPreferences)
      .values({ userId: nina.user.id, emailOff: ['new_sign_in', 'offer_received'] });
    await ok(signInFrom(nina.email));
    const [notice] = await inbox(nina);
    expect(notice?.type).toBe('new_sign_in');
    expect(await mailJobs(notice!.id)).toHaveLength(1);
  });

  it('signUpAndIn signs in from the sign-up browser; an account with no known browser records its first quietly', async () => {
    const nina = await signUpAndIn('Nina');
    expect(await inbox(nina)).toEqual([]);
    // As an account made before browsers were recorded.
    await ctx.database.db.delete(knownBrowsers).where(eq(knownBrowsers.userId, nina.user.id));
    await signIn(nina.email, STRONG_PASSWORD);
    expect(await knownOf(nina.user.id)).toHaveLength(1);
    expect(await inbox(nina)).toEqual([]);
    // From then on a new browser is told.
    await signIn(nina.email, STRONG_PASSWORD);
    expect((await inbox(nina)).map((n) => n.type)).toEqual(['new_sign_in']);
  });

  it('a malformed browser cookie counts as none and is replaced', async () => {
    const nina = await signUpAndIn('Nina');
    const res = await ok(signInFrom(nina.email, { browser: 'not-an-id' }));
    expect(browserCookie(res.headers)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await inbox(nina)).map((n) => n.type)).toEqual(['new_sign_in']);
  });
});
