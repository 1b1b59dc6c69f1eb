import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '../../shared/marketplace';
import {
  ID_CHECK_ERRORS,
  ID_CONSENT_REQUIRED,
  ID_PHOTO_MESSAGES,
  ID_REASON_REQUIRED,
  type AdminIdCheck,
  type IdCheckState,
} from '../../shared/verification';
import { appSecrets, idChecks, idDocuments, moderationActions, notifications, profiles, users } from '../db/schema';
import { readEnv } from '../env';
import { ORIGIN, STRONG_PASSWORD, setupTestApp, type CallResult } from '../test/harness';
import { hasGpsTag, jpegWithGps, testImage } from '../test/lifecycle';
import { createIdDocumentKeys, decrypt, ID_DOCUMENTS_SECRET, IdDocumentDecryptError, keyIdOf } from './keys';
import { sniff } from './photo';

/** The app's clock runs `offsetMs` ahead of the wall clock: the 24-hour wait and the 30-day window are moved past. */
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
const HOUR = 3600_000;

const { ctx, call, signUpAndIn, signIn } = setupTestApp(
  { AUTH_PER_IP_MAX: '100000', JOBS_POLL_MS: '3600000' },
  { clock },
);
const db = () => ctx.database.db;

type Person = { token: string; user: { id: string }; email: string };
let admin: Person;
let admin2: Person;
let jpeg: Buffer;
let png: Buffer;
let gpsJpeg: Buffer;

async function makeAdmin(name: string): Promise<Person> {
  const account = await signUpAndIn(name);
  await db().update(users).set({ role: 'admin' }).where(eq(users.id, account.user.id));
  return { ...account, token: await signIn(account.email, STRONG_PASSWORD) };
}

beforeAll(async () => {
  admin = await makeAdmin('Mo Derator');
  admin2 = await makeAdmin('Second Moderator');
  jpeg = await testImage('jpeg');
  png = await testImage('png');
  gpsJpeg = await jpegWithGps(1200, 800);
});

interface Fields {
  front?: Buffer | string | null;
  selfie?: Buffer | string | null;
  consent?: string | null;
  /** The type the browser declares (the server believes the bytes only). */
  type?: string;
}

function form({ front = jpeg, selfie = png, consent = 'true', type = 'image/jpeg' }: Fields = {}): FormData {
  const f = new FormData();
  if (consent !== null) f.set('consent', consent);
  for (const [name, value] of [
    ['front', front],
    ['selfie', selfie],
  ] as const)
    if (value !== null)
      f.set(name, new File([typeof value === 'string' ? value : new Uint8Array(value)], `${name}.jpg`, { type }));
  return f;
}

const send = (who: Person, fields: Fields = {}) =>
  call<IdCheckState>('POST', '/account/id-check', { cookie: who.token, form: form(fields) });
const stateOf = async (who: Person) =>
  (await call<IdCheckState>('GET', '/account/id-check', { cookie: who.token })).body;
const queue = (who: Person, query = '') =>
  call<Page<AdminIdCheck>>('GET', `/admin/verifications${query}`, { cookie: who.token });
const decide = (who: Person, id: string, body: unknown) =>
  call<{ id: string; status: string }>('POST', `/admin/verifications/${id}/decision`, { cookie: who.token, body });
const errorOf = (res: CallResult<unknown>) => res.body as { code: string; message: string };

/** A photo route's answer with its bytes (the harness reads bodies as text). */
async function photoOf(token: string | null, id: string, kind: string) {
  const headers: Record<string, string> = { origin: ORIGIN };
  if (token) headers.cookie = `rr_session=${token}`;
  const res = await ctx.app.request(`${ORIGIN}/api/admin/verifications/${id}/photos/${kind}`, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const checksOf = (userId: string) => db().select().from(idChecks).where(eq(idChecks.userId, userId));
/** A check's photo rows, their bytes as Buffers (PGlite answers bytea as Uint8Array). */
const documentsOf = async (checkId: string) =>
  (await db().select().from(idDocuments).where(eq(idDocuments.checkId, checkId))).map((d) => ({
    ...d,
    iv: Buffer.from(d.iv),
    authTag: Buffer.from(d.authTag),
    ciphertext: Buffer.from(d.ciphertext),
  }));
const pendingOf = async (userId: string) => (await checksOf(userId)).find((c) => c.status === 'pending')!;

async function storedKey(): Promise<Buffer> {
  const [row] = await db().select().from(appSecrets).where(eq(appSecrets.name, ID_DOCUMENTS_SECRET));
  return Buffer.from(row!.value, 'base64');
}

describe('Sending an ID check: what it refuses (and stores nothing)', () => {
  let person: Person;
  beforeAll(async () => {
    person = await signUpAndIn('Rhea Refused');
  });

  it.each([
    ['no consent', { consent: null }, 400, ID_CONSENT_REQUIRED],
    ['consent not given', { consent: 'false' }, 400, ID_CONSENT_REQUIRED],
    ['no photo of the ID', { front: null }, 400, ID_PHOTO_MESSAGES.missing('front')],
    ['no selfie', { selfie: null }, 400, ID_PHOTO_MESSAGES.missing('selfie')],
    ['a text file declared as a JPEG', { front: 'not an image at all' }, 400, ID_PHOTO_MESSAGES.type('front')],
    ['a text field instead of a file', {}, 400, ID_PHOTO_MESSAGES.missing('selfie')],
  ] as const)('%s', async (_, fields, status, message) => {
    const f = form(fields);
    if (_ === 'a text field instead of a file') f.set('selfie', 'hello');
    const res = await call('POST', '/account/id-check', { cookie: person.token, form: f });
    expect(res.status).toBe(status);
    expect(errorOf(res).message).toBe(message);
    expect(await checksOf(person.user.id)).toEqual([]);
  });

  it('a GIF or TIFF (by its bytes) is refused even when declared as a JPEG', async () => {
    for (const format of ['gif', 'tiff'] as const) {
      const res = await send(person, { selfie: await testImage(format) });
      expect(res.status).toBe(400);
      expect(errorOf(res)).toEqual({ code: 'invalid_image', message: ID_PHOTO_MESSAGES.type('selfie') });
    }
    expect(await checksOf(person.user.id)).toEqual([]);
  });

  it('a JPEG header on bytes that do not decode is refused', async () => {
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(2000)]);
    const res = await send(person, { front: broken });
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toBe(ID_PHOTO_MESSAGES.type('front'));
    expect(await checksOf(person.user.id)).toEqual([]);
  });

  it('a photo over 10 MB is 413 with its own message', async () => {
    const big = Buffer.concat([jpeg, Buffer.alloc(10 * 1024 * 1024 + 1 - jpeg.length)]);
    const res = await send(person, { front: big });
    expect(res.status).toBe(413);
    expect(errorOf(res)).toEqual({ code: 'payload_too_large', message: ID_PHOTO_MESSAGES.size('front') });
    expect(await checksOf(person.user.id)).toEqual([]);
  });

  it('a JSON body or a malformed multipart body is a 4xx, never a 500', async () => {
    const json = await call('POST', '/account/id-check', { cookie: person.token, body: { consent: 'true' } });
    expect([400, 415]).toContain(json.status);
    const broken = await call('POST', '/account/id-check', {
      cookie: person.token,
      raw: '--x\r\nContent-Disposition: form-data; name="front"; filename="a.jpg"\r\n\r\nabc',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(broken.status).toBeGreaterThanOrEqual(400);
    expect(broken.status).toBeLessThan(500);
    expect(await checksOf(person.user.id)).toEqual([]);
  });

  it('needs a session', async () => {
    expect((await call('POST', '/account/id-check', { form: form() })).status).toBe(401);
    expect((await call('GET', '/account/id-check')).status).toBe(401);
  });
});

describe('An ID check from sending to a decision', () => {
  let person: Person;
  let checkId: string;

  beforeAll(async () => {
    person = await signUpAndIn('Ada Lovelace');
  });

  it('starts with nothing sent', async () => {
    expect(await stateOf(person)).toEqual({
      checked: false,
      status: 'none',
      submitted_at: null,
      decided_at: null,
      reason: null,
      next_attempt_at: null,
      attempts_left: 3,
    });
  });

  it('stores the check under my name now and its two photos encrypted, in one go', async () => {
    const res = await send(person, { front: gpsJpeg });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ checked: false, status: 'pending', attempts_left: 2, next_attempt_at: null });
    const [check] = await checksOf(person.user.id);
    expect(check).toMatchObject({ status: 'pending', fullName: 'Ada Lovelace', decidedAt: null, reason: null });
    checkId = check!.id;
    const docs = await documentsOf(checkId);
    expect(docs.map((d) => d.kind).sort()).toEqual(['front', 'selfie']);
    const key = await storedKey();
    expect(key.length).toBe(32);
    for (const d of docs) {
      expect(d.keyId).toBe(keyIdOf(key));
      expect(d.iv.length).toBe(12);
      expect(d.authTag.length).toBe(16);
      // Not the image: no JPEG or PNG signature, and not what was sent.
      expect(sniff(d.ciphertext)).toBeNull();
      expect(d.ciphertext.includes(jpeg.subarray(0, 64))).toBe(false);
      // The key is in no column of the row, in bytes or as text.
      const row = JSON.stringify({ ...d, iv: d.iv.toString('hex'), authTag: d.authTag.toString('hex') });
      expect(row).not.toContain(key.toString('base64'));
      expect(row).not.toContain(key.toString('hex'));
      expect(d.ciphertext.includes(key)).toBe(false);
      // Another key does not open it: an error, never garbage.
      expect(() => decrypt(randomBytes(32), checkId, d.kind, d)).toThrow(IdDocumentDecryptError);
      // The right key opens it only as this check's photo of this kind.
      expect(() => decrypt(key, randomBytesUuid(), d.kind, d)).toThrow(IdDocumentDecryptError);
      const tampered = Buffer.from(d.ciphertext);
      tampered[10] = tampered[10]! ^ 1;
      expect(() => decrypt(key, checkId, d.kind, { ...d, ciphertext: tampered })).toThrow(IdDocumentDecryptError);
      expect(sniff(decrypt(key, checkId, d.kind, d))).toBe('jpeg');
    }
  });

  it('says where I stand (never the photos)', async () => {
    const s = await stateOf(person);
    expect(s).toMatchObject({ checked: false, status: 'pending', decided_at: null, reason: null, attempts_left: 2 });
    expect(Date.parse(s.submitted_at!)).toBeGreaterThan(0);
    expect(Object.keys(s).sort()).toEqual(
      ['attempts_left', 'checked', 'decided_at', 'next_attempt_at', 'reason', 'status', 'submitted_at'].sort(),
    );
  });

  it('refuses a second check while one is waiting', async () => {
    const res = await send(person);
    expect(res.status).toBe(409);
    expect(errorOf(res)).toEqual({ code: 'id_check_state', message: ID_CHECK_ERRORS.pending });
    expect(await checksOf(person.user.id)).toHaveLength(1);
  });

  it('is for moderators only: 404 for the person who sent it, another person and no session', async () => {
    const other = await signUpAndIn('Nosy Neighbor');
    for (const token of [person.token, other.token, null]) {
      expect((await photoOf(token, checkId, 'front')).status).toBe(404);
      expect((await photoOf(token, checkId, 'selfie')).status).toBe(404);
      const list = await call('GET', '/admin/verifications', token ? { cookie: token } : {});
      expect(list.status).toBe(404);
      const decision = await call('POST', `/admin/verifications/${checkId}/decision`, {
        ...(token ? { cookie: token } : {}),
        body: { decision: 'approve' },
      });
      expect(decision.status).toBe(404);
    }
    expect((await pendingOf(person.user.id)).status).toBe('pending');
  });

  it("lists it for moderators, oldest first, with the name sent and now and the person's earlier attempts", async () => {
    const res = await queue(admin, '?limit=50');
    expect(res.status).toBe(200);
    const item = res.body.items.find((i) => i.id === checkId);
    expect(item).toEqual({
      id: checkId,
      user_id: person.user.id,
      full_name: 'Ada Lovelace',
      current_name: 'Ada Lovelace',
      submitted_at: expect.any(String),
      earlier_attempts: 0,
      photos: {
        front: `/api/admin/verifications/${checkId}/photos/front`,
        selfie: `/api/admin/verifications/${checkId}/photos/selfie`,
      },
    });
    const times = res.body.items.map((i) => Date.parse(i.submitted_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('shows a moderator the photos while pending: the image, not cached, without its location', async () => {
    for (const kind of ['front', 'selfie']) {
      const res = await photoOf(admin.token, checkId, kind);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(sniff(res.bytes)).toBe('jpeg');
      const meta = await sharp(res.bytes).metadata();
      expect(hasGpsTag(meta.exif)).toBe(false);
      expect(meta.exif).toBeUndefined();
    }
    expect(hasGpsTag((await sharp(gpsJpeg).metadata()).exif)).toBe(true);
    expect((await photoOf(admin.token, checkId, 'back')).status).toBe(404);
    expect((await photoOf(admin.token, 'not-a-uuid', 'front')).status).toBe(404);
  });

  it('refuses a rejection without a reason (or with one not on the list), changing nothing', async () => {
    for (const body of [{ decision: 'reject' }, { decision: 'reject', reason: 'ugly' }, { decision: 'maybe' }, []]) {
      const res = await decide(admin, checkId, body);
      expect(res.status).toBe(400);
    }
    expect(errorOf(await decide(admin, checkId, { decision: 'reject' })).message).toBe(ID_REASON_REQUIRED);
    expect((await pendingOf(person.user.id)).status).toBe('pending');
    expect(await documentsOf(checkId)).toHaveLength(2);
  });

  it('a rejection: the photos deleted, the log and the notice written, one decision only', async () => {
    const res = await decide(admin, checkId, { decision: 'reject', reason: 'unreadable' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: checkId, status: 'rejected', reason: 'unreadable' });
    const [check] = await checksOf(person.user.id);
    expect(check).toMatchObject({ status: 'rejected', reason: 'unreadable', decidedBy: admin.user.id });
    expect(check!.decidedAt).toBeInstanceOf(Date);
    expect(await documentsOf(checkId)).toEqual([]);
    expect((await photoOf(admin.token, checkId, 'front')).status).toBe(404);
    const log = await db().select().from(moderationActions).where(eq(moderationActions.idCheckId, checkId));
    expect(log).toEqual([
      expect.objectContaining({
        action: 'id_reject',
        adminId: admin.user.id,
        targetUserId: person.user.id,
        note: 'unreadable',
      }),
    ]);
    const notes = await db()
      .select({ data: notifications.data })
      .from(notifications)
      .where(and(eq(notifications.userId, person.user.id), eq(notifications.type, 'id_check')));
    expect(notes.map((n) => n.data)).toEqual([
      expect.objectContaining({ kind: 'rejected', reason: 'Photo unreadable' }),
    ]);
    expect((await queue(admin, '?limit=50')).body.items.map((i) => i.id)).not.toContain(checkId);
    const again = await decide(admin, checkId, { decision: 'approve' });
    expect(again.status).toBe(409);
    expect(errorOf(again)).toEqual({ code: 'id_check_state', message: ID_CHECK_ERRORS.decided });
  });

  it('says when I may try again, and refuses before then (the app clock moved past it)', async () => {
    const s = await stateOf(person);
    expect(s).toMatchObject({ status: 'rejected', reason: 'Photo unreadable', attempts_left: 2, checked: false });
    expect(Date.parse(s.next_attempt_at!) - Date.parse(s.decided_at!)).toBe(24 * HOUR);
    const res = await send(person);
    expect(res.status).toBe(429);
    expect(errorOf(res).message).toMatch(/^You can try again on [A-Z][a-z]+ \d{1,2}, \d{4} at .+ UTC\.$/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
    offsetMs += 23 * HOUR;
    expect((await send(person)).status).toBe(429);
    offsetMs += 2 * HOUR;
    expect((await send(person)).status).toBe(200);
  });

  it('an approval: ID checked on the profile, the photos deleted, the notice written', async () => {
    const pending = await pendingOf(person.user.id);
    const listed = (await queue(admin, '?limit=50')).body.items.find((i) => i.id === pending.id);
    expect(listed?.earlier_attempts).toBe(1);
    const res = await decide(admin, pending.id, { decision: 'approve', reason: 'other' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'approved', reason: null });
    const [profile] = await db().select().from(profiles).where(eq(profiles.userId, person.user.id));
    expect(profile!.idCheckedAt).toBeInstanceOf(Date);
    expect(await documentsOf(pending.id)).toEqual([]);
    expect(await stateOf(person)).toMatchObject({
      checked: true,
      status: 'approved',
      reason: null,
      next_attempt_at: null,
    });
    const log = await db().select().from(moderationActions).where(eq(moderationActions.idCheckId, pending.id));
    expect(log).toEqual([expect.objectContaining({ action: 'id_approve', note: null, targetUserId: person.user.id })]);
    const [note] = await db()
      .select({ data: notifications.data })
      .from(notifications)
      .where(and(eq(notifications.userId, person.user.id), eq(notifications.type, 'id_check')))
      .orderBy(notifications.createdAt)
      .offset(1);
    expect(note?.data).toMatchObject({ kind: 'approved' });
    const res2 = await send(person);
    expect(res2.status).toBe(409);
    expect(errorOf(res2).message).toBe(ID_CHECK_ERRORS.checked);
  });

  it('keeps ID checked when the name is saved unchanged, and clears it when the name changes', async () => {
    const patch = (full_name: string) =>
      call('PATCH', '/account/profile', { cookie: person.token, body: { full_name, about: '' } });
    expect((await patch('Ada Lovelace')).status).toBe(200);
    expect((await stateOf(person)).checked).toBe(true);
    expect((await patch('Ada King')).status).toBe(200);
    const [profile] = await db().select().from(profiles).where(eq(profiles.userId, person.user.id));
    expect(profile!.idCheckedAt).toBeNull();
    expect(await stateOf(person)).toMatchObject({ checked: false, status: 'approved' });
    // Under the new name a new check may be sent.
    expect((await send(person)).status).toBe(200);
    expect((await pendingOf(person.user.id)).fullName).toBe('Ada King');
  });
});

describe('The limits and the races', () => {
  it(`allows 3 checks in 30 days`, async () => {
    const person = await signUpAndIn('Tries Thrice');
    for (let i = 0; i < 3; i++) {
      expect((await send(person)).status).toBe(200);
      const { id } = await pendingOf(person.user.id);
      expect((await decide(admin, id, { decision: 'reject', reason: 'expired' })).status).toBe(200);
      offsetMs += 25 * HOUR;
    }
    const s = await stateOf(person);
    expect(s.attempts_left).toBe(0);
    expect(s.next_attempt_at).not.toBeNull();
    const res = await send(person);
    expect(res.status).toBe(429);
    expect(errorOf(res).message).toMatch(new RegExp(`^${ID_CHECK_ERRORS.attempts} You can try again on `));
    expect(await checksOf(person.user.id)).toHaveLength(3);
    // The first attempt leaves the window 30 days after it was sent.
    offsetMs += Date.parse(s.next_attempt_at!) - clock().getTime() + 1000;
    expect((await stateOf(person)).attempts_left).toBe(1);
    expect((await send(person)).status).toBe(200);
  });

  it('two sends at once store one check', async () => {
    const person = await signUpAndIn('Double Clicker');
    const answers = await Promise.all([send(person), send(person)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await checksOf(person.user.id)).toHaveLength(1);
  });

  it('two moderators deciding at once: exactly one wins', async () => {
    const person = await signUpAndIn('Contested Check');
    expect((await send(person)).status).toBe(200);
    const { id } = await pendingOf(person.user.id);
    const answers = await Promise.all([
      decide(admin, id, { decision: 'approve' }),
      decide(admin2, id, { decision: 'reject', reason: 'other' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const won = answers.find((a) => a.status === 200)!.body.status;
    const [check] = await checksOf(person.user.id);
    expect(check!.status).toBe(won);
    expect(await db().select().from(moderationActions).where(eq(moderationActions.idCheckId, id))).toHaveLength(1);
    const notes = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, person.user.id), eq(notifications.type, 'id_check')));
    expect(notes).toHaveLength(1);
    expect(await documentsOf(id)).toEqual([]);
  });

  it('refuses to approve a check whose name changed since it was sent (rejecting it works)', async () => {
    const person = await signUpAndIn('Before Rename');
    expect((await send(person)).status).toBe(200);
    const { id } = await pendingOf(person.user.id);
    await call('PATCH', '/account/profile', { cookie: person.token, body: { full_name: 'After Rename' } });
    const listed = (await queue(admin, '?limit=50')).body.items.find((i) => i.id === id);
    expect(listed).toMatchObject({ full_name: 'Before Rename', current_name: 'After Rename' });
    const res = await decide(admin, id, { decision: 'approve' });
    expect(res.status).toBe(409);
    expect(errorOf(res).message).toBe(ID_CHECK_ERRORS.name_changed);
    expect((await pendingOf(person.user.id)).status).toBe('pending');
    expect(await documentsOf(id)).toHaveLength(2);
    expect(await db().select().from(moderationActions).where(eq(moderationActions.idCheckId, id))).toEqual([]);
    expect((await decide(admin, id, { decision: 'reject', reason: 'name_mismatch' })).status).toBe(200);
  });
});

describe('Your data and Delete account', () => {
  it('the export lists my checks (status, dates, reason) and never the photos', async () => {
    const person = await signUpAndIn('Export Person');
    expect((await send(person)).status).toBe(200);
    const first = await pendingOf(person.user.id);
    await decide(admin, first.id, { decision: 'reject', reason: 'name_mismatch' });
    offsetMs += 25 * HOUR;
    expect((await send(person)).status).toBe(200);
    const pending = await pendingOf(person.user.id);
    const docs = await documentsOf(pending.id);
    // The export asks for a recent sign-in, and the app's clock moved a day: a fresh one.
    const token = await signIn(person.email, STRONG_PASSWORD);
    const res = await call<{ account: { id_checks: Record<string, unknown>[] } }>('GET', '/account/export', {
      cookie: token,
    });
    expect(res.status).toBe(200);
    expect(res.body.account.id_checks).toEqual([
      {
        status: 'rejected',
        name_sent: 'Export Person',
        submitted_at: first.submittedAt.toISOString(),
        decided_at: expect.any(String),
        reason: 'Name does not match',
      },
      {
        status: 'pending',
        name_sent: 'Export Person',
        submitted_at: pending.submittedAt.toISOString(),
        decided_at: null,
        reason: null,
      },
    ]);
    const text = JSON.stringify(res.body);
    for (const d of docs) {
      expect(text).not.toContain(d.ciphertext.toString('base64').slice(0, 40));
      expect(text).not.toContain(d.ciphertext.toString('hex').slice(0, 40));
    }
    expect(text).not.toMatch(/ciphertext|auth_tag|key_id|\/photos\//);
  });

  it('deleting my account deletes my waiting check and its photos', async () => {
    const person = await signUpAndIn('Leaving Soon');
    expect((await send(person)).status).toBe(200);
    const { id } = await pendingOf(person.user.id);
    expect(await documentsOf(id)).toHaveLength(2);
    const res = await call('POST', '/account/delete', {
      cookie: person.token,
      body: { confirm: 'DELETE', password: STRONG_PASSWORD },
    });
    expect(res.status).toBe(204);
    expect(await documentsOf(id)).toEqual([]);
    expect(await checksOf(person.user.id)).toEqual([]);
  });
});

describe('The keys', () => {
  it('rotate: new photos use the current key, old ones open while their key is known', async () => {
    const [a, b] = [randomBytes(32), randomBytes(32)];
    const id = randomBytesUuid();
    const withA = createIdDocumentKeys(db(), { current: a });
    const sealed = (await withA.sealer())(id, 'front', Buffer.from('the ID'));
    expect(sealed.keyId).toBe(keyIdOf(a));
    const rotated = createIdDocumentKeys(db(), { current: b, old: [a] });
    expect((await rotated.sealer())(id, 'front', Buffer.from('x')).keyId).toBe(keyIdOf(b));
    expect((await rotated.open(id, 'front', sealed)).toString()).toBe('the ID');
    await expect(createIdDocumentKeys(db(), { current: b }).open(id, 'front', sealed)).rejects.toThrow(
      /is not known here/,
    );
    // The database's key stays readable after ID_DOCUMENTS_KEY is set.
    const fromDb = (await createIdDocumentKeys(db()).sealer())(id, 'selfie', Buffer.from('selfie'));
    expect(fromDb.keyId).toBe(keyIdOf(await storedKey()));
    expect((await rotated.open(id, 'selfie', fromDb)).toString()).toBe('selfie');
  });

  it('the database key is made once, whichever instance asks first', async () => {
    const ids = await Promise.all([1, 2, 3].map(() => createIdDocumentKeys(db()).currentKeyId()));
    expect(new Set(ids).size).toBe(1);
  });

  it('ID_DOCUMENTS_KEY is checked at start, with a clear message', () => {
    const key = randomBytes(32).toString('base64');
    expect(readEnv({ ID_DOCUMENTS_KEY: key }).ID_DOCUMENTS_KEY?.equals(Buffer.from(key, 'base64'))).toBe(true);
    expect(readEnv({}).ID_DOCUMENTS_KEY).toBeUndefined();
    expect(() => readEnv({ ID_DOCUMENTS_KEY: randomBytes(16).toString('base64') })).toThrow(
      /ID_DOCUMENTS_KEY must be 32 random bytes in base64/,
    );
    expect(() => readEnv({ ID_DOCUMENTS_KEY: 'not base64 at all!' })).toThrow(/ID_DOCUMENTS_KEY must be/);
    expect(() => readEnv({ ID_DOCUMENTS_OLD_KEYS: `${key},short` })).toThrow(/ID_DOCUMENTS_OLD_KEYS/);
  });
});

function randomBytesUuid(): string {
  const h = randomBytes(16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
