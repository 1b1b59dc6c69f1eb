import { generate } from 'otplib';
import { afterEach, describe, expect, it } from 'vitest';
import { WRONG_CURRENT_PASSWORD, type AccountProfile } from '../../shared/account';
import { CODE_REQUIRED, WRONG_CODE } from '../../shared/two-factor';
import { turnOnDirectly } from '../test/two-factor';
import { STRONG_PASSWORD, setupTestApp } from '../test/harness';

/** RFC 6238's test secret ('12345678901234567890') in base32: codes are computed here as an app would. */
const SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const MINUTE = 60_000;

let shift = 0;
const clock = () => new Date(Date.now() + shift);
afterEach(() => {
  shift = 0;
});

const { ctx, call, signUpAndIn } = setupTestApp({ JOBS_POLL_MS: '3600000', AUTH_PER_IP_MAX: '100000' }, { clock });

const codeNow = () => generate({ secret: SECRET, epoch: Math.floor(clock().getTime() / 1000) });
const requestChange = (token: string, body: Record<string, unknown>) =>
  call<{ pending_email: string }>('POST', '/account/email', { cookie: token, body });
const pendingOf = async (token: string) =>
  (await call<AccountProfile>('GET', '/account/profile', { cookie: token })).body.pending_email;

describe("'Email' with two-factor on", () => {
  it('needs a code once the last check is older than 10 minutes, and takes a right one', async () => {
    const me = await signUpAndIn('Tara Twofactor');
    await turnOnDirectly(ctx.database.db, me.user.id, SECRET);
    const form = (address: string) => ({ new_email: address, current_password: STRONG_PASSWORD });

    // Signing in was the check: within 10 minutes the password alone is enough.
    expect((await requestChange(me.token, form('tara.soon@example.com'))).status).toBe(202);

    shift = 11 * MINUTE;
    const later = 'tara.later@example.com';
    const none = await requestChange(me.token, form(later));
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ code: 'code_required', message: CODE_REQUIRED });
    // A wrong password is told first, code or not.
    const wrongPassword = await requestChange(me.token, { ...form(later), current_password: 'Not-It-1234', code: '1' });
    expect(wrongPassword.body).toEqual({ code: 'wrong_password', message: WRONG_CURRENT_PASSWORD });
    const wrong = await requestChange(me.token, { ...form(later), code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ code: 'wrong_code', message: WRONG_CODE });
    expect(await pendingOf(me.token)).toBe('tara.soon@example.com');

    const right = await requestChange(me.token, { ...form(later), code: ` ${await codeNow()} ` });
    expect(right.status).toBe(202);
    expect(right.body).toEqual({ pending_email: later });
    expect(await pendingOf(me.token)).toBe(later);
    // That was a check: for the next 10 minutes the password alone is enough again.
    expect((await requestChange(me.token, form('tara.again@example.com'))).status).toBe(202);
  });
});
