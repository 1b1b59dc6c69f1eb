import { eq, sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CURRENT_PASSWORD_REQUIRED,
  DELETE_CONFIRM_MESSAGE,
  DELETED_USER_NAME,
  WRONG_CURRENT_PASSWORD,
} from '../../shared/account';
import type { BookingDetail, RequestDetail } from '../../shared/lifecycle';
import type { Page, Ride } from '../../shared/marketplace';
import type { Message } from '../../shared/messages';
import type { Notification } from '../../shared/notifications';
import type { Review } from '../../shared/reviews';
import { CODE_REQUIRED, WRONG_CODE } from '../../shared/two-factor';
import { verifyPassword } from '../auth/password';
import { rowsOf } from '../db/result-rows';
import { jobs, users } from '../db/schema';
import { turnOnDirectly } from '../test/two-factor';
import { STRONG_PASSWORD, setupTestApp } from '../test/harness';
import { startSmtpSink } from '../test/smtp-sink';
import { tombstoneEmail, UNUSABLE_PASSWORD_HASH } from './deletion';
import { ACCOUNT_DELETED_JOB, ACCOUNT_DELETED_SUBJECT } from './deletion-mail';
import { seedAccountStory, TOTP_SECRET } from '../test/account-story';

const sink = await startSmtpSink();
afterAll(() => sink.close());

const { ctx, call, signUpAndIn, signIn } = setupTestApp({
  SMTP_URL: sink.url,
  AUTH_PER_IP_MAX: '100000',
  // The tests drive the job worker (app.jobs.runDue) themselves.
  JOBS_POLL_MS: '3600000',
});

const NAME = 'Zebulon Quartzfield';
const code = (at = new Date()): Promise<string> =>
  generate({ secret: TOTP_SECRET, epoch: Math.floor(at.getTime() / 1000) });
const remove = (token: string, body: unknown) => call('POST', '/account/delete', { cookie: token, body });
const deleteForm = (extra: Record<string, unknown> = {}) => ({
  confirm: 'DELETE',
  password: STRONG_PASSWORD,
  ...extra,
});
const notices = async (token: string) =>
  (await call<Page<Notification>>('GET', '/notifications?limit=50', { cookie: token })).body.items.map((n) => n.text);

describe('Delete account: what it refuses', () => {
  it('needs a session', async () => {
    const res = await call('POST', '/account/delete', { body: deleteForm() });
    expect(res.status).toBe(401);
  });

  it.each([
    ['no body fields', {}, DELETE_CONFIRM_MESSAGE],
    ['no confirm word', { password: STRONG_PASSWORD }, DELETE_CONFIRM_MESSAGE],
    ['a wrong word', deleteForm({ confirm: 'delete' }), DELETE_CONFIRM_MESSAGE],
    ['a word of another type', deleteForm({ confirm: 1 }), DELETE_CONFIRM_MESSAGE],
    ['no password', { confirm: 'DELETE' }, CURRENT_PASSWORD_REQUIRED],
  ])('%s: 400 with the field message, nothing deleted', async (_, body, message) => {
    const me = await signUpAndIn('Keep Me');
    const res = await remove(me.token, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'validation_error', message });
    expect((await call('GET', '/account/profile', { cookie: me.token })).status).toBe(200);
  });

  it('a wrong password: 400 wrong_password, the account stays', async () => {
    const me = await signUpAndIn('Keep Me');
    const res = await remove(me.token, deleteForm({ password: 'Not-The-Password-1' }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'wrong_password', message: WRONG_CURRENT_PASSWORD });
    expect((await call('GET', '/account/profile', { cookie: me.token })).status).toBe(200);
  });

  it('with two-factor on, a code is required even right after signing in, and must be right', async () => {
    const me = await signUpAndIn('Keep Me');
    await turnOnDirectly(ctx.database.db, me.user.id, TOTP_SECRET);
    const missing = await remove(me.token, deleteForm());
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ code: 'code_required', message: CODE_REQUIRED });
    const right = await code();
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    const refused = await remove(me.token, deleteForm({ code: wrong }));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ code: 'wrong_code', message: WRONG_CODE });
    expect((await call('GET', '/account/profile', { cookie: me.token })).status).toBe(200);
    expect((await remove(me.token, deleteForm({ code: right }))).status).toBe(204);
  });

  it('the unusable password hash fails every check without throwing', async () => {
    await expect(verifyPassword(UNUSABLE_PASSWORD_HASH, STRONG_PASSWORD)).resolves.toBe(false);
    await expect(verifyPassword(UNUSABLE_PASSWORD_HASH, '')).resolves.toBe(false);
  });
});

describe('Delete account: an account with a bit of everything', () => {
  let story: Awaited<ReturnType<typeof seedAccountStory>>;
  let response: Awaited<ReturnType<typeof remove>>;

  beforeAll(async () => {
    story = await seedAccountStory(ctx.database.db, call, signUpAndIn, signIn, STRONG_PASSWORD, NAME);
    // A reset link mailed before (its token and finished job name the person), and one still queued.
    await call('POST', '/auth/forgot-password', { body: { email: story.me.email } });
    await ctx.app.jobs.runDue();
    await call('POST', '/auth/forgot-password', { body: { email: story.me.email } });
    response = await remove(story.me.token, deleteForm({ code: await code() }));
  });

  it('answers 204 and clears the session cookie; every session of the account is over', async () => {
    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toMatch(/rr_session=;/);
    for (const token of [story.me.token, story.secondToken])
      expect((await call('GET', '/account/profile', { cookie: token })).status).toBe(401);
  });

  it("withdraws the offers, cancels the confirmed bookings ('Account deleted') and tells the other people", async () => {
    const { ana, dan, carl, bookings, requests } = story;
    const seen = (token: string, id: string) => call<BookingDetail>('GET', `/bookings/${id}`, { cookie: token });

    const withdrawn = (await seen(ana.token, bookings.myOffer.id)).body;
    expect(withdrawn.status).toBe('cancelled');
    expect(withdrawn.events.at(-1)).toMatchObject({ type: 'withdrawn', actor: { full_name: DELETED_USER_NAME } });

    const onAnas = (await seen(ana.token, bookings.myConfirmed.id)).body;
    expect(onAnas.status).toBe('cancelled');
    expect(onAnas.driver.full_name).toBe(DELETED_USER_NAME);
    expect(onAnas.cancellation).toMatchObject({ reason: 'account_deleted', by: { full_name: DELETED_USER_NAME } });
    // Her request is open again for another driver.
    expect(
      (await call<RequestDetail>('GET', `/requests/${requests.anaChosen.id}`, { cookie: ana.token })).body,
    ).toMatchObject({ status: 'open', booking: null });

    const onMine = (await seen(carl.token, bookings.carlBooking.id)).body;
    expect(onMine).toMatchObject({ status: 'cancelled', cancellation: { reason: 'account_deleted' } });
    expect(onMine.requester.full_name).toBe(DELETED_USER_NAME);
    expect((await seen(dan.token, bookings.danOffer.id)).body.status).toBe('declined');

    expect(await notices(ana.token)).toEqual(
      expect.arrayContaining([
        'Deleted user cancelled the booking for “Egg crates” (Account deleted).',
        'Deleted user withdrew their offer to carry “Hay bales”.',
      ]),
    );
    expect(await notices(carl.token)).toContain(
      'Deleted user cancelled the booking for “Water tank” (Account deleted).',
    );
    expect(await notices(dan.token)).toContain(
      'The request “Seed potatoes” was withdrawn, so your offer was declined.',
    );
  });

  it('removes the rides and requests from every list; requests with bookings stay only for their history', async () => {
    const { rita, requests, ride } = story;
    const browse = await call<Page<Ride>>('GET', '/rides/browse?limit=50', { cookie: rita.token });
    expect(browse.body.items.map((r) => r.id)).not.toContain(ride.id);
    const open = await call<Page<{ id: string }>>('GET', '/requests/browse?limit=50', { cookie: rita.token });
    const ids = open.body.items.map((r) => r.id);
    for (const r of [requests.lonely, requests.offered, requests.chosen]) expect(ids).not.toContain(r.id);
    const kept = rowsOf<{ id: string; status: string }>(
      await ctx.database.db.execute(
        sql`select id, status from delivery_requests where user_id = ${story.me.user.id} order by title`,
      ),
    );
    // Fence posts had no booking at all: gone. The two with bookings are marked deleted.
    expect(kept.map((r) => r.status)).toEqual(['deleted', 'deleted']);
    expect(kept.map((r) => r.id).sort()).toEqual([requests.offered.id, requests.chosen.id].sort());
  });

  it("the other person keeps the messages and reviews, shown as 'Deleted user'; the profile is gone", async () => {
    const { rita, me, bookings } = story;
    const conv = await call<Page<Message>>('GET', `/bookings/${bookings.done.bookingId}/messages`, {
      cookie: rita.token,
    });
    expect(conv.body.items.map((m) => m.body).sort()).toEqual(
      ['On my way with the crates.', 'Thank you, the gate is open.'].sort(),
    );
    const list = await call<Page<{ other: { full_name: string } }>>('GET', '/messages/conversations', {
      cookie: rita.token,
    });
    expect(list.body.items[0]?.other.full_name).toBe(DELETED_USER_NAME);
    const reviews = await call<Page<Review>>('GET', `/users/${rita.user.id}/reviews`, { cookie: rita.token });
    expect(reviews.body.items).toHaveLength(1);
    expect(JSON.stringify(reviews.body.items[0])).toContain(DELETED_USER_NAME);
    expect(JSON.stringify(reviews.body.items[0])).not.toContain(NAME);
    expect((await call('GET', `/users/${me.user.id}`, { cookie: rita.token })).status).toBe(404);
    expect((await call('GET', `/users/${me.user.id}/reviews`, { cookie: rita.token })).status).toBe(404);
    // Her earlier notices (my message, my review) now name 'Deleted user' too.
    const hers = await notices(rita.token);
    expect(hers.some((t) => t.startsWith(`${DELETED_USER_NAME} `))).toBe(true);
    expect(hers.join('\n')).not.toContain(NAME);
  });

  it('mails the old address once, then the job forgets it', async () => {
    await ctx.app.jobs.runDue();
    const mails = sink.mails.filter((m) => m.to.includes(story.me.email) && m.subject === ACCOUNT_DELETED_SUBJECT);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Your RuralRoute account was deleted, as you asked.');
    const [job] = await ctx.database.db.select().from(jobs).where(eq(jobs.kind, ACCOUNT_DELETED_JOB));
    expect(job).toMatchObject({ status: 'sent', payload: {} });
  });

  /**
   * The tables that may still hold the deleted account's id, and why: the tombstone itself and what other
   * people's history points to it with. Nothing in any of them names the person or holds the address.
   */
  const ID_ALLOWED: Record<string, string> = {
    users: 'the tombstone row: deleted-<id>@deleted.invalid, no password, deleted_at',
    profiles: "its name is 'Deleted user'; the rating counters stay with the reviews",
    delivery_requests: "requests with bookings, status 'deleted' (in no list), for the bookings' history",
    bookings: "the other person's booking history",
    booking_events: 'the timeline of those bookings (the person as actor)',
    messages: 'messages stay in the conversation (sender shown as Deleted user)',
    reviews: 'reviews by and about the person stay (shown as Deleted user)',
    reports: 'moderation records (reporter or reported)',
    moderation_actions: 'the moderation audit log',
    user_events: "other people's live events kept for resumes (a message's sender, a read mark's reader)",
    payments: 'what was paid for which booking, by and to whom: money records are kept (docs/payments.md)',
    ledger_accounts: "a driver's earnings account: the ledger's history is never rewritten (decision 029)",
  };

  it('leaves no personal data: no table holds the name or address, and only the allowed ones the id', async () => {
    // Listed from the catalog, so a table added later is searched too.
    await ctx.app.jobs.runDue();
    const db = ctx.database.db;
    const tables = rowsOf<{ table_name: string }>(
      await db.execute(sql`select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`),
    ).map((t) => t.table_name);
    expect(tables).toEqual(expect.arrayContaining(['users', 'sessions', 'jobs', 'notifications', 'contact_messages']));
    const { email, user } = story.me;
    const holding = async (needle: string) => {
      const found: string[] = [];
      for (const table of tables) {
        const [row] = rowsOf<{ n: number }>(
          await db.execute(
            sql`select count(*)::int as n from ${sql.identifier(table)} t where strpos(lower(t::text), lower(${needle})) > 0`,
          ),
        );
        if (row!.n > 0) found.push(table);
      }
      return found;
    };
    expect(await holding(email)).toEqual([]);
    expect(await holding(NAME)).toEqual([]);
    expect((await holding(user.id)).filter((t) => !(t in ID_ALLOWED))).toEqual([]);
  });

  it('the old address and password no longer sign in; the address signs up again as a new account', async () => {
    const res = await call('POST', '/auth/sign-in', { body: { email: story.me.email, password: STRONG_PASSWORD } });
    expect(res.status).toBe(401);
    const again = await call<{ user: { id: string; email: string } }>('POST', '/auth/sign-up', {
      body: { email: story.me.email, password: STRONG_PASSWORD, full_name: NAME, age_confirmed: true },
    });
    expect(again.status).toBe(201);
    expect(again.body.user.id).not.toBe(story.me.user.id);
    const [tombstone] = await ctx.database.db.select().from(users).where(eq(users.id, story.me.user.id));
    expect(tombstone).toMatchObject({ email: tombstoneEmail(story.me.user.id), passwordHash: UNUSABLE_PASSWORD_HASH });
    expect(tombstone!.deletedAt).toBeInstanceOf(Date);
    // The new account starts empty: nothing of the old one is its (but the notice of this new browser).
    const token = await signIn(story.me.email, STRONG_PASSWORD);
    expect((await call<Page<Ride>>('GET', '/rides/mine', { cookie: token })).body.items).toEqual([]);
    expect((await notices(token)).filter((t) => !t.startsWith('Someone signed in'))).toEqual([]);
  });
});
