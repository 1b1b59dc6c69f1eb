import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword, newPasswordSchema, refuseCommonPassword } from './password-rules';

describe('isCommonPassword: zxcvbn finds it within a million guesses (score 0 or 1)', () => {
  // Each meets every spec rule (12+ characters, upper, lower, digit, special), which is why a plain lookup in the
  // list is not enough: only 2 of its 49,233 entries could pass those rules at all.
  it.each([
    'Password123!',
    'Passw0rd123!',
    'P@ssw0rd1234',
    'Pa55word!2345',
    '!Password123',
    'Password1234!',
    'Qwerty123456!',
    'Qwertyuiop1!',
    '1qaz2wsx3edC!',
    'Trustno1!!!!',
    'P030710P$e4o', // a listed entry, in another case
  ])('refuses %s', async (password) => {
    expect(newPasswordSchema.safeParse(password).success).toBe(true);
    expect(await isCommonPassword(password)).toBe(true);
  });

  it.each([
    'Correct-Horse-9',
    'Bench-password-1',
    'Abcdefgh123!',
    'Abcdefgh12!x',
    'Welcome2024!',
    'Monkey123456!',
    'Harvest-Moon-42',
    'Tr4ctor-Mud-Season7',
    'Xk9#mQ2$vL7p',
  ])('accepts %s', async (password) => {
    expect(await isCommonPassword(password)).toBe(false);
  });

  it('scores only the first 64 characters, so a long hostile password stays cheap to check', async () => {
    // A weak start followed by a long random tail: scored whole it would be strong; cut at 64 it is the weak start.
    // (The cost itself is measured by no test: timing a unit test on a busy machine only makes it flaky.)
    const tail = 'Xk9#mQ2$vL7p-Tr4ctor-Mud-Season7-Qz8!wRb5^Lm3@Hd6&'.repeat(4);
    const hostile = `${'P@$$w0rd'.repeat(8)}${tail}`;
    expect(await isCommonPassword(tail)).toBe(false);
    expect(await isCommonPassword(hostile)).toBe(true);
  });
});

describe('refuseCommonPassword: reusable wherever a password is set', () => {
  const changePassword = refuseCommonPassword(
    z.object({ current_password: z.string().min(1, 'Current password is required'), new_password: newPasswordSchema }),
    'new_password',
  );

  it('reports the common-password message on the given field', async () => {
    const r = await changePassword.safeParseAsync({ current_password: 'x', new_password: 'Password123!' });
    expect(r.error?.issues).toEqual([
      expect.objectContaining({ path: ['new_password'], message: COMMON_PASSWORD_MESSAGE }),
    ]);
  });

  it('runs only once every other rule passes', async () => {
    const r = await changePassword.safeParseAsync({ current_password: '', new_password: 'Password123!' });
    expect(r.error?.issues.map((i) => i.message)).toEqual(['Current password is required']);
  });

  it('lets an uncommon password through', async () => {
    const r = await changePassword.safeParseAsync({ current_password: 'x', new_password: 'Harvest-Moon-42' });
    expect(r.success).toBe(true);
  });
});
