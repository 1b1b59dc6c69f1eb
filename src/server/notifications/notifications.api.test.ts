import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { INVALID_CURSOR_MESSAGE } from '../../shared/marketplace';
import {
  OPTIONAL_NOTIFICATION_TYPES,
  type Notification,
  type NotificationSettings,
  type NotificationType,
} from '../../shared/notifications';
import { requestDetailPath } from '../../shared/routes';
import { notificationPreferences } from '../db/schema';
import { Outbox } from '../events';
import { setupTestApp } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import { collectPages, tick, type PageBody } from '../test/marketplace';
import { dataOf, servedEvents } from '../test/sse';
import { notify } from './index';

// The notifications' e-mails go to .eml files here (no SMTP_URL); notification-mail.api.test.ts checks them.
const dataDir = mkdtempSync(join(tmpdir(), 'rr-notifications-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000', DATA_DIR: dataDir });
const { postRequest, offer } = lifecycleHelpers(call, signUpAndIn);
const events = servedEvents(() => ctx.app);

const NOT_FOUND = { code: 'not_found', message: 'Notification not found.' };

const list = (token: string, query = '') =>
  call<PageBody<Notification>>('GET', `/notifications${query}`, { cookie: token });
const unread = async (token: string) =>
  (await call<{ count: number }>('GET', '/notifications/unread', { cookie: token })).body.count;
const markRead = (token: string, id: string) =>
  call<Notification>('POST', `/notifications/${id}/read`, { cookie: token, body: {} });
const settings = (token: string) => call<NotificationSettings>('GET', '/notifications/settings', { cookie: token });
const patchSettings = (token: string, body: unknown) =>
  call<NotificationSettings>('PATCH', '/notifications/settings', { cookie: token, body });

/** Writes one notification for `userId` in its own transaction, as a feature would. */
async function write(userId: string, type: NotificationType = 'picked_up', title = 'Hay bales') {
  await ctx.database.db.transaction(async (tx) => {
    const out = new Outbox();
    await notify(tx, out, [{ userId, type, data: { title } }]);
    await out.flush(tx);
  });
  await tick();
}

describe('the notification list', () => {
  it('lists my notifications newest first, in keyset pages, with words and a link; nobody else’s', async () => {
    const ana = await signUpAndIn('Ana Diaz');
    const ben = await signUpAndIn('Ben Okafor');
    const other = await signUpAndIn('Other Person');
    const request = await postRequest(ana.token, 'Feed sacks');
    await offer(ben.token, request.id);
    await tick();
    for (let i = 1; i <= 4; i++) await write(ana.user.id, 'picked_up', `Parcel ${i}`);
    await write(other.user.id, 'picked_up', 'Not for Ana');

    const first = await list(ana.token, '?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.items.map((n) => n.text)).toEqual([
      'Someone picked up “Parcel 4”.',
      'Someone picked up “Parcel 3”.',
    ]);
    expect(first.body.next_cursor).toEqual(expect.any(String));

    const all = await collectPages((cursor) => list(ana.token, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`));
    expect(all.pages).toBe(3);
    expect(all.items.map((n) => n.text)).toEqual([
      'Someone picked up “Parcel 4”.',
      'Someone picked up “Parcel 3”.',
      'Someone picked up “Parcel 2”.',
      'Someone picked up “Parcel 1”.',
      'Ben Okafor offered to carry “Feed sacks”.',
    ]);
    const offered = all.items[4]!;
    expect(offered).toMatchObject({ type: 'offer_received', link: requestDetailPath(request.id), read_at: null });
    const times = all.items.map((n) => Date.parse(n.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    // The default page is 20; Ben and the other person see only their own.
    expect((await list(ana.token)).body.items).toHaveLength(5);
    expect((await list(other.token)).body.items.map((n) => n.text)).toEqual(['Someone picked up “Not for Ana”.']);
    expect((await list(ben.token)).body.items).toEqual([]);
  });

  it('refuses a bad cursor or limit with 400, and answers 401 without a session', async () => {
    const ana = await signUpAndIn();
    for (const query of ['?cursor=nonsense', `?cursor=${Buffer.from('["x","y"]').toString('base64url')}`]) {
      const res = await list(ana.token, query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'validation_error', message: INVALID_CURSOR_MESSAGE });
    }
    for (const query of ['?limit=0', '?limit=51', '?limit=abc']) {
      const res = await list(ana.token, query);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_error', message: expect.stringMatching(/Limit/) });
    }
    for (const [method, path] of [
      ['GET', '/notifications'],
      ['GET', '/notifications/unread'],
      ['POST', `/notifications/${randomUUID()}/read`],
      ['POST', '/notifications/read-all'],
      ['GET', '/notifications/settings'],
      ['PATCH', '/notifications/settings'],
    ] as const) {
      const res = await call(method, path, { body: method === 'GET' ? undefined : { email: {} } });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).toMatchObject({ code: 'unauthenticated' });
    }
  });
});

describe('reading notifications', () => {
  it('the bell counts unread ones; opening one marks it read once; read-all marks the rest', async () => {
    const ana = await signUpAndIn();
    const ben = await signUpAndIn();
    for (let i = 0; i < 3; i++) await write(ana.user.id);
    await write(ben.user.id);
    expect(await unread(ana.token)).toBe(3);

    const [newest] = (await list(ana.token)).body.items;
    const read = await markRead(ana.token, newest!.id);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: newest!.id, text: newest!.text, read_at: expect.any(String) });
    expect(await unread(ana.token)).toBe(2);

    // Again: the same answer, the first read time kept.
    const again = await markRead(ana.token, newest!.id);
    expect(again.status).toBe(200);
    expect(again.body.read_at).toBe(read.body.read_at);
    expect(await unread(ana.token)).toBe(2);

    // Someone else's, an unknown and a malformed id: the same 404, and Ben's stays unread.
    const [bens] = (await list(ben.token)).body.items;
    for (const id of [bens!.id, randomUUID(), 'not-a-uuid', '1%27%20or%201%3D1']) {
      const res = await markRead(ana.token, id);
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    expect(await unread(ben.token)).toBe(1);

    const all = await call<{ count: number }>('POST', '/notifications/read-all', { cookie: ana.token, body: {} });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ count: 2 });
    expect(await unread(ana.token)).toBe(0);
    expect((await list(ana.token)).body.items.every((n) => n.read_at !== null)).toBe(true);
    // Nothing left: 0, and Ben's untouched; no body at all is fine too.
    expect((await call('POST', '/notifications/read-all', { cookie: ana.token })).body).toEqual({ count: 0 });
    expect(await unread(ben.token)).toBe(1);
  });

  it('tells my other tabs: notification.read with the id, or all', async () => {
    const ana = await signUpAndIn();
    await write(ana.user.id);
    await write(ana.user.id);
    const stream = await events.connect(ana.token);
    await stream.take(1); // ready
    const [first] = (await list(ana.token)).body.items;

    expect((await markRead(ana.token, first!.id)).status).toBe(200);
    const [e] = await stream.take(1);
    expect(e!.event).toBe('notification.read');
    expect(dataOf(e!)).toEqual({ ids: [first!.id], all: false });

    // A second read changes nothing and says nothing.
    expect((await markRead(ana.token, first!.id)).status).toBe(200);
    expect((await call('POST', '/notifications/read-all', { cookie: ana.token, body: {} })).body).toEqual({
      count: 1,
    });
    const [e2] = await stream.take(1);
    expect(e2!.event).toBe('notification.read');
    expect(dataOf(e2!)).toEqual({ ids: [], all: true });
    expect(await stream.quiet(100)).toEqual([]);
  });

  it('a new notification arrives live as notification.created', async () => {
    const ana = await signUpAndIn('Ana Diaz');
    const ben = await signUpAndIn('Ben Okafor');
    const request = await postRequest(ana.token, 'Seed potatoes');
    const stream = await events.connect(ana.token);
    await stream.take(1);
    await offer(ben.token, request.id);
    const [e] = await stream.takeUntil((x) => x.event === 'notification.created');
    const { notification } = dataOf<{ notification: Notification }>(e!);
    expect(notification).toMatchObject({
      type: 'offer_received',
      text: 'Ben Okafor offered to carry “Seed potatoes”.',
    });
    expect(await unread(ana.token)).toBe(1);
  });
});

describe('e-mail settings', () => {
  it('defaults every optional type on, names my address, and keeps changes; security types are not switches', async () => {
    const ana = await signUpAndIn();
    const first = await settings(ana.token);
    expect(first.status).toBe(200);
    expect(first.body.address).toBe(ana.email);
    expect(Object.keys(first.body.email).sort()).toEqual([...OPTIONAL_NOTIFICATION_TYPES].sort());
    expect(Object.values(first.body.email).every(Boolean)).toBe(true);

    const off = await patchSettings(ana.token, { email: { message: false, picked_up: false } });
    expect(off.status).toBe(200);
    expect(off.body.email).toMatchObject({ message: false, picked_up: false, offer_received: true });
    const on = await patchSettings(ana.token, { email: { picked_up: true, review_published: false } });
    expect(on.body.email).toMatchObject({ message: false, picked_up: true, review_published: false });
    expect((await settings(ana.token)).body).toEqual(on.body);
    const [prefs] = await ctx.database.db
      .select()
      .from(notificationPreferences)
      .where(eq(notificationPreferences.userId, ana.user.id));
    expect(prefs!.emailOff).toEqual(['message', 'review_published']);
    // An empty change is allowed and changes nothing.
    expect((await patchSettings(ana.token, { email: {} })).body).toEqual(on.body);
  });

  it('refuses unknown or security types, values that are not true/false, and bodies that are not objects', async () => {
    const ana = await signUpAndIn();
    const before = (await settings(ana.token)).body;
    for (const body of [
      { email: { password_changed: false } },
      { email: { new_sign_in: false } },
      { email: { no_such_type: true } },
      { email: { message: 'no' } },
      { email: { message: null } },
      { email: [] },
      {},
      [],
      'off',
    ]) {
      const res = await patchSettings(ana.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_error', message: expect.any(String) });
    }
    const malformed = await call('PATCH', '/notifications/settings', { cookie: ana.token, raw: '{"email":' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'malformed_json' });
    expect((await settings(ana.token)).body).toEqual(before);
  });

  it('changes made at the same moment both stick (one statement each)', async () => {
    const ana = await signUpAndIn();
    await Promise.all(OPTIONAL_NOTIFICATION_TYPES.map((t) => patchSettings(ana.token, { email: { [t]: false } })));
    expect(Object.values((await settings(ana.token)).body.email).every((v) => v === false)).toBe(true);
  });
});

describe('the unsubscribe routes without a valid token', () => {
  it('answer 400 with the link message', async () => {
    for (const opts of [{ body: {} }, { body: { token: 'abc.def' } }, { body: { token: 5 } }, { origin: null }]) {
      const res = await call('POST', '/notifications/unsubscribe', opts);
      expect(res.status, JSON.stringify(opts)).toBe(400);
      expect(res.body).toEqual({
        code: 'validation_error',
        message: 'This unsubscribe link is not valid. Change e-mail settings after signing in.',
      });
    }
  });
});
