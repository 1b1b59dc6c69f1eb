import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryRequest, Ride } from '../../shared/marketplace';
import type { AdminReport, SuspendedAccount } from '../../shared/moderation';
import { moderationActions, reports, users } from '../db/schema';
import { STRONG_PASSWORD, setupTestApp } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import { collectPages, rideBody, tick, type PageBody } from '../test/marketplace';

const { ctx, call, signUpAndIn, signIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const { postRequest, offer } = lifecycleHelpers(call, signUpAndIn);

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const NOTHING_HERE = { code: 'not_found', message: 'There is nothing at this address.' };
const RESOLVED = {
  code: 'report_already_resolved',
  message: 'This report has already been resolved. Reload the list.',
};

let admin: { token: string; user: { id: string } };

/** An admin as `npm run admin:grant` makes one: the role set in the database, then a fresh sign-in. */
async function makeAdmin(name = 'Ada Admin') {
  const account = await signUpAndIn(name);
  await ctx.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, account.user.id));
  return { ...account, token: await signIn(account.email, STRONG_PASSWORD) };
}

async function fileReport(from: { token: string }, about: string, details = 'Rude and threatening.') {
  const res = await call<{ id: string }>('POST', '/reports', {
    cookie: from.token,
    body: { reported_user_id: about, reason: 'unsafe', details },
  });
  if (res.status !== 201) throw new Error(`report refused: ${res.status}`);
  await tick();
  return res.body.id;
}

const listReports = (token: string, query = '') =>
  call<PageBody<AdminReport>>('GET', `/admin/reports${query}`, { cookie: token });

async function actionsFor(reportId: string) {
  return ctx.database.db
    .select({
      adminId: moderationActions.adminId,
      action: moderationActions.action,
      reportId: moderationActions.reportId,
      targetUserId: moderationActions.targetUserId,
      createdAt: moderationActions.createdAt,
    })
    .from(moderationActions)
    .where(eq(moderationActions.reportId, reportId))
    .orderBy(asc(moderationActions.id));
}

beforeAll(async () => {
  admin = await makeAdmin();
});

describe('/api/admin is not there for anyone but an admin', () => {
  it('answers 404 (not 401 or 403) to the signed-out and to ordinary users, before any validation', async () => {
    const user = await signUpAndIn();
    const someone = await signUpAndIn();
    const reportId = await fileReport(user, someone.user.id);
    const paths: [string, string][] = [
      ['GET', '/admin/reports'],
      ['GET', '/admin/reports?status=open'],
      ['GET', '/admin/reports?status=bogus&limit=0'],
      ['POST', `/admin/reports/${reportId}/dismiss`],
      ['POST', `/admin/reports/${reportId}/suspend`],
      ['POST', '/admin/reports/not-a-uuid/dismiss'],
      ['GET', '/admin/suspensions'],
      ['DELETE', `/admin/suspensions/${someone.user.id}`],
      ['GET', '/admin/anything-else'],
    ];
    for (const [method, path] of paths) {
      for (const cookie of [undefined, user.token]) {
        const res = await call(method, path, { cookie });
        expect(res.status, `${method} ${path} ${cookie ? 'user' : 'signed out'}`).toBe(404);
        expect(res.body).toEqual(NOTHING_HERE);
      }
    }
    // Nothing happened to the report or the person.
    const [row] = await ctx.database.db.select().from(reports).where(eq(reports.id, reportId));
    expect(row?.status).toBe('open');
    expect(await actionsFor(reportId)).toEqual([]);
  });

  it('is left out of the OpenAPI document', async () => {
    const doc = await call<{ paths: Record<string, unknown> }>('GET', '/openapi.json');
    expect(Object.keys(doc.body.paths).filter((p) => p.startsWith('/admin'))).toEqual([]);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/blocks', '/reports']));
  });

  it('tells the session whether the user is an admin', async () => {
    const session = await call<{ user: { is_admin: boolean } }>('GET', '/auth/session', { cookie: admin.token });
    expect(session.body.user.is_admin).toBe(true);
    const user = await signUpAndIn();
    const theirs = await call<{ user: { is_admin: boolean } }>('GET', '/auth/session', { cookie: user.token });
    expect(theirs.body.user.is_admin).toBe(false);
  });
});

describe('the moderation queue', () => {
  it('lists open reports oldest first with both people, the booking and no resolution; pages with a cursor', async () => {
    const reporter = await signUpAndIn('Rita Reporter');
    const reported = await signUpAndIn('Rob Reported');
    const request = await postRequest(reporter.token, 'Hay bales');
    const booking = await offer(reported.token, request.id);
    const withBooking = await call<{ id: string }>('POST', '/reports', {
      cookie: reporter.token,
      body: { reported_user_id: reported.user.id, booking_id: booking.id, reason: 'spam', details: 'Spam offer.' },
    });
    await tick();
    const later = await fileReport(reporter, reported.user.id, 'Second one.');

    const all = await collectPages<AdminReport>((cursor) =>
      listReports(admin.token, `?status=open&limit=1${cursor ? `&cursor=${cursor}` : ''}`),
    );
    const ours = all.items.filter((r) => r.reporter.id === reporter.user.id);
    expect(ours.map((r) => r.id)).toEqual([withBooking.body.id, later]);
    expect(ours[0]).toEqual({
      id: withBooking.body.id,
      reason: 'spam',
      details: 'Spam offer.',
      status: 'open',
      created_at: expect.any(String),
      reporter: { id: reporter.user.id, full_name: 'Rita Reporter' },
      reported: { id: reported.user.id, full_name: 'Rob Reported', suspended: false },
      booking: { id: booking.id, request_title: 'Hay bales' },
      review: null,
      resolved_at: null,
      resolved_by: null,
    });
    expect(ours[1]?.booking).toBeNull();
    // Open is the default; the oldest open report overall comes first.
    const first = await listReports(admin.token);
    expect(first.status).toBe(200);
    const times = first.body.items.map((r) => r.created_at);
    expect([...times].sort()).toEqual(times);
    expect((await listReports(admin.token, '?status=bogus')).status).toBe(400);
  });

  it('dismisses an open report (200, resolved by the admin, a moderation_actions row); again is 409', async () => {
    const reporter = await signUpAndIn();
    const reported = await signUpAndIn();
    const id = await fileReport(reporter, reported.user.id);
    const res = await call<AdminReport>('POST', `/admin/reports/${id}/dismiss`, { cookie: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      status: 'dismissed',
      resolved_at: expect.any(String),
      resolved_by: { id: admin.user.id, full_name: 'Ada Admin' },
      reported: { id: reported.user.id, suspended: false },
    });
    expect(await actionsFor(id)).toEqual([
      {
        adminId: admin.user.id,
        action: 'dismiss_report',
        reportId: id,
        targetUserId: reported.user.id,
        createdAt: expect.any(Date),
      },
    ]);
    expect(await call('POST', `/admin/reports/${id}/dismiss`, { cookie: admin.token })).toMatchObject({
      status: 409,
      body: RESOLVED,
    });
    expect(await call('POST', `/admin/reports/${id}/suspend`, { cookie: admin.token })).toMatchObject({
      status: 409,
      body: RESOLVED,
    });
    expect(await actionsFor(id)).toHaveLength(1);
    // It leaves the queue and shows under 'dismissed', newest first.
    const open = await listReports(admin.token, '?limit=50');
    expect(open.body.items.map((r) => r.id)).not.toContain(id);
    const dismissed = await listReports(admin.token, '?status=dismissed');
    expect(dismissed.body.items[0]?.id).toBe(id);
    // Unknown or malformed ids are 404 for an admin too.
    for (const bad of [UNKNOWN, 'nope'])
      expect(await call('POST', `/admin/reports/${bad}/dismiss`, { cookie: admin.token })).toMatchObject({
        status: 404,
        body: { code: 'not_found', message: 'Report not found.' },
      });
  });
});

describe('suspending from a report', () => {
  it('suspends the person: every open report about them actioned, one action row, sessions gone, Browse cleared', async () => {
    const reporter = await signUpAndIn('Reporter');
    const other = await signUpAndIn('Other Reporter');
    const target = await signUpAndIn('Troublemaker');
    const driver = await signUpAndIn('Driver');
    const secondDevice = await signIn(target.email, STRONG_PASSWORD);
    const ride = await call<Ride>('POST', '/rides', { cookie: target.token, body: rideBody() });
    const request = await postRequest(target.token, 'Suspicious parcel');
    const laterRequest = await postRequest(target.token, 'Another parcel');
    const pending = await offer(driver.token, laterRequest.id);
    const id = await fileReport(reporter, target.user.id);
    const otherOpen = await fileReport(other, target.user.id);
    const unrelated = await fileReport(reporter, other.user.id);
    const dismissedEarlier = await fileReport(other, target.user.id);
    await call('POST', `/admin/reports/${dismissedEarlier}/dismiss`, { cookie: admin.token });
    // Their session works until the moment of suspension.
    expect((await call('GET', '/rides/mine', { cookie: target.token })).status).toBe(200);

    const res = await call<AdminReport>('POST', `/admin/reports/${id}/suspend`, { cookie: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      status: 'actioned',
      reported: { id: target.user.id, suspended: true },
      resolved_by: { id: admin.user.id },
    });

    const rows = await ctx.database.db.select().from(reports).where(eq(reports.reportedId, target.user.id));
    const statusOf = Object.fromEntries(rows.map((r) => [r.id, r.status]));
    expect(statusOf).toEqual({ [id]: 'actioned', [otherOpen]: 'actioned', [dismissedEarlier]: 'dismissed' });
    const [stillOpen] = await ctx.database.db.select().from(reports).where(eq(reports.id, unrelated));
    expect(stillOpen?.status).toBe('open');
    expect(await actionsFor(id)).toEqual([
      {
        adminId: admin.user.id,
        action: 'suspend_account',
        reportId: id,
        targetUserId: target.user.id,
        createdAt: expect.any(Date),
      },
    ]);
    const [user] = await ctx.database.db.select().from(users).where(eq(users.id, target.user.id));
    expect(user?.suspendedAt).toBeInstanceOf(Date);

    // Every session of theirs is gone at once.
    for (const token of [target.token, secondDevice]) {
      expect((await call('GET', '/rides/mine', { cookie: token })).status).toBe(401);
      expect((await call('GET', '/auth/session', { cookie: token })).body).toEqual({ user: null, session: null });
    }
    // The right password: told the account is suspended; a wrong one: the usual answer.
    expect(
      await call('POST', '/auth/sign-in', { body: { email: target.email, password: STRONG_PASSWORD } }),
    ).toMatchObject({
      status: 403,
      body: { code: 'account_suspended', message: 'This account is suspended. Contact support.' },
    });
    const wrong = await call('POST', '/auth/sign-in', { body: { email: target.email, password: 'Wrong-Horse-9' } });
    expect(wrong).toMatchObject({ status: 401, body: { code: 'invalid_credentials' } });
    expect(wrong.headers.get('set-cookie')).toBeNull();

    // Their listings leave Browse for everyone, and nobody can offer on their requests.
    const viewer = await signUpAndIn();
    const rides = await collectPages<Ride>((cursor) =>
      call<PageBody<Ride>>('GET', `/rides/browse?limit=50${cursor ? `&cursor=${cursor}` : ''}`, {
        cookie: viewer.token,
      }),
    );
    expect(rides.items.map((r) => r.id)).not.toContain(ride.body.id);
    const requests = await collectPages<DeliveryRequest>((cursor) =>
      call<PageBody<DeliveryRequest>>('GET', `/requests/browse?limit=50${cursor ? `&cursor=${cursor}` : ''}`, {
        cookie: viewer.token,
      }),
    );
    expect(requests.items.map((r) => r.id)).not.toContain(request.id);
    expect(await call('POST', '/bookings', { cookie: viewer.token, body: { request_id: request.id } })).toMatchObject({
      status: 409,
      body: { code: 'request_unavailable' },
    });
    // An offer made before stays as it was (the suspension ends no booking by itself).
    expect((await call('GET', `/bookings/${pending.id}`, { cookie: driver.token })).body).toMatchObject({
      status: 'pending',
    });

    // The other report about them was actioned with this one: resolving it again is 409.
    expect(await call('POST', `/admin/reports/${otherOpen}/suspend`, { cookie: admin.token })).toMatchObject({
      status: 409,
      body: RESOLVED,
    });
    const actioned = await listReports(admin.token, '?status=actioned');
    expect(actioned.body.items.map((r) => r.id)).toEqual(expect.arrayContaining([id, otherOpen]));
  });

  it('a new report about a suspended person can be actioned again without moving the suspension time', async () => {
    const reporter = await signUpAndIn();
    const target = await signUpAndIn();
    await call('POST', `/admin/reports/${await fileReport(reporter, target.user.id)}/suspend`, {
      cookie: admin.token,
    });
    const [before] = await ctx.database.db.select().from(users).where(eq(users.id, target.user.id));
    const again = await fileReport(reporter, target.user.id);
    const res = await call<AdminReport>('POST', `/admin/reports/${again}/suspend`, { cookie: admin.token });
    expect(res.body).toMatchObject({ status: 'actioned', reported: { suspended: true } });
    const [after] = await ctx.database.db.select().from(users).where(eq(users.id, target.user.id));
    expect(after?.suspendedAt).toEqual(before?.suspendedAt);
  });
});

describe('lifting a suspension', () => {
  const NOT_SUSPENDED = { code: 'not_found', message: 'This account is not suspended.' };
  const suspensions = (query = '') =>
    call<PageBody<SuspendedAccount>>('GET', `/admin/suspensions${query}`, { cookie: admin.token });

  it('lists suspended accounts newest first; lifting one lets them sign in, returns their listings, logs it', async () => {
    const reporter = await signUpAndIn('Lift Reporter');
    const first = await signUpAndIn('First Suspended');
    const target = await signUpAndIn('Wrongly Suspended');
    const ride = await call<Ride>('POST', '/rides', { cookie: target.token, body: rideBody() });
    const request = await postRequest(target.token, 'Parcel of a wrongly suspended person');
    await call('POST', `/admin/reports/${await fileReport(reporter, first.user.id)}/suspend`, { cookie: admin.token });
    const reportId = await fileReport(reporter, target.user.id);
    await call('POST', `/admin/reports/${reportId}/suspend`, { cookie: admin.token });

    // Newest suspension first, one row per person; pages with a cursor.
    const all = await collectPages<SuspendedAccount>((cursor) =>
      call<PageBody<SuspendedAccount>>('GET', `/admin/suspensions?limit=1${cursor ? `&cursor=${cursor}` : ''}`, {
        cookie: admin.token,
      }),
    );
    const ids = all.items.map((a) => a.user.id);
    expect(ids.indexOf(target.user.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(target.user.id)).toBeLessThan(ids.indexOf(first.user.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(all.items.find((a) => a.user.id === target.user.id)).toEqual({
      user: { id: target.user.id, full_name: 'Wrongly Suspended' },
      suspended_at: expect.any(String),
    });

    const lifted = await call('DELETE', `/admin/suspensions/${target.user.id}`, { cookie: admin.token });
    expect(lifted.status).toBe(204);
    const [user] = await ctx.database.db.select().from(users).where(eq(users.id, target.user.id));
    expect(user?.suspendedAt).toBeNull();
    const rows = await ctx.database.db
      .select({ action: moderationActions.action, adminId: moderationActions.adminId })
      .from(moderationActions)
      .where(eq(moderationActions.targetUserId, target.user.id))
      .orderBy(asc(moderationActions.id));
    expect(rows).toEqual([
      { action: 'suspend_account', adminId: admin.user.id },
      { action: 'lift_suspension', adminId: admin.user.id },
    ]);
    // The report stays as it was resolved; the person leaves the list; the other suspension stands.
    expect((await listReports(admin.token, '?status=actioned&limit=50')).body.items.map((r) => r.id)).toContain(
      reportId,
    );
    const after = (await suspensions('?limit=50')).body.items.map((a) => a.user.id);
    expect(after).not.toContain(target.user.id);
    expect(after).toContain(first.user.id);

    // They can sign in again, and their listings are back in Browse (the next read sees it).
    const token = await signIn(target.email, STRONG_PASSWORD);
    expect((await call('GET', '/rides/mine', { cookie: token })).status).toBe(200);
    const viewer = await signUpAndIn();
    const rides = await collectPages<Ride>((cursor) =>
      call<PageBody<Ride>>('GET', `/rides/browse?limit=50${cursor ? `&cursor=${cursor}` : ''}`, {
        cookie: viewer.token,
      }),
    );
    expect(rides.items.map((r) => r.id)).toContain(ride.body.id);
    const requests = await collectPages<DeliveryRequest>((cursor) =>
      call<PageBody<DeliveryRequest>>('GET', `/requests/browse?limit=50${cursor ? `&cursor=${cursor}` : ''}`, {
        cookie: viewer.token,
      }),
    );
    expect(requests.items.map((r) => r.id)).toContain(request.id);
    expect((await call('POST', '/bookings', { cookie: viewer.token, body: { request_id: request.id } })).status).toBe(
      201,
    );

    // Lifting again, lifting someone never suspended, an unknown or a malformed id: 404, and nothing is logged.
    for (const id of [target.user.id, reporter.user.id, UNKNOWN, 'not-a-uuid'])
      expect(await call('DELETE', `/admin/suspensions/${id}`, { cookie: admin.token })).toMatchObject({
        status: 404,
        body: NOT_SUSPENDED,
      });
    const logged = await ctx.database.db
      .select({ id: moderationActions.id })
      .from(moderationActions)
      .where(eq(moderationActions.action, 'lift_suspension'));
    expect(logged).toHaveLength(1);
  });

  it('refuses a malformed cursor or limit with 400', async () => {
    for (const query of ['?limit=0', '?limit=abc', '?cursor=garbage'])
      expect((await suspensions(query)).status, query).toBe(400);
  });
});
