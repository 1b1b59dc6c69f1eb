import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { IDEMPOTENT_REPLAY_HEADER } from '../../shared/idempotency';
import {
  PHONE_ALREADY_YOURS,
  PHONE_CODE_EXPIRED,
  PHONE_CODE_FORMAT,
  PHONE_CODE_LOCKED,
  PHONE_INVALID,
  PHONE_NO_CODE,
  PHONE_NOT_US,
  PHONE_REQUIRED,
  PHONE_TAKEN,
  phoneCodeSms,
  phoneCodeWrong,
  type PhoneState,
} from '../../shared/verification';
import { jobs, phoneVerifications, profiles } from '../db/schema';
import { STRONG_PASSWORD, setupTestApp, type CallResult } from '../test/harness';
import { lastCodeTo, newUsNumber, smsFiles } from '../test/phone';
import { hashPhoneCode, PHONE_CODE_JOB } from './phone-service';

const MINUTE = 60_000;
/** The app's clock runs `shift` ahead of the wall clock: a code's 10 minutes pass without waiting. */
let shift = 0;
const clock = () => new Date(Date.now() + shift);
afterEach(() => {
  shift = 0;
});

const { ctx, call, signUpAndIn } = setupTestApp({ JOBS_POLL_MS: '3600000', AUTH_PER_IP_MAX: '100000' }, { clock });
const db = () => ctx.database.db;

type Me = Awaited<ReturnType<typeof signUpAndIn>>;
const stateOf = async (me: Me) => (await call<PhoneState>('GET', '/account/phone', { cookie: me.token })).body;
const send = (me: Me, phone: unknown, headers?: Record<string, string>) =>
  call<PhoneState>('POST', '/account/phone', { cookie: me.token, body: { phone }, headers });
const confirm = (me: Me, code: unknown) =>
  call<PhoneState>('POST', '/account/phone/confirm', { cookie: me.token, body: { code } });
const remove = (me: Me) => call('DELETE', '/account/phone', { cookie: me.token });
const rowsOf = (me: Me) => db().select().from(phoneVerifications).where(eq(phoneVerifications.userId, me.user.id));
const profileOf = async (me: Me) => (await db().select().from(profiles).where(eq(profiles.userId, me.user.id)))[0]!;

/** Sends a code to `number`, runs the job and reads the code from its .txt file. */
async function codeFor(me: Me, number: { typed: string; e164: string }): Promise<string> {
  const res = await send(me, number.typed);
  expect(res.status).toBe(202);
  await ctx.app.jobs.runDue();
  return lastCodeTo(ctx.env.DATA_DIR, number.e164);
}
/** A 6-digit code other than `code`. */
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

function expectRefusal(res: CallResult, status: number, code: string, message?: string) {
  expect(res.body).toEqual({ code, message: message ?? expect.any(String) });
  expect(res.status).toBe(status);
}

describe('sending a code', () => {
  it('needs a session', async () => {
    expect((await call('GET', '/account/phone')).status).toBe(401);
    expect((await call('POST', '/account/phone', { body: { phone: '2015550123' } })).status).toBe(401);
    expect((await call('POST', '/account/phone/confirm', { body: { code: '123456' } })).status).toBe(401);
    expect((await call('DELETE', '/account/phone')).status).toBe(401);
  });

  it('answers 202 with the code waiting, writes DATA_DIR/sms/rr-phone-<job>.txt with the code, stores only its hash', async () => {
    const me = await signUpAndIn('Paula Phone');
    expect(await stateOf(me)).toEqual({ phone: null, verified_at: null, pending: null });
    const number = newUsNumber();
    const asked = clock();
    const res = await send(me, number.typed);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      phone: null,
      verified_at: null,
      pending: { phone: number.national, expires_at: expect.any(String) },
    });
    expect(Date.parse(res.body.pending!.expires_at) - asked.getTime()).toBeGreaterThanOrEqual(10 * MINUTE - 1000);
    expect(Date.parse(res.body.pending!.expires_at) - asked.getTime()).toBeLessThanOrEqual(10 * MINUTE + 1000);
    expect(await stateOf(me)).toEqual(res.body);

    // The job makes the code and texts it; its payload holds no code. (On PostgreSQL the worker hears the enqueue's
    // NOTIFY and may have run it already: the job is found by its user, whatever its status; runDue waits for it.)
    const [job] = await db()
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, PHONE_CODE_JOB), sql`${jobs.payload}->>'user_id' = ${me.user.id}`));
    expect(job!.payload).toEqual({ verification_id: expect.any(String), user_id: me.user.id });
    await ctx.app.jobs.runDue();
    const files = (await smsFiles(ctx.env.DATA_DIR)).filter((f) => f.to === number.e164);
    expect(files).toHaveLength(1);
    const file = files[0]!;
    expect(file.name).toBe(`rr-phone-${job!.id}.txt`);
    expect(file.code).toMatch(/^\d{6}$/);
    expect(file.body).toBe(phoneCodeSms(file.code!));
    expect(file.body).toBe(`Your RuralRoute code is ${file.code}. It expires in 10 minutes.`);

    const rows = await rowsOf(me);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ phone: number.e164, tries: 0, usedAt: null });
    expect(rows[0]!.codeHash).toBe(hashPhoneCode(rows[0]!.id, file.code!));
    expect(JSON.stringify(rows)).not.toContain(file.code);
    const [sent] = await db().select().from(jobs).where(eq(jobs.id, job!.id));
    expect(JSON.stringify(sent)).not.toContain(file.code);
  });

  it('a new send replaces the code waiting: the old code stops working, the new one works', async () => {
    const me = await signUpAndIn('Rita Resend');
    const number = newUsNumber();
    const first = await codeFor(me, number);
    const second = await codeFor(me, number);
    expect(await rowsOf(me)).toHaveLength(1);
    if (first !== second) expectRefusal(await confirm(me, first), 400, 'wrong_code', phoneCodeWrong(4));
    const ok = await confirm(me, second);
    expect(ok.status).toBe(200);
    expect(ok.body.phone).toBe(number.national);
  });

  it('refuses bad input with a clear 400 and changes nothing (never a 500)', async () => {
    const me = await signUpAndIn('Mal Formed');
    const cases: [unknown, string][] = [
      ['', PHONE_REQUIRED],
      ['   ', PHONE_REQUIRED],
      [null, PHONE_REQUIRED],
      [2015550123, PHONE_REQUIRED],
      ['call me', PHONE_INVALID],
      ['12345', PHONE_INVALID],
      ['555-123-4567', PHONE_INVALID],
      ['201-555-0123 ext 4', PHONE_INVALID],
      ['2'.repeat(31), PHONE_INVALID],
      ['+44 20 7946 0958', PHONE_NOT_US],
      ['+1 416 555 0123', PHONE_NOT_US],
    ];
    for (const [phone, message] of cases) {
      const res = await send(me, phone);
      expect(res.body, JSON.stringify(phone)).toEqual({ code: 'validation_error', message });
      expect(res.status).toBe(400);
    }
    expect((await call('POST', '/account/phone', { cookie: me.token, body: {} })).status).toBe(400);
    expect((await call('POST', '/account/phone', { cookie: me.token, body: ['2015550123'] })).status).toBe(400);
    const raw = await call('POST', '/account/phone', { cookie: me.token, raw: '{"phone": ' });
    expectRefusal(raw, 400, 'malformed_json');
    const text = await call('POST', '/account/phone', {
      cookie: me.token,
      raw: 'phone=2015550123',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    for (const code of ['', '12345', '1234567', 'abcdef', 123456, null, '12 34 56']) {
      const res = await confirm(me, code);
      expect(res.body, JSON.stringify(code)).toEqual({ code: 'validation_error', message: PHONE_CODE_FORMAT });
      expect(res.status).toBe(400);
    }
    expectRefusal(await call('POST', '/account/phone/confirm', { cookie: me.token, raw: 'x' }), 400, 'malformed_json');
    expect(await rowsOf(me)).toEqual([]);
    expect(await stateOf(me)).toEqual({ phone: null, verified_at: null, pending: null });
  });

  it('a repeat with the same Idempotency-Key gets the first answer and sends nothing more', async () => {
    const me = await signUpAndIn('Ida Empotent');
    const number = newUsNumber();
    const key = randomUUID();
    const first = await send(me, number.typed, { 'idempotency-key': key });
    const again = await send(me, number.typed, { 'idempotency-key': key });
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true');
    await ctx.app.jobs.runDue();
    expect((await smsFiles(ctx.env.DATA_DIR)).filter((f) => f.to === number.e164)).toHaveLength(1);
  });
});

describe('confirming the code', () => {
  it('the right code verifies the number, once; the profile holds it in E.164', async () => {
    const me = await signUpAndIn('Vera Verify');
    const number = newUsNumber();
    const code = await codeFor(me, number);
    const res = await confirm(me, ` ${code} `);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ phone: number.national, verified_at: expect.any(String), pending: null });
    expect(Math.abs(Date.parse(res.body.verified_at!) - Date.now())).toBeLessThan(60_000);
    expect(await profileOf(me)).toMatchObject({ phone: number.e164, phoneVerifiedAt: expect.any(Date) });
    expect(await stateOf(me)).toEqual(res.body);
    // Used up.
    expectRefusal(await confirm(me, code), 400, 'phone_code_expired', PHONE_NO_CODE);
    const [row] = await rowsOf(me);
    expect(row!.usedAt).not.toBeNull();
  });

  it('a wrong code says how many tries are left; after 5 the code stops working, even the right one', async () => {
    const me = await signUpAndIn('Wanda Wrong');
    const number = newUsNumber();
    const code = await codeFor(me, number);
    const wrong = otherThan(code);
    for (const left of [4, 3, 2, 1]) expectRefusal(await confirm(me, wrong), 400, 'wrong_code', phoneCodeWrong(left));
    expect((await confirm(me, wrong)).body).toEqual({
      code: 'wrong_code',
      message: 'That code is not right, and it has now stopped working. Ask for a new code.',
    });
    expectRefusal(await confirm(me, code), 400, 'phone_code_expired', PHONE_CODE_LOCKED);
    expect((await rowsOf(me))[0]!.tries).toBe(5);
    expect(await stateOf(me)).toEqual({ phone: null, verified_at: null, pending: null });
    expect((await profileOf(me)).phone).toBeNull();
    // A new code works again.
    const fresh = await codeFor(me, number);
    expect((await confirm(me, fresh)).status).toBe(200);
  });

  it('wrong tries are counted when sent at once (never lost to a race)', async () => {
    const me = await signUpAndIn('Paco Parallel');
    const code = await codeFor(me, newUsNumber());
    const answers = await Promise.all(Array.from({ length: 7 }, () => confirm(me, otherThan(code))));
    expect(answers.map((a) => a.status)).toEqual(Array(7).fill(400));
    expect(answers.filter((a) => (a.body as unknown as { code: string }).code === 'wrong_code')).toHaveLength(5);
    expect((await rowsOf(me))[0]!.tries).toBe(5);
  });

  it('a code works 10 minutes from when it is sent, then says it expired', async () => {
    const me = await signUpAndIn('Ezra Expired');
    const number = newUsNumber();
    const code = await codeFor(me, number);
    shift = 10 * MINUTE - 5_000;
    expect((await stateOf(me)).pending).not.toBeNull();
    shift = 10 * MINUTE + 1_000;
    expect((await stateOf(me)).pending).toBeNull();
    expectRefusal(await confirm(me, code), 400, 'phone_code_expired', PHONE_CODE_EXPIRED);
    expect((await profileOf(me)).phone).toBeNull();
  });

  it('without a code sent: a clear 400', async () => {
    const me = await signUpAndIn('Nadia Nothing');
    expectRefusal(await confirm(me, '123456'), 400, 'phone_code_expired', PHONE_NO_CODE);
  });

  it('another person cannot confirm my code: only their own pending code counts, and mine keeps working', async () => {
    const [me, other] = [await signUpAndIn('Olive Owner'), await signUpAndIn('Otto Other')];
    const number = newUsNumber();
    const code = await codeFor(me, number);
    expect(await stateOf(other)).toEqual({ phone: null, verified_at: null, pending: null });
    expectRefusal(await confirm(other, code), 400, 'phone_code_expired', PHONE_NO_CODE);
    expect((await profileOf(other)).phone).toBeNull();
    expect((await confirm(me, code)).body).toMatchObject({ phone: number.national });
  });
});

describe('one number, one account', () => {
  it('a number verified on another account: 409 on send; my own verified number: 409', async () => {
    const [me, other] = [await signUpAndIn('Nell Number'), await signUpAndIn('Nick Next')];
    const number = newUsNumber();
    expect((await confirm(me, await codeFor(me, number))).status).toBe(200);
    expectRefusal(await send(other, number.typed), 409, 'phone_taken', PHONE_TAKEN);
    expectRefusal(await send(me, `+1 ${number.typed}`), 409, 'phone_already_yours', PHONE_ALREADY_YOURS);
    expect(await rowsOf(other)).toEqual([]);
  });

  it('two accounts with codes for one number: the first to confirm keeps it, the other gets 409', async () => {
    const [a, b] = [await signUpAndIn('Ann Alpha'), await signUpAndIn('Ben Beta')];
    const number = newUsNumber();
    const codeA = await codeFor(a, number);
    const codeB = await codeFor(b, number);
    expect((await confirm(a, codeA)).status).toBe(200);
    expectRefusal(await confirm(b, codeB), 409, 'phone_taken', PHONE_TAKEN);
    expect((await profileOf(b)).phone).toBeNull();
  });

  it('two accounts confirming one number at the same moment: exactly one wins, the other gets 409', async () => {
    const [a, b] = [await signUpAndIn('Cora Race'), await signUpAndIn('Dirk Race')];
    const number = newUsNumber();
    const codeA = await codeFor(a, number);
    const codeB = await codeFor(b, number);
    const answers = await Promise.all([confirm(a, codeA), confirm(b, codeB)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.status === 409)!.body).toEqual({ code: 'phone_taken', message: PHONE_TAKEN });
    const owners = await db().select().from(profiles).where(eq(profiles.phone, number.e164));
    expect(owners).toHaveLength(1);
  });

  it("'Remove number' frees it: 'Phone verified' goes, another account may verify it", async () => {
    const [me, other] = [await signUpAndIn('Remy Remove'), await signUpAndIn('Tia Takeover')];
    const number = newUsNumber();
    expect((await confirm(me, await codeFor(me, number))).status).toBe(200);
    const res = await remove(me);
    expect(res.status).toBe(204);
    expect(await stateOf(me)).toEqual({ phone: null, verified_at: null, pending: null });
    expect(await profileOf(me)).toMatchObject({ phone: null, phoneVerifiedAt: null });
    expect((await confirm(other, await codeFor(other, number))).status).toBe(200);
    // Nothing to remove is fine too; a code waiting goes with it.
    await send(me, newUsNumber().typed);
    expect((await remove(me)).status).toBe(204);
    expect((await stateOf(me)).pending).toBeNull();
  });
});

describe('limits: 3 sends per hour per account and per number', () => {
  it('a 4th send from one account in the hour is refused (429, Retry-After), whatever the number', async () => {
    const me = await signUpAndIn('Lars Limit');
    for (let i = 0; i < 3; i++) expect((await send(me, newUsNumber().typed)).status).toBe(202);
    const res = await send(me, newUsNumber().typed);
    expectRefusal(res, 429, 'too_many_requests');
    expect((res.body as unknown as { message: string }).message).toMatch(
      /^Too many attempts\. Please wait \d+ minutes and try again\.$/,
    );
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3000);
  });

  it('a 4th send to one number in the hour is refused, across accounts', async () => {
    const [a, b] = [await signUpAndIn('Mia Many'), await signUpAndIn('Max Many')];
    const number = newUsNumber();
    for (const who of [a, a, b]) {
      expect((await send(who, number.typed)).status).toBe(202);
      await ctx.app.jobs.runDue();
    }
    expectRefusal(await send(b, number.typed), 429, 'too_many_requests');
    // The number's limit, not b's: b may still send to another number.
    expect((await send(b, newUsNumber().typed)).status).toBe(202);
    await ctx.app.jobs.runDue();
    expect((await smsFiles(ctx.env.DATA_DIR)).filter((f) => f.to === number.e164)).toHaveLength(3);
  });
});

describe('the account', () => {
  it("'Your data' holds my verified number", async () => {
    const me = await signUpAndIn('Xena Export');
    const number = newUsNumber();
    expect((await confirm(me, await codeFor(me, number))).status).toBe(200);
    const res = await call<{ account: Record<string, unknown> }>('GET', '/account/export', { cookie: me.token });
    expect(res.status).toBe(200);
    expect(res.body.account.phone).toEqual({ number: number.e164, verified_at: expect.any(String) });
    expect(res.body.account.pending_phone_code).toBeNull();
    expect(JSON.stringify(res.body)).not.toMatch(/code_hash/);
  });

  it('deleting the account clears the number and every code', async () => {
    const me = await signUpAndIn('Dora Delete');
    const number = newUsNumber();
    expect((await confirm(me, await codeFor(me, number))).status).toBe(200);
    await send(me, newUsNumber().typed);
    const res = await call('POST', '/account/delete', {
      cookie: me.token,
      body: { confirm: 'DELETE', password: STRONG_PASSWORD },
    });
    expect(res.status).toBeLessThan(300);
    expect(await profileOf(me)).toMatchObject({ phone: null, phoneVerifiedAt: null });
    expect(await rowsOf(me)).toEqual([]);
    const waiting = await db()
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, PHONE_CODE_JOB), eq(jobs.status, 'queued')));
    expect(waiting.filter((j) => JSON.stringify(j.payload).includes(me.user.id))).toEqual([]);
    // The number is free for someone else.
    const other = await signUpAndIn('Nina New');
    expect((await confirm(other, await codeFor(other, number))).status).toBe(200);
  });
});
