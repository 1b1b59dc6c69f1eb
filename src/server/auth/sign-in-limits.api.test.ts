import { describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, setupTestApp, type CallResult } from '../test/harness';
import { passwordVerifications } from './password';

// Per account and address: the default 5. Over all addresses: low, so a distributed attack is reachable here.
const { call, signUpAndIn } = setupTestApp({ AUTH_FAILED_PER_ACCOUNT_ALL_ADDRESSES_MAX: '8' });

const signIn = (email: string, password: string, ip: string) =>
  call('POST', '/auth/sign-in', { body: { email, password }, ip });

function expectLimited(res: CallResult) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({
    code: 'too_many_requests',
    message: 'Too many attempts. Please wait 15 minutes and try again.',
  });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(14 * 60);
  expect(retryAfter).toBeLessThanOrEqual(15 * 60);
}

/** 20 wrong passwords at once from one address: returns the statuses and how many reached argon2. */
async function parallelWrongPasswords(email: string, ip: string) {
  const before = passwordVerifications();
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(email, `Wrong-password-${i}`, ip)));
  return { answers, verifications: passwordVerifications() - before };
}

describe('sign-in attempt limits (counted in the database before argon2)', () => {
  it('lets at most 5 of 20 parallel wrong passwords from one address reach argon2; the rest get 429', async () => {
    const { email } = await signUpAndIn('Target', '10.20.0.1');
    const { answers, verifications } = await parallelWrongPasswords(email, '10.20.0.2');
    expect(verifications).toBe(5);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(verifications);
    const refused = answers.filter((a) => a.status !== 401);
    expect(refused).toHaveLength(20 - verifications);
    refused.forEach(expectLimited);
  });

  it('treats an unknown e-mail the same way: same answers, same work', async () => {
    const { answers, verifications } = await parallelWrongPasswords('nobody-here@example.com', '10.21.0.2');
    expect(verifications).toBe(5);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(verifications);
    answers.filter((a) => a.status !== 401).forEach(expectLimited);
  });

  it("does not let a stranger's address lock the owner out: refused attempts use none of the account's allowance", async () => {
    const { email } = await signUpAndIn('Owner', '10.22.0.1');
    await parallelWrongPasswords(email, '10.22.6.6');
    expectLimited(await signIn(email, STRONG_PASSWORD, '10.22.6.6'));
    // 5 failures counted account-wide (of 8): the owner, elsewhere, still gets in, and after that too.
    expect((await signIn(email, STRONG_PASSWORD, '10.22.0.1')).status).toBe(200);
    expect((await signIn(email, 'Wrong-password-x', '10.22.0.1')).status).toBe(401);
    expect((await signIn(email, STRONG_PASSWORD, '10.22.0.1')).status).toBe(200);
  });

  it('stops guessing spread over many addresses with the account-wide cap, before argon2', async () => {
    const { email } = await signUpAndIn('Spread', '10.23.0.1');
    for (let i = 0; i < 4; i++)
      for (let j = 0; j < 2; j++) expect((await signIn(email, `Wrong-${i}-${j}`, `10.23.1.${i}`)).status).toBe(401);
    const before = passwordVerifications();
    expectLimited(await signIn(email, 'Wrong-next', '10.23.2.1'));
    expectLimited(await signIn(email, STRONG_PASSWORD, '10.23.0.1'));
    expect(passwordVerifications()).toBe(before);
  });

  it('does not count successful sign-ins against the account', async () => {
    const { email } = await signUpAndIn('Regular', '10.24.0.1');
    for (let i = 0; i < 4; i++) expect((await signIn(email, 'Wrong-password-1', '10.24.0.1')).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await signIn(email, 'Wrong-password-1', '10.24.0.2')).status).toBe(401);
    // 7 of 8 used: each success reserves the 8th and gives it back.
    for (let i = 0; i < 5; i++) expect((await signIn(email, STRONG_PASSWORD, '10.24.0.1')).status).toBe(200);
    expect((await signIn(email, 'Wrong-password-1', '10.24.0.3')).status).toBe(401);
    expectLimited(await signIn(email, STRONG_PASSWORD, '10.24.0.1'));
  });
});
