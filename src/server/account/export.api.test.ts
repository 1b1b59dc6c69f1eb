import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_SECTIONS } from '../../shared/account';
import { REAUTH_REQUIRED } from '../../shared/two-factor';
import { sessions, users } from '../db/schema';
import { lifecycleHelpers } from '../test/lifecycle';
import { STRONG_PASSWORD, setupTestApp } from '../test/harness';
import { completeDelivery } from '../test/reviews';
import { seedAccountStory, TOTP_SECRET } from '../test/account-story';

/** The app's clock runs `offsetMs` ahead of the wall clock: the 10-minute re-check is tested by moving it. */
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

const { ctx, call, signUpAndIn, signIn } = setupTestApp(
  { AUTH_PER_IP_MAX: '100000', JOBS_POLL_MS: '3600000' },
  { clock },
);

const NAME = 'Yolanda Birchwood';
const exportOf = (token: string) => call<Record<string, unknown>>('GET', '/account/export', { cookie: token });

type Item = Record<string, unknown>;
type Story = Awaited<ReturnType<typeof seedAccountStory>>;

describe('Your data: GET /account/export', () => {
  let story: Story;
  let res: Awaited<ReturnType<typeof exportOf>>;
  let text: string;
  let doc: Record<string, unknown>;
  const section = (key: string) => doc[key] as Item[];

  beforeAll(async () => {
    story = await seedAccountStory(ctx.database.db, call, signUpAndIn, signIn, STRONG_PASSWORD, NAME);
    // A review of me that is not published yet (I have not written mine): still Dan's, so not in my file.
    const life = lifecycleHelpers(call, signUpAndIn);
    const unpublished = await completeDelivery(life, story.dan, story.me, 'Straw bales');
    await call('POST', `/bookings/${unpublished.bookingId}/review`, {
      cookie: story.dan.token,
      body: { rating: 2, comment: 'Not yet public.' },
    });
    res = await exportOf(story.me.token);
    text = JSON.stringify(res.body);
    doc = res.body;
  });

  it("holds my payments from my side (the requester's with the card and fee, the driver's without) and payouts", () => {
    const items = section('payments') as unknown as Record<string, unknown>[];
    expect(items.length).toBeGreaterThan(0);
    for (const p of items) {
      expect(['requester', 'driver']).toContain(p.my_role);
      if (p.my_role === 'requester') expect(p).toMatchObject({ card_last4: '4242', fee_cents: expect.any(Number) });
      else expect(p).toMatchObject({ card_last4: null, fee_cents: null });
    }
    expect(section('payouts')).toEqual([]);
  });

  it('needs a session', async () => {
    expect((await call('GET', '/account/export')).status).toBe(401);
  });

  it('is a JSON download named for the day, never cached, with every section', () => {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="ruralroute-data-${clock().toISOString().slice(0, 10)}.json"`,
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(doc)).toEqual(['exported_at', ...EXPORT_SECTIONS]);
    expect(Math.abs(Date.parse(doc.exported_at as string) - Date.now())).toBeLessThan(60_000);
  });

  it('account: who I am, my two-factor state, a pending e-mail change, my browsers; no secret', async () => {
    const { me } = story;
    expect(doc.account).toMatchObject({
      id: me.user.id,
      email: me.email,
      full_name: NAME,
      about: null,
      is_admin: false,
      rating: { count: 1, average: 4 },
      two_factor: { enabled: true, recovery_codes_left: 1 },
      pending_email_change: { new_email: `new.${me.email}` },
    });
    expect((doc.account as { known_browsers: unknown[] }).known_browsers.length).toBeGreaterThanOrEqual(1);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, me.user.id));
    const tokens = await ctx.database.db
      .select({ hash: sessions.tokenHash })
      .from(sessions)
      .where(eq(sessions.userId, me.user.id));
    for (const secret of [row!.passwordHash, TOTP_SECRET, 'f'.repeat(64), 'e'.repeat(64), ...tokens.map((t) => t.hash)])
      expect(text).not.toContain(secret);
    expect(text).not.toMatch(/password_hash|token_hash|code_hash|"secret"/);
  });

  it('rides and requests: mine, with their fields', () => {
    expect(section('rides')).toEqual([
      expect.objectContaining({
        id: story.ride.id,
        origin: 'Millbrook Farm',
        departure_time: '08:30',
        status: 'active',
        stops: [],
      }),
    ]);
    const requests = section('requests');
    expect(requests.map((r) => r.title)).toEqual(['Fence posts', 'Seed potatoes', 'Water tank']);
    expect(requests[0]).toMatchObject({ compensation: '12.50', pickup_location: 'Harwood Co-op', status: 'open' });
    expect(requests[2]).toMatchObject({ status: 'matched' });
  });

  it('bookings in both roles: the other person by id and name, the request by id and title, every step', () => {
    const { ana, rita, dan, carl, bookings } = story;
    const asDriver = section('bookings_as_driver');
    expect(asDriver.map((b) => [b.id, b.status])).toEqual(
      expect.arrayContaining([
        [bookings.myOffer.id, 'pending'],
        [bookings.myConfirmed.id, 'confirmed'],
        [bookings.done.bookingId, 'completed'],
      ]),
    );
    const done = asDriver.find((b) => b.id === bookings.done.bookingId)!;
    expect(done).toMatchObject({
      requester: { id: rita.user.id, full_name: 'Rita Neighbour' },
      request: { title: 'Apple crates' },
      has_photo: false,
    });
    expect((done.events as Item[]).map((e) => [e.type, e.by])).toEqual([
      ['offered', 'me'],
      ['chosen', 'other'],
      ['received', 'other'],
    ]);
    expect(asDriver.find((b) => b.id === bookings.myOffer.id)).toMatchObject({
      requester: { id: ana.user.id, full_name: 'Ana Requester' },
    });
    const asRequester = section('bookings_as_requester');
    expect(asRequester.map((b) => [b.id, b.status, (b.driver as Item).full_name])).toEqual([
      [bookings.danOffer.id, 'pending', 'Dan Offerer'],
      [bookings.carlBooking.id, 'confirmed', 'Carl Chosen'],
    ]);
    expect(asRequester[1]).toMatchObject({ driver: { id: carl.user.id } });
    expect(asRequester[0]).toMatchObject({ driver: { id: dan.user.id } });
  });

  it('messages I sent and received, and reviews by and about me (published ones only)', () => {
    const { rita } = story;
    expect(section('messages').map((m) => [m.body, m.sent_by_me, (m.from as Item).full_name])).toEqual([
      ['On my way with the crates.', true, NAME],
      ['Thank you, the gate is open.', false, 'Rita Neighbour'],
    ]);
    expect(section('reviews_by_me')).toEqual([
      expect.objectContaining({
        rating: 5,
        comment: 'Crates were ready.',
        reviewee: { id: rita.user.id, full_name: 'Rita Neighbour' },
      }),
    ]);
    expect(section('reviews_about_me')).toEqual([
      expect.objectContaining({
        rating: 4,
        comment: 'Careful driver.',
        reviewer: { id: rita.user.id, full_name: 'Rita Neighbour' },
      }),
    ]);
    expect(text).not.toContain('Not yet public.');
  });

  it('notifications with their words, e-mail settings, sessions, reports and blocks', () => {
    const { bob } = story;
    expect(section('notifications').map((n) => n.text)).toEqual(
      expect.arrayContaining([
        'Dan Offerer offered to carry “Seed potatoes”.',
        'Ana Requester chose you to carry “Egg crates”.',
        'Rita Neighbour reviewed you for “Apple crates”.',
      ]),
    );
    expect(doc.notification_settings).toEqual({ emails_off: ['message'] });
    const signedIn = section('sessions');
    expect(signedIn).toHaveLength(2);
    expect(signedIn.filter((s) => s.current)).toHaveLength(1);
    expect(Object.keys(signedIn[0]!).sort()).toEqual(['browser', 'current', 'last_active_at', 'signed_in_at']);
    expect(section('reports')).toEqual([
      expect.objectContaining({
        reported: { id: bob.user.id, full_name: 'Bob Blocked' },
        reason: 'spam',
        details: 'Sends adverts.',
      }),
    ]);
    expect(section('blocks')).toEqual([
      expect.objectContaining({ user: { id: bob.user.id, full_name: 'Bob Blocked' } }),
    ]);
    expect(section('saved_searches')).toEqual([
      expect.objectContaining({
        name: 'Feed sacks',
        kind: 'requests',
        filters: expect.objectContaining({ q: 'feed' }),
      }),
    ]);
  });

  it("holds nobody else's address, and another person's file holds nothing of mine", async () => {
    const { ana, dan, carl, rita, bob, me } = story;
    for (const other of [ana, dan, carl, rita, bob]) expect(text).not.toContain(other.email);
    const anas = JSON.stringify((await exportOf(ana.token)).body);
    expect(anas).not.toContain(me.email);
    expect(anas).not.toContain('Fence posts');
    expect(anas).not.toContain('On my way with the crates.');
  });

  it('needs a check within 10 minutes: 403 reauth_required, then fine after Confirm it’s you', async () => {
    const { me } = story;
    offsetMs = 11 * 60_000;
    try {
      const late = await exportOf(me.token);
      expect(late.status).toBe(403);
      expect(late.body).toEqual({ code: 'reauth_required', message: REAUTH_REQUIRED });
      const code = await generate({ secret: TOTP_SECRET, epoch: Math.floor(clock().getTime() / 1000) });
      const confirmed = await call('POST', '/account/confirm-identity', {
        cookie: me.token,
        body: { password: STRONG_PASSWORD, code },
      });
      expect(confirmed.status).toBe(204);
      expect((await exportOf(me.token)).status).toBe(200);
    } finally {
      offsetMs = 0;
    }
  });
});

describe('Your data: an account with nothing yet', () => {
  it('still has every section, each empty', async () => {
    const me = await signUpAndIn('Fresh Person');
    const res = await exportOf(me.token);
    expect(res.status).toBe(200);
    for (const key of ['rides', 'requests', 'bookings_as_driver', 'bookings_as_requester', 'messages', 'reports'])
      expect(res.body[key]).toEqual([]);
    expect(res.body.notification_settings).toEqual({ emails_off: [] });
    expect(res.body.account).toMatchObject({
      full_name: 'Fresh Person',
      pending_email_change: null,
      rating: { count: 0, average: null },
    });
    expect(res.body.account).toMatchObject({
      two_factor: { enabled: false, enabled_at: null, recovery_codes_left: 0 },
    });
  });
});
