import { createHmac, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  MESSAGE_MAIL_INTERVAL_MINUTES,
  OPTIONAL_NOTIFICATION_TYPES,
  UNSUBSCRIBE_INVALID_MESSAGE,
  type Notification,
  type NotificationSettings,
  type NotificationType,
  type NotificationData,
} from '../../shared/notifications';
import { bookingDetailPath, requestDetailPath } from '../../shared/routes';
import { appSecrets, jobs, notificationPreferences, notifications } from '../db/schema';
import { Outbox } from '../events';
import { enqueue } from '../jobs';
import { setupTestApp } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import type { PageBody } from '../test/marketplace';
import { startSmtpSink, type ReceivedMail } from '../test/smtp-sink';
import { createUnsubscribeTokens, notify, NOTIFICATION_EMAIL_JOB } from './index';

const APP = 'https://rural.example';
const MINUTE = 60_000;
const INTERVAL = MESSAGE_MAIL_INTERVAL_MINUTES * MINUTE;

/** The app's clock runs `shift` ahead of the wall clock: waits and backoffs pass without waiting. */
let shift = 0;
const clock = () => new Date(Date.now() + shift);
afterEach(() => {
  shift = 0;
});

/** Mails to these addresses are refused this many more times (a greylisting server). */
const refusals = new Map<string, number>();
/** Every attempt's Message-ID per recipient, refused or not. */
const attempts = new Map<string, string[]>();
const sink = await startSmtpSink({
  accept(mail) {
    for (const to of mail.to) attempts.set(to, [...(attempts.get(to) ?? []), mail.messageId]);
    const left = refusals.get(mail.to[0]!) ?? 0;
    if (left <= 0) return undefined;
    refusals.set(mail.to[0]!, left - 1);
    return new Error('Greylisted, try again later');
  },
});
afterAll(() => sink.close());

const { ctx, call, signUpAndIn } = setupTestApp(
  {
    SMTP_URL: sink.url,
    MAIL_FROM: 'RuralRoute <hello@rural.example>',
    APP_URL: `${APP}/`,
    JOBS_POLL_MS: '3600000',
    AUTH_PER_IP_MAX: '100000',
  },
  { clock },
);
const { postRequest, offer } = lifecycleHelpers(call, signUpAndIn);

/** A header as people read it: RFC 2047 encoded words (non-ASCII subjects) decoded. */
const decoded = (header: string) =>
  header.replace(/\?=\s+=\?/g, '?==?').replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );

const mailsTo = (address: string): ReceivedMail[] =>
  sink.mails.filter((m) => m.to.includes(address)).map((m) => ({ ...m, subject: decoded(m.subject) }));
const settings = async (token: string) =>
  (await call<NotificationSettings>('GET', '/notifications/settings', { cookie: token })).body;
const list = async (token: string) =>
  (await call<PageBody<Notification>>('GET', '/notifications', { cookie: token })).body.items;

/** Writes notifications directly, as a feature does inside the transaction of its event. */
async function write(
  userId: string,
  type: NotificationType,
  extra: { bookingId?: string; actorId?: string; data?: NotificationData } = {},
) {
  await ctx.database.db.transaction(async (tx) => {
    const out = new Outbox();
    await notify(tx, out, [{ userId, type, ...extra }]);
    await out.flush(tx);
  });
}

const jobsOf = (notificationId: string) =>
  ctx.database.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, NOTIFICATION_EMAIL_JOB), sql`${jobs.payload} ->> 'notification_id' = ${notificationId}`));

/** The one-click POST a mail program sends to the List-Unsubscribe URL: a form, no cookie, no (or a foreign) Origin. */
function oneClick(headerValue: string, origin: string | null = null) {
  const url = new URL(headerValue.replace(/^<|>$/g, ''));
  expect(url.origin + url.pathname).toBe(`${APP}/api/notifications/unsubscribe`);
  return call<{ type: string; email: boolean }>('POST', `/notifications/unsubscribe${url.search}`, {
    raw: 'List-Unsubscribe=One-Click',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    origin,
  });
}

describe('a notification e-mail', () => {
  it('goes to the recipient with the subject, one sentence, one absolute link and both parts (escaped)', async () => {
    const ana = await signUpAndIn('Ana Diaz');
    const ben = await signUpAndIn('Ben <Okafor>');
    const request = await postRequest(ana.token, 'Eggs & "milk"');
    await offer(ben.token, request.id);
    await ctx.app.jobs.runDue();

    const [mail, ...more] = mailsTo(ana.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('New offer on “Eggs & "milk"”');
    expect(mail!.headers.from).toBe('RuralRoute <hello@rural.example>');
    const link = `${APP}${requestDetailPath(request.id)}`;
    const sentence = 'Ben <Okafor> offered to carry “Eggs & "milk"”.';
    expect(mail!.text).toContain('RuralRoute');
    expect(mail!.text).toContain(sentence);
    expect(mail!.text).toContain(`Open RuralRoute: ${link}`);
    expect(mail!.html).toContain('RuralRoute');
    expect(mail!.html).toContain('Ben &lt;Okafor&gt; offered to carry “Eggs &amp; &quot;milk&quot;”.');
    expect(mail!.html).not.toContain('<Okafor>');
    expect(mail!.html).toContain(`<a href="${link}">Open RuralRoute</a>`);

    // The unsubscribe link in the text and HTML (the page) and the header (one click) carry the same token.
    const header = mail!.headers['list-unsubscribe']!;
    expect(header).toMatch(/^<https:\/\/rural\.example\/api\/notifications\/unsubscribe\?token=[\w.%-]+>$/);
    expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const token = new URL(header.slice(1, -1)).searchParams.get('token')!;
    const page = `${APP}/unsubscribe?token=${encodeURIComponent(token)}`;
    expect(mail!.text).toContain(page);
    expect(mail!.html).toContain(`<a href="${page}">Stop these e-mails</a>`);

    // The Message-ID is the job's: a retry carries the same one.
    const [notification] = await list(ana.token);
    const [job] = await jobsOf(notification!.id);
    expect(job).toMatchObject({ status: 'sent', attempts: 1 });
    expect(mail!.messageId).toBe(`<rr-notification-${notification!.id}-${job!.id}@rural.example>`);
  });

  it('one click in the mail program switches the type off without signing in; the next offer is in the app only', async () => {
    const ana = await signUpAndIn('Ana Diaz');
    const [ben, cara, dan] = [await signUpAndIn('Ben'), await signUpAndIn('Cara'), await signUpAndIn('Dan')];
    const request = await postRequest(ana.token, 'Seed potatoes');
    await offer(ben!.token, request.id);
    await ctx.app.jobs.runDue();
    const [mail] = mailsTo(ana.email);

    // From the mail provider's server (no Origin), or from webmail (its own Origin): both work.
    const res = await oneClick(mail!.headers['list-unsubscribe']!, 'https://webmail.example');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: 'offer_received', email: false });
    expect((await oneClick(mail!.headers['list-unsubscribe']!)).body).toEqual({
      type: 'offer_received',
      email: false,
    });
    const off = await settings(ana.token);
    expect(off.email.offer_received).toBe(false);
    expect(off.email.message).toBe(true);

    await offer(cara!.token, request.id);
    await ctx.app.jobs.runDue();
    expect(mailsTo(ana.email)).toHaveLength(1);
    const inApp = await list(ana.token);
    expect(inApp.map((n) => n.text)).toEqual([
      'Cara offered to carry “Seed potatoes”.',
      'Ben offered to carry “Seed potatoes”.',
    ]);
    expect(await jobsOf(inApp[0]!.id)).toEqual([]);

    // The unsubscribe page posts the token as JSON; resubscribe switches it on again.
    const token = new URL(mail!.headers['list-unsubscribe']!.slice(1, -1)).searchParams.get('token')!;
    const back = await call('POST', '/notifications/resubscribe', { body: { token }, origin: null });
    expect(back.status).toBe(200);
    expect(back.body).toEqual({ type: 'offer_received', email: true });
    expect((await settings(ana.token)).email.offer_received).toBe(true);
    await offer(dan!.token, request.id);
    await ctx.app.jobs.runDue();
    expect(mailsTo(ana.email).map((m) => m.subject)).toEqual([
      'New offer on “Seed potatoes”',
      'New offer on “Seed potatoes”',
    ]);
  });

  it('a tampered, forged or unknown token is refused with 400 and changes nothing', async () => {
    const ana = await signUpAndIn('Ana Diaz');
    const ben = await signUpAndIn('Ben');
    const request = await postRequest(ana.token, 'Fence posts');
    await offer(ben.token, request.id);
    await ctx.app.jobs.runDue();
    const [mail] = mailsTo(ana.email);
    const token = new URL(mail!.headers['list-unsubscribe']!.slice(1, -1)).searchParams.get('token')!;
    const [payload, mac] = token.split('.') as [string, string];

    const [{ value: key }] = (await ctx.database.db
      .select({ value: appSecrets.value })
      .from(appSecrets)
      .where(eq(appSecrets.name, 'unsubscribe'))) as [{ value: string }];
    const signed = (text: string) => {
      const p = Buffer.from(text).toString('base64url');
      const m = createHmac('sha256', Buffer.from(key, 'base64url')).update(`unsubscribe:${text}`).digest('base64url');
      return `${p}.${m}`;
    };
    // Sanity: the test signs as the server does.
    expect(signed(`${ana.user.id}:offer_received`)).toBe(token);

    const flipped = mac.slice(0, -2) + (mac.at(-2) === 'A' ? 'B' : 'A') + mac.at(-1);
    const bad = [
      `${payload}.${flipped}`,
      `${Buffer.from(`${ben.user.id}:offer_received`).toString('base64url')}.${mac}`,
      `${Buffer.from(`${ana.user.id}:message`).toString('base64url')}.${mac}`,
      `${payload}.${mac}.x`,
      payload,
      `${payload}.`,
      '',
      // Signed with the right key, but a security type, no such type, or nobody.
      signed(`${ana.user.id}:password_changed`),
      signed(`${ana.user.id}:no_such_type`),
      signed(`${randomUUID()}:offer_received`),
      signed('not-a-user:offer_received'),
    ];
    for (const t of bad) {
      for (const res of [
        await call('POST', `/notifications/unsubscribe?token=${encodeURIComponent(t)}`, {
          raw: 'List-Unsubscribe=One-Click',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          origin: null,
        }),
        await call('POST', '/notifications/unsubscribe', { body: { token: t } }),
        await call('POST', '/notifications/resubscribe', { body: { token: t } }),
      ]) {
        expect(res.status, t).toBe(400);
        expect(res.body).toEqual({ code: 'validation_error', message: UNSUBSCRIBE_INVALID_MESSAGE });
      }
    }
    expect(Object.values((await settings(ana.token)).email).every(Boolean)).toBe(true);
    expect(Object.values((await settings(ben.token)).email).every(Boolean)).toBe(true);
    // Security types never get a token.
    await expect(createUnsubscribeTokens(ctx.database.db).sign(ana.user.id, 'new_sign_in')).rejects.toThrow();
  });

  it('security notices are always mailed, without any unsubscribe, to the old address for an address change', async () => {
    const ana = await signUpAndIn('Ana Diaz');
    const everythingOff = Object.fromEntries(OPTIONAL_NOTIFICATION_TYPES.map((t) => [t, false]));
    expect(
      (await call('PATCH', '/notifications/settings', { cookie: ana.token, body: { email: everythingOff } })).status,
    ).toBe(200);
    const refused = await call('PATCH', '/notifications/settings', {
      cookie: ana.token,
      body: { email: { password_changed: false } },
    });
    expect(refused.status).toBe(400);

    await write(ana.user.id, 'password_changed');
    await write(ana.user.id, 'email_changed', { data: { to: 'ana.old@example.com', new_email: ana.email } });
    await ctx.app.jobs.runDue();

    const [password] = mailsTo(ana.email);
    expect(password!.subject).toBe('Your password was changed');
    expect(password!.text).toContain('The password of your RuralRoute account was changed.');
    expect(password!.text).toContain(`${APP}/dashboard/settings`);
    const [changed] = mailsTo('ana.old@example.com');
    expect(changed!.subject).toBe('Your e-mail address was changed');
    expect(changed!.text).toContain(`changed to ${ana.email}.`);
    expect(mailsTo(ana.email)).toHaveLength(1);
    for (const m of [password!, changed!]) {
      expect(m.headers['list-unsubscribe']).toBeUndefined();
      expect(m.headers['list-unsubscribe-post']).toBeUndefined();
      expect(m.text).not.toMatch(/unsubscribe/i);
      expect(m.html).not.toMatch(/unsubscribe/i);
      expect(m.text).toContain('cannot be switched off');
    }
  });
});

describe('notification e-mails claimed together', () => {
  it('each judged on its own (read together): a gone one and a switched-off one send nothing, the others go', async () => {
    const [ana, ben, cy, dan] = await Promise.all(
      ['Ana Diaz', 'Ben Okafor', 'Cy Moreau', 'Dan Ruiz'].map((name) => signUpAndIn(name)),
    );
    await ctx.app.jobs.runDue();
    const before = ctx.app.jobs.stats();
    const sentBefore = sink.mails.length;
    const [{ last } = { last: 0 }] = await ctx.database.db
      .select({ last: sql<number>`coalesce(max(${jobs.id}), 0)` })
      .from(jobs);
    // One transaction: its one NOTIFY wakes the worker with the four jobs due, claimed by one statement. Before any
    // job runs, Cy's notification is gone (a sweep or an erased account would do that) and Dan has switched plan
    // e-mails off (as Settings does).
    await ctx.database.db.transaction(async (tx) => {
      const out = new Outbox();
      await notify(tx, out, [
        { userId: ana!.user.id, type: 'password_changed' },
        { userId: ben!.user.id, type: 'password_changed' },
        { userId: cy!.user.id, type: 'password_changed' },
        { userId: dan!.user.id, type: 'plan', data: { plan: 'plus' } },
      ]);
      await out.flush(tx);
      await tx.delete(notifications).where(eq(notifications.userId, cy!.user.id));
      await tx.insert(notificationPreferences).values({ userId: dan!.user.id, emailOff: ['plan'] });
    });
    await ctx.app.jobs.runDue();

    expect(ctx.app.jobs.stats()).toMatchObject({ claims: before.claims + 1, claimed: before.claimed + 4 });
    const sent = sink.mails.slice(sentBefore);
    expect(sent.map((m) => m.to[0]).sort()).toEqual([ana!.email, ben!.email].sort());
    expect(sent.every((m) => m.subject === 'Your password was changed')).toBe(true);
    const rows = await ctx.database.db
      .select({ status: jobs.status })
      .from(jobs)
      .where(and(eq(jobs.kind, NOTIFICATION_EMAIL_JOB), sql`${jobs.id} > ${last}`));
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
  });
});

describe('message e-mails', () => {
  /** Ana's request with Ben's offer: their conversation. */
  async function conversation(title: string) {
    const ana = await signUpAndIn('Ana Diaz');
    const ben = await signUpAndIn('Ben Okafor');
    const request = await postRequest(ana.token, title);
    const booking = await offer(ben.token, request.id);
    await ctx.app.jobs.runDue(); // the offer's own mail
    const before = mailsTo(ana.email).length;
    const message = () => write(ana.user.id, 'message', { bookingId: booking.id, actorId: ben.user.id });
    const messageMails = () => mailsTo(ana.email).slice(before);
    const unreadRow = async () => (await list(ana.token)).find((n) => n.type === 'message' && n.read_at === null)!;
    return { ana, ben, booking, message, messageMails, unreadRow };
  }

  it('wait a minute, then at most one per conversation in 15 minutes, deferred (not failed) in between', async () => {
    const { booking, message, messageMails, unreadRow } = await conversation('Feed sacks');
    await message();
    expect(await ctx.app.jobs.runDue()).toBe(0); // due in a minute (the database's clock)
    expect(messageMails()).toEqual([]);

    shift = MINUTE + 2_000;
    await ctx.app.jobs.runDue();
    const [first] = messageMails();
    expect(first!.subject).toBe('New message from Ben Okafor');
    expect(first!.text).toContain('Ben Okafor sent you a message about “Feed sacks”.');
    expect(first!.text).toContain(`${APP}${bookingDetailPath(booking.id)}#messages`);
    const row = await unreadRow();
    const [mailed] = await ctx.database.db.select().from(notifications).where(eq(notifications.id, row.id));
    expect(mailed!.emailedAt).toBeInstanceOf(Date);
    const firstJob = mailed!.emailedByJob!;

    // Two more messages: the same unread notification (count 3). The next window's job (as notify adds it once
    // per window) finds the conversation mailed 3 minutes ago and waits for the interval to end.
    await message();
    await message();
    shift = 4 * MINUTE;
    const later = (await enqueue(ctx.database.db, {
      kind: NOTIFICATION_EMAIL_JOB,
      payload: { notification_id: row.id },
    }))!;
    await ctx.app.jobs.runDue();
    expect(messageMails()).toHaveLength(1);
    const [waiting] = await ctx.database.db.select().from(jobs).where(eq(jobs.id, later));
    expect(waiting).toMatchObject({ status: 'queued', attempts: 0, lockedUntil: null });
    expect(waiting!.runAt.getTime()).toBe(mailed!.emailedAt!.getTime() + INTERVAL);

    shift = 14 * MINUTE;
    await ctx.app.jobs.runDue();
    expect(messageMails()).toHaveLength(1);

    shift = MINUTE + 2_000 + INTERVAL + 1_000;
    await ctx.app.jobs.runDue();
    const mails = messageMails();
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain('Ben Okafor sent you 3 messages about “Feed sacks”.');
    expect(mails[1]!.messageId).toBe(`<rr-notification-${row.id}-${later}@rural.example>`);
    const [again] = await ctx.database.db.select().from(notifications).where(eq(notifications.id, row.id));
    expect(again!.emailedByJob).toBe(later);
    expect(again!.emailedAt!.getTime() - mailed!.emailedAt!.getTime()).toBeGreaterThanOrEqual(INTERVAL);
    expect(firstJob).not.toBe(later);
  });

  it('none when the notification was read before its job ran', async () => {
    const { ana, message, messageMails, unreadRow } = await conversation('Fence wire');
    await message();
    const row = await unreadRow();
    expect((await call('POST', `/notifications/${row.id}/read`, { cookie: ana.token, body: {} })).status).toBe(200);
    shift = 2 * MINUTE;
    await ctx.app.jobs.runDue();
    expect(messageMails()).toEqual([]);
    const [job] = await jobsOf(row.id);
    expect(job).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('none when messages are switched off meanwhile; the notification is still in the app', async () => {
    const { ana, message, messageMails, unreadRow } = await conversation('Lambing pens');
    await message();
    await call('PATCH', '/notifications/settings', { cookie: ana.token, body: { email: { message: false } } });
    shift = 2 * MINUTE;
    await ctx.app.jobs.runDue();
    expect(messageMails()).toEqual([]);
    expect((await unreadRow()).text).toBe('Ben Okafor sent you a message about “Lambing pens”.');
  });

  it('refused twice by the mail server, then delivered with the same Message-ID (its retries skip the throttle)', async () => {
    const { ana, message, messageMails, unreadRow } = await conversation('Round bales');
    refusals.set(ana.email, 2);
    attempts.delete(ana.email);
    await message();
    shift = 2 * MINUTE;
    await ctx.app.jobs.runDue();
    const unread = await unreadRow();
    const [job] = await jobsOf(unread.id);
    let state = (await ctx.database.db.select().from(jobs).where(eq(jobs.id, job!.id)))[0]!;
    expect(state).toMatchObject({ status: 'queued', attempts: 1 });
    expect(state.lastError).toMatch(/Greylisted/);

    // Retries within the 15 minutes: this job mailed the conversation, so it sends again rather than waiting.
    shift = 4 * MINUTE;
    await ctx.app.jobs.runDue();
    shift = 7 * MINUTE;
    await ctx.app.jobs.runDue();
    state = (await ctx.database.db.select().from(jobs).where(eq(jobs.id, job!.id)))[0]!;
    expect(state).toMatchObject({ status: 'sent', attempts: 3 });
    const id = `<rr-notification-${unread.id}-${job!.id}@rural.example>`;
    expect(attempts.get(ana.email)).toEqual([id, id, id]);
    expect(messageMails().map((m) => m.messageId)).toEqual([id]);
  });
});
