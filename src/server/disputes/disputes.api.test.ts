import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DISPUTE_ERRORS,
  GUARANTEE_CAP_CENTS,
  GUARANTEE_MEMBER_CAP_CENTS,
  ITEM_VALUE_MESSAGE,
  SPLIT_AMOUNT_MESSAGE,
  type AdminDispute,
} from '../../shared/disputes';
import type { BookingDetail } from '../../shared/lifecycle';
import { RESERVE_AMOUNT_MESSAGE, RESERVE_NOTE_MESSAGE } from '../../shared/payments';
import {
  bookingEvents,
  bookings,
  disputes,
  jobs,
  moderationActions,
  notifications,
  payments,
  profiles,
  users,
} from '../db/schema';
import { rowsOf } from '../db/result-rows';
import { balances, ledgerTotal, post } from '../payments';
import { PAYMENT_REFUND_JOB } from '../payments/flow';
import { STRONG_PASSWORD, setupTestApp, type CallResult } from '../test/harness';
import { lifecycleHelpers, testImage } from '../test/lifecycle';
import type { PageBody } from '../test/marketplace';
import { GUARANTEE_CLAIM_JOB, GUARANTEE_REFUND_JOB } from './claims';

const { ctx, call, signUpAndIn, signIn } = setupTestApp({
  AUTH_PER_IP_MAX: '100000',
  WRITE_LIMIT_PER_USER_MAX: '100000',
  // The tests drive the job worker (app.jobs.runDue) themselves.
  JOBS_POLL_MS: '3600000',
});
const { act, complete, confirmed, booking } = lifecycleHelpers(call, signUpAndIn);

// requestBody's compensation is '12.5': the driver receives $12.50, the fee is $1.25, the requester pays $13.75.
const COMPENSATION = 1250;
const FEE = 125;
const TOTAL = 1375;
const RESERVE_SHARE = 31; // 25% of the $1.25 fee, rounded down

const db = () => ctx.database.db;
type Person = { token: string; user: { id: string } };

let admin: Person;
beforeAll(async () => {
  const account = await signUpAndIn('Mo Derator');
  await db().update(users).set({ role: 'admin' }).where(eq(users.id, account.user.id));
  admin = { ...account, token: await signIn(account.email, STRONG_PASSWORD) };
});

interface ReportFields {
  reason?: string;
  details?: string;
  item_value?: string;
  photos?: (Buffer | string)[];
}

function form(fields: ReportFields): FormData {
  const f = new FormData();
  for (const [key, value] of Object.entries(fields))
    if (key !== 'photos' && value !== undefined) f.set(key, String(value));
  for (const [i, p] of (fields.photos ?? []).entries())
    f.append(
      'photos',
      typeof p === 'string'
        ? new File([p], `note-${i}.txt`, { type: 'text/plain' })
        : new File([new Uint8Array(p)], `photo-${i}.png`, { type: 'image/png' }),
    );
  return f;
}

const report = (who: Person, bookingId: string, fields: ReportFields) =>
  call<BookingDetail>('POST', `/bookings/${bookingId}/dispute`, { cookie: who.token, form: form(fields) });
const respond = (who: Person, bookingId: string, fields: ReportFields) =>
  call<BookingDetail>('POST', `/bookings/${bookingId}/dispute/response`, { cookie: who.token, form: form(fields) });
const decide = (who: Person, disputeId: string, body: Record<string, string>) =>
  call<AdminDispute>('POST', `/admin/disputes/${disputeId}/decision`, { cookie: who.token, body });
const queue = (who: Person, query = '') =>
  call<PageBody<AdminDispute>>('GET', `/admin/disputes${query}`, { cookie: who.token });

const DAMAGED = { reason: 'damaged', details: 'The eggs arrived broken.' };

/** A paid booking, confirmed with the test card and picked up by the driver. */
async function pickedUp(title = 'Feed sacks') {
  const s = await confirmed(1, title);
  expect((await act(s.driver.token, s.bookingId, 'pickup')).status).toBe(200);
  return s;
}

/** A paid booking delivered with the code: the money released to the driver. */
async function delivered(title = 'Feed sacks') {
  const s = await pickedUp(title);
  expect((await complete(s.driver.token, s.bookingId, s.code)).status).toBe(200);
  return s;
}

async function disputeRows(bookingId: string) {
  return db().select().from(disputes).where(eq(disputes.bookingId, bookingId));
}
const paymentOf = async (bookingId: string) =>
  (await db().select().from(payments).where(eq(payments.bookingId, bookingId)))[0]!;
const bookingRow = async (bookingId: string) =>
  (await db().select().from(bookings).where(eq(bookings.id, bookingId)))[0]!;
const noticesOf = async (userId: string, type: 'dispute_opened' | 'dispute_resolved') =>
  (
    await db()
      .select({ data: notifications.data })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.type, type)))
  ).map((n) => ({ ...(n.data as Record<string, unknown>), bookingId: (n.data as { booking_id?: string }).booking_id }));
const errorOf = (res: CallResult<unknown>) => res.body as { code: string; message: string };

/** Puts money in the reserve's first shard, as releases would (a test's shortcut to a reserve of any size). */
async function fundReserve(cents: number, key: string) {
  await db().transaction((tx) =>
    post(tx, {
      kind: 'release',
      key: `test:fund:${key}`,
      lines: [
        { account: 'outside', amount: -cents },
        { account: { reserveShard: 0 }, amount: cents },
      ],
    }),
  );
}

describe('reporting a problem', () => {
  it('is refused before pickup (409), to a stranger (404), and on an unpaid booking; nothing is stored', async () => {
    const s = await confirmed();
    const before = await report(s.requester, s.bookingId, DAMAGED);
    expect(before.status).toBe(409);
    expect(errorOf(before)).toEqual({
      code: 'dispute_not_allowed',
      ...{ message: DISPUTE_ERRORS.dispute_not_allowed.message },
    });
    expect((await booking(s.requester.token, s.bookingId)).body.can_report_problem).toBe(false);
    await act(s.driver.token, s.bookingId, 'pickup');
    const stranger = await signUpAndIn('Sly Stranger');
    expect((await report(stranger, s.bookingId, DAMAGED)).status).toBe(404);
    expect((await report(stranger, '00000000-0000-4000-8000-000000000000', DAMAGED)).status).toBe(404);
    expect((await report(stranger, 'not-a-uuid', DAMAGED)).status).toBe(404);
    expect(await disputeRows(s.bookingId)).toEqual([]);
  });

  it.each([
    [{ details: 'x' }, 'Choose what happened'],
    [{ reason: 'lost_in_space', details: 'x' }, 'Choose what happened'],
    [{ reason: 'damaged' }, 'Describe what happened'],
    [{ reason: 'damaged', details: '   ' }, 'Describe what happened'],
    [{ reason: 'damaged', details: 'x'.repeat(2001) }, 'At most 2,000 characters'],
  ])('refuses bad input with its message and changes nothing (%j)', async (fields, message) => {
    const s = await pickedUp();
    const res = await report(s.requester, s.bookingId, fields);
    expect(res.status).toBe(400);
    expect(errorOf(res)).toEqual({ code: 'validation_error', message });
    expect(await disputeRows(s.bookingId)).toEqual([]);
    expect((await bookingRow(s.bookingId)).onHoldDisputeId).toBeNull();
  });

  it('refuses a fourth photo and a file that is not a picture, storing nothing', async () => {
    const s = await pickedUp();
    const png = await testImage('png');
    const four = await report(s.requester, s.bookingId, { ...DAMAGED, photos: [png, png, png, png] });
    expect(four.status).toBe(400);
    expect(errorOf(four).message).toBe('Add at most 3 photos');
    const text = await report(s.requester, s.bookingId, { ...DAMAGED, photos: [png, 'not a picture'] });
    expect(text.status).toBe(400);
    expect(errorOf(text).code).toBe('invalid_image');
    expect(await disputeRows(s.bookingId)).toEqual([]);
  });

  it('while the money is held: On hold, no completion or cancellation, the other person told; photos only to the two and moderators', async () => {
    const s = await pickedUp();
    const png = await testImage('png', 800, 600);
    const res = await report(s.requester, s.bookingId, { ...DAMAGED, photos: [png, png] });
    expect(res.status).toBe(200);
    const page = res.body;
    expect(page.dispute).toMatchObject({
      kind: 'hold',
      state: 'open',
      reason: 'damaged',
      details: 'The eggs arrived broken.',
      item_value_cents: null,
      reporter: { id: s.requester.user.id, role: 'requester' },
      response: null,
      decision: null,
      can_respond: false,
    });
    expect(page.dispute!.photos).toHaveLength(2);
    expect(page.payment).toMatchObject({ state: 'held', on_hold: true, refund_if_cancelled_cents: null });
    expect(page.actions).toEqual([]);
    expect(page.can_report_problem).toBe(false);

    // The driver sees it and may respond; complete, receive and cancel are all refused while it holds.
    const driverView = (await booking(s.driver.token, s.bookingId)).body;
    expect(driverView.dispute).toMatchObject({ state: 'open', can_respond: true });
    expect(driverView.actions).toEqual([]);
    for (const attempt of [
      complete(s.driver.token, s.bookingId, s.code),
      act(s.requester.token, s.bookingId, 'receive'),
      act(s.requester.token, s.bookingId, 'cancel', { reason: 'plans_changed' }),
      act(s.driver.token, s.bookingId, 'cancel', { reason: 'plans_changed' }),
    ]) {
      const refused = await attempt;
      expect(refused.status).toBe(409);
      expect(errorOf(refused).code).toBe('dispute_on_hold');
    }
    expect(await paymentOf(s.bookingId)).toMatchObject({ state: 'held', refundedCents: 0 });
    expect(await bookingRow(s.bookingId)).toMatchObject({ status: 'confirmed' });
    expect(await noticesOf(s.driver.user.id, 'dispute_opened')).toEqual([
      expect.objectContaining({ bookingId: s.bookingId }),
    ]);

    // A second report while one is open.
    const again = await report(s.driver, s.bookingId, { reason: 'other', details: 'No.' });
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe('dispute_open');

    // The photos: re-encoded WebP for the two people and moderators; 404 for anyone else.
    const url = page.dispute!.photos[0]!.url.replace(/^\/api/, '');
    for (const who of [s.requester, s.driver, admin]) {
      const got = await call<ArrayBuffer>('GET', url, { cookie: who.token });
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('image/webp');
    }
    const stranger = await signUpAndIn('Sly Stranger');
    expect((await call('GET', url, { cookie: stranger.token })).status).toBe(404);
  });

  it('takes one response, from the other person only', async () => {
    const s = await pickedUp();
    await report(s.requester, s.bookingId, DAMAGED);
    const self = await respond(s.requester, s.bookingId, { details: 'Me again.' });
    expect(errorOf(self).code).toBe('dispute_response_not_allowed');
    const png = await testImage('jpeg');
    const res = await respond(s.driver, s.bookingId, { details: 'They were whole when I left.', photos: [png] });
    expect(res.status).toBe(200);
    expect(res.body.dispute!.response).toMatchObject({
      author: { id: s.driver.user.id },
      details: 'They were whole when I left.',
    });
    expect(res.body.dispute!.response!.photos).toHaveLength(1);
    expect(res.body.dispute!.can_respond).toBe(false);
    const twice = await respond(s.driver, s.bookingId, { details: 'And again.' });
    expect(twice.status).toBe(409);
    expect(errorOf(twice).code).toBe('dispute_response_not_allowed');
    const empty = await respond(s.driver, s.bookingId, { details: '' });
    expect(empty.status).toBe(400);
  });
});

describe('a moderator decides held money once', () => {
  async function heldDispute(title = 'Feed sacks') {
    const s = await pickedUp(title);
    const res = await report(s.requester, s.bookingId, DAMAGED);
    return { ...s, disputeId: res.body.dispute!.id };
  }

  it('is for admins only (404 to anyone else), oldest first', async () => {
    const a = await heldDispute('First');
    const b = await heldDispute('Second');
    expect((await queue(a.requester)).status).toBe(404);
    expect((await decide(a.driver, a.disputeId, { decision: 'release', note: 'x' })).status).toBe(404);
    const open = (await queue(admin)).body.items.map((d) => d.id);
    expect(open.indexOf(a.disputeId)).toBeLessThan(open.indexOf(b.disputeId));
    const item = (await queue(admin)).body.items.find((d) => d.id === a.disputeId)!;
    expect(item).toMatchObject({
      booking: { id: a.bookingId, status: 'confirmed', title: 'First' },
      requester: { id: a.requester.user.id },
      driver: { id: a.driver.user.id },
      payment: { state: 'held', total_cents: TOTAL },
    });
    expect(item.ledger.transactions.map((t) => t.kind)).toEqual(['hold']);
    expect(item.events.map((e) => e.type)).toEqual(['offered', 'chosen', 'picked_up']);
  });

  it("'Release to driver': the booking completes, the driver is paid, the fee split with the reserve; both told", async () => {
    const s = await heldDispute();
    const [driverBefore, feesBefore, reserveBefore] = await balances(db(), [
      { driver: s.driver.user.id },
      'fees',
      'guarantee_reserve',
    ]);
    const res = await decide(admin, s.disputeId, { decision: 'release', note: 'The photos show no damage.' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      state: 'resolved',
      decision: { decision: 'release', note: 'The photos show no damage.', released_cents: COMPENSATION },
      decided_by: { id: admin.user.id },
    });
    expect(await bookingRow(s.bookingId)).toMatchObject({ status: 'completed', onHoldDisputeId: null });
    expect(await paymentOf(s.bookingId)).toMatchObject({ state: 'released' });
    const [driverAfter, feesAfter, reserveAfter] = await balances(db(), [
      { driver: s.driver.user.id },
      'fees',
      'guarantee_reserve',
    ]);
    expect(driverAfter! - driverBefore!).toBe(COMPENSATION);
    expect(feesAfter! - feesBefore! + (reserveAfter! - reserveBefore!)).toBe(FEE);
    expect(reserveAfter! - reserveBefore!).toBe(RESERVE_SHARE);
    expect(await ledgerTotal(db())).toBe(0);
    const page = (await booking(s.requester.token, s.bookingId)).body;
    expect(page.dispute!.decision).toMatchObject({ decision: 'release', note: 'The photos show no damage.' });
    expect(page.events.at(-1)!.type).toBe('resolved');
    for (const who of [s.requester, s.driver])
      expect(await noticesOf(who.user.id, 'dispute_resolved')).toEqual([
        expect.objectContaining({ note: 'The photos show no damage.', bookingId: s.bookingId }),
      ]);
    const log = await db().select().from(moderationActions).where(eq(moderationActions.disputeId, s.disputeId));
    expect(log).toEqual([expect.objectContaining({ adminId: admin.user.id, action: 'dispute_release' })]);
    // Once: a second decision is refused and moves nothing.
    const again = await decide(admin, s.disputeId, { decision: 'refund', note: 'Changed my mind.' });
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe('dispute_already_decided');
    expect(await paymentOf(s.bookingId)).toMatchObject({ state: 'released', refundedCents: 0 });
  });

  it("'Refund requester': cancelled 'Resolved by RuralRoute', everything back to the card, the request open again", async () => {
    const s = await heldDispute();
    const res = await decide(admin, s.disputeId, { decision: 'refund', note: 'Not delivered.' });
    expect(res.status).toBe(200);
    expect(await bookingRow(s.bookingId)).toMatchObject({ status: 'cancelled', onHoldDisputeId: null });
    expect(await paymentOf(s.bookingId)).toMatchObject({ state: 'refunded', refundedCents: TOTAL });
    const page = (await booking(s.requester.token, s.bookingId)).body;
    expect(page.cancellation).toMatchObject({ reason: 'resolved_by_ruralroute' });
    expect(page.request.status).toBe('open');
    const [job] = await db()
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `payment:${(await paymentOf(s.bookingId)).id}:refund`));
    expect(job).toMatchObject({ kind: PAYMENT_REFUND_JOB });
    expect(await ledgerTotal(db())).toBe(0);
  });

  it("'Split': the amount back to the requester, the rest to the driver; amounts outside 1 cent .. total - 1 refused", async () => {
    const s = await heldDispute();
    for (const amount of ['0', '13.75', '20', 'five', ''])
      expect(await decide(admin, s.disputeId, { decision: 'split', note: 'Half.', amount })).toMatchObject({
        status: 400,
        body: { code: 'validation_error', message: SPLIT_AMOUNT_MESSAGE },
      });
    expect(await decide(admin, s.disputeId, { decision: 'split', note: ' ', amount: '5' })).toMatchObject({
      status: 400,
    });
    expect((await disputeRows(s.bookingId))[0]).toMatchObject({ state: 'open' });
    const [driverBefore] = await balances(db(), [{ driver: s.driver.user.id }]);
    const res = await decide(admin, s.disputeId, { decision: 'split', note: 'Some eggs broke.', amount: '5.00' });
    expect(res.status).toBe(200);
    expect(res.body.decision).toMatchObject({ refund_cents: 500, released_cents: TOTAL - 500 });
    expect(await paymentOf(s.bookingId)).toMatchObject({ state: 'partly_refunded', refundedCents: 500 });
    const [driverAfter] = await balances(db(), [{ driver: s.driver.user.id }]);
    expect(driverAfter! - driverBefore!).toBe(TOTAL - 500);
    expect(await bookingRow(s.bookingId)).toMatchObject({ status: 'completed' });
    const requesterView = (await booking(s.requester.token, s.bookingId)).body;
    expect(requesterView.payment).toMatchObject({ state: 'partly_refunded', refunded_cents: 500, on_hold: false });
    expect(await ledgerTotal(db())).toBe(0);
  });

  it('refuses a decision that does not fit the dispute (400) and a note left empty', async () => {
    const s = await heldDispute();
    expect((await decide(admin, s.disputeId, { decision: 'approve', note: 'x', amount: '5' })).status).toBe(400);
    expect((await decide(admin, s.disputeId, { decision: 'release', note: '' })).status).toBe(400);
    expect((await decide(admin, s.disputeId, { decision: 'maybe', note: 'x' })).status).toBe(400);
    expect(
      (await decide(admin, '00000000-0000-4000-8000-000000000000', { decision: 'release', note: 'x' })).status,
    ).toBe(404);
    expect((await disputeRows(s.bookingId))[0]).toMatchObject({ state: 'open', decision: null });
  });

  it("a leaving account's booking on hold stays held for the moderator", async () => {
    const s = await heldDispute();
    const res = await call('POST', '/account/delete', {
      cookie: s.driver.token,
      body: { confirm: 'DELETE', password: STRONG_PASSWORD },
    });
    expect(res.status).toBeLessThan(300);
    expect(await bookingRow(s.bookingId)).toMatchObject({ status: 'confirmed', onHoldDisputeId: s.disputeId });
    expect(await paymentOf(s.bookingId)).toMatchObject({ state: 'held' });
    expect((await decide(admin, s.disputeId, { decision: 'refund', note: 'Driver left.' })).status).toBe(200);
    expect(await paymentOf(s.bookingId)).toMatchObject({ state: 'refunded', refundedCents: TOTAL });
  });
});

describe('after completion: the Delivery Guarantee', () => {
  it('within 48 hours a requester claims for damage with the item value; after 48 hours nobody may report', async () => {
    const s = await delivered();
    expect((await booking(s.requester.token, s.bookingId)).body.can_report_problem).toBe(true);
    const missing = await report(s.requester, s.bookingId, DAMAGED);
    expect(missing).toMatchObject({ status: 400, body: { message: ITEM_VALUE_MESSAGE } });
    for (const bad of ['0', '-5', 'lots', '12.345'])
      expect((await report(s.requester, s.bookingId, { ...DAMAGED, item_value: bad })).status).toBe(400);
    const claim = await report(s.requester, s.bookingId, { ...DAMAGED, item_value: '$80.00' });
    expect(claim.status).toBe(200);
    expect(claim.body.dispute).toMatchObject({ kind: 'claim', item_value_cents: 8000 });
    expect(await paymentOf(s.bookingId)).toMatchObject({ state: 'released' });

    const late = await delivered('Late');
    await db()
      .update(bookings)
      .set({ endedAt: sql`clock_timestamp() - interval '49 hours'` })
      .where(eq(bookings.id, late.bookingId));
    expect((await booking(late.requester.token, late.bookingId)).body.can_report_problem).toBe(false);
    const refused = await report(late.requester, late.bookingId, { ...DAMAGED, item_value: '10' });
    expect(errorOf(refused).code).toBe('dispute_not_allowed');
  });

  it("a Plus or Community requester's claim is capped at $250 (the plan when claiming), a Free one's at $50", async () => {
    const s = await delivered();
    const setPlan = (plan: 'plus' | 'community' | null) =>
      db().update(profiles).set({ plan }).where(eq(profiles.userId, s.requester.user.id));
    expect((await booking(s.requester.token, s.bookingId)).body.guarantee_cap_cents).toBe(GUARANTEE_CAP_CENTS);
    await setPlan('plus');
    expect((await booking(s.requester.token, s.bookingId)).body.guarantee_cap_cents).toBe(GUARANTEE_MEMBER_CAP_CENTS);
    const claim = await report(s.requester, s.bookingId, { ...DAMAGED, item_value: '300' });
    const id = claim.body.dispute!.id;
    expect((await disputeRows(s.bookingId))[0]!.claimCapCents).toBe(GUARANTEE_MEMBER_CAP_CENTS);
    // The plan ending after the claim does not lower its cap.
    await setPlan(null);
    expect((await decide(admin, id, { decision: 'approve', note: 'x', amount: '250.01' })).status).toBe(400);
    expect((await decide(admin, id, { decision: 'approve', note: 'Broken.', amount: '200' })).status).toBe(200);

    const free = await delivered('Free sacks');
    const freeClaim = await report(free.requester, free.bookingId, { ...DAMAGED, item_value: '300' });
    const freeId = freeClaim.body.dispute!.id;
    expect((await disputeRows(free.bookingId))[0]!.claimCapCents).toBe(GUARANTEE_CAP_CENTS);
    expect((await decide(admin, freeId, { decision: 'approve', note: 'x', amount: '50.01' })).status).toBe(400);
  });

  it("a driver's report after completion moves no money: only 'Decline' applies", async () => {
    const s = await delivered();
    const res = await report(s.driver, s.bookingId, { reason: 'other', details: 'The requester was rude.' });
    expect(res.body.dispute).toMatchObject({ kind: 'report', item_value_cents: null });
    const id = res.body.dispute!.id;
    expect((await decide(admin, id, { decision: 'approve', note: 'x', amount: '5' })).status).toBe(400);
    expect((await decide(admin, id, { decision: 'decline', note: 'We spoke to both.' })).status).toBe(200);
    const log = await db().select().from(moderationActions).where(eq(moderationActions.disputeId, id));
    expect(log.map((l) => l.action)).toEqual(['dispute_close']);
  });

  it('an approved claim waits for funds whole, then is paid from the reserve: to the card first, the rest as credit', async () => {
    const s = await delivered();
    const claim = await report(s.requester, s.bookingId, {
      reason: 'not_delivered',
      details: 'Never came.',
      item_value: '2000',
    });
    const id = claim.body.dispute!.id;
    // The cap: at most $50 (or the item value, if lower).
    expect(
      (await decide(admin, id, { decision: 'approve', note: 'x', amount: String(GUARANTEE_CAP_CENTS / 100 + 1) }))
        .status,
    ).toBe(400);
    const [reserve] = await balances(db(), ['guarantee_reserve']);
    // More than the reserve holds: nothing moves, the claim waits.
    const amount = reserve! + 1500;
    const approved = await decide(admin, id, {
      decision: 'approve',
      note: 'Lost in transit.',
      amount: (amount / 100).toFixed(2),
    });
    expect(approved.status).toBe(200);
    expect(approved.body.decision).toMatchObject({ approved_cents: amount, waiting_for_funds: true });
    expect((await balances(db(), ['guarantee_reserve']))[0]).toBe(reserve);
    expect(await paymentOf(s.bookingId)).toMatchObject({ refundedCents: 0 });
    const [retry] = await db()
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `dispute:${id}:claim`));
    expect(retry).toMatchObject({ kind: GUARANTEE_CLAIM_JOB, status: 'queued' });

    // The reserve grows; the retry pays the whole claim: $13.75 back to the card, the rest as credit.
    // An admin adds the platform's money to the reserve ('Add to the reserve'): the waiting claim is tried at once.
    const refused = await call('POST', '/admin/payments/reserve', {
      cookie: admin.token,
      body: { amount: '0.50', note: 'Seed money' },
    });
    expect(refused).toMatchObject({ status: 400, body: { message: RESERVE_AMOUNT_MESSAGE } });
    expect(
      await call('POST', '/admin/payments/reserve', { cookie: admin.token, body: { amount: '20', note: ' ' } }),
    ).toMatchObject({ status: 400, body: { message: RESERVE_NOTE_MESSAGE } });
    expect(
      (await call('POST', '/admin/payments/reserve', { cookie: s.requester.token, body: { amount: '20', note: 'x' } }))
        .status,
    ).toBe(404);
    const funded = await call<{ guarantee_reserve_cents: number }>('POST', '/admin/payments/reserve', {
      cookie: admin.token,
      body: { amount: '$20.00', note: 'The founders’ seed money for the guarantee.' },
    });
    expect(funded).toMatchObject({ status: 200, body: { guarantee_reserve_cents: reserve! + 2000 } });
    const [logged] = await db()
      .select()
      .from(moderationActions)
      .where(and(eq(moderationActions.action, 'reserve_fund'), eq(moderationActions.adminId, admin.user.id)));
    expect(logged).toMatchObject({ amountCents: 2000, note: 'The founders’ seed money for the guarantee.' });
    const [driverBefore] = await balances(db(), [{ driver: s.driver.user.id }]);
    await ctx.app.jobs.runDue();
    const [row] = await disputeRows(s.bookingId);
    expect(row!.paidAt).not.toBeNull();
    expect(row!.refundCents).toBe(TOTAL);
    // The payment stays as its delivery settled it: the claim's money is the dispute's.
    expect(await paymentOf(s.bookingId)).toMatchObject({ state: 'released', refundedCents: 0 });
    const [credit, reserveAfter, driverAfter] = await balances(db(), [
      { credit: s.requester.user.id },
      'guarantee_reserve',
      { driver: s.driver.user.id },
    ]);
    expect(credit).toBe(amount - TOTAL);
    expect(reserveAfter).toBe(reserve! + 2000 - amount);
    // The driver's released earnings are not taken back.
    expect(driverAfter).toBe(driverBefore);
    const page = (await booking(s.requester.token, s.bookingId)).body;
    expect(page.dispute!.decision).toMatchObject({ decision: 'approve', waiting_for_funds: false });
    // The card part reaches the card through its job.
    const [refundJob] = await db()
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, GUARANTEE_REFUND_JOB), sql`${jobs.payload}->>'disputeId' = ${id}`));
    expect(refundJob).toBeDefined();
    await ctx.app.jobs.runDue();
    const [pendingRefunds] = await balances(db(), ['refunds_pending']);
    expect(pendingRefunds).toBeGreaterThanOrEqual(0);
    expect(await ledgerTotal(db())).toBe(0);
    // The guarantee pays a delivery once.
    const second = await report(s.requester, s.bookingId, { ...DAMAGED, item_value: '10' });
    expect(errorOf(second).code).toBe('dispute_not_allowed');
  });
});

describe("a crash after the claim's card refund was sent, before it was posted", () => {
  it('runs the job again: the provider refunds once, the ledger posts once', async () => {
    const s = await delivered();
    const claim = await report(s.requester, s.bookingId, { ...DAMAGED, item_value: '5' });
    const id = claim.body.dispute!.id;
    await fundReserve(500, `crash:${id}`);
    expect((await decide(admin, id, { decision: 'approve', note: 'Broken.', amount: '5' })).status).toBe(200);
    const payment = await paymentOf(s.bookingId);
    // The job's first run: the provider's refund went out, then the process died before refund_sent was posted.
    await ctx.app.payments.provider.refund({
      chargeId: payment.providerChargeId!,
      amountCents: 500,
      idempotencyKey: `payment:${payment.id}:claim_refund`,
    });
    await ctx.app.jobs.runDue();
    const [charge] = rowsOf<{ refunded_cents: string }>(
      await db().execute(
        sql`select refunded_cents::text from test_provider_charges where id = ${payment.providerChargeId!}`,
      ),
    );
    expect(Number(charge!.refunded_cents)).toBe(500);
    const sent = rowsOf<{ n: number }>(
      await db().execute(
        sql`select count(*)::int as n from ledger_transactions where idempotency_key = ${`payment:${payment.id}:claim_refund_sent`}`,
      ),
    );
    expect(sent[0]!.n).toBe(1);
    expect(await ledgerTotal(db())).toBe(0);
  });
});

describe('the booking timeline of a decided dispute', () => {
  it("records the decision as the system's event", async () => {
    const s = await pickedUp();
    const id = (await report(s.driver, s.bookingId, { reason: 'wrong_item', details: 'Not what was listed.' })).body
      .dispute!.id;
    await decide(admin, id, { decision: 'split', note: 'Both partly right.', amount: '1.25' });
    const events = await db()
      .select({ type: bookingEvents.type, actorId: bookingEvents.actorId })
      .from(bookingEvents)
      .where(eq(bookingEvents.bookingId, s.bookingId))
      .orderBy(asc(bookingEvents.createdAt), asc(bookingEvents.id));
    expect(events.at(-1)).toEqual({ type: 'resolved', actorId: null });
  });
});
