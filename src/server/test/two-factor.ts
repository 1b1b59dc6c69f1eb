import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { expect } from 'vitest';
import type { RecoveryCodes, TwoFactorSetup } from '../../shared/two-factor';
import type { Db } from '../db/client';
import { sessions, twoFactorSecrets } from '../db/schema';
import type { CallOptions, CallResult } from './harness';

/**
 * Two-factor on for `userId` with a known secret, written straight to the database, and the user's sessions raised
 * to aal2 as if each had given a code (without that they would be pending: signed out until they give one).
 */
export async function turnOnDirectly(db: Db, userId: string, secret: string): Promise<void> {
  await db.insert(twoFactorSecrets).values({ userId, secret, enabledAt: new Date() });
  await db.update(sessions).set({ aal: 'aal2' }).where(eq(sessions.userId, userId));
}

/** TOTP steps are 30 seconds (RFC 6238), as two-factor/second-factor.ts checks them. */
export const STEP_MS = 30_000;

/**
 * A stopped clock for the app (setupTestApp(env, { clock })) and the codes an authenticator app would show at its
 * time: a test decides exactly which step a code belongs to, so 'one step off' never depends on when it runs.
 */
export function frozenClock() {
  let now = Date.now();
  return {
    clock: () => new Date(now),
    /** Back to the wall clock (between tests). */
    reset: () => {
      now = Date.now();
    },
    advance: (ms: number) => {
      now += ms;
    },
    code,
    /** A 6-digit code that is none of those accepted now (one step of drift either way), the `n`th such. */
    async wrongCode(secret: string, n = 0): Promise<string> {
      const accepted = await Promise.all([-1, 0, 1].map((steps) => code(secret, steps)));
      for (let i = n; ; i++) {
        const candidate = String(i * 7919).padStart(6, '0');
        if (!accepted.includes(candidate)) return candidate;
      }
    },
  };
  /** The code of `secret` `steps` steps from now. */
  function code(secret: string, steps = 0): Promise<string> {
    return generate({ secret, epoch: Math.floor(now / 1000) + steps * 30 });
  }
}

type Call = <T = unknown>(method: string, path: string, opts?: CallOptions) => Promise<CallResult<T>>;

/** Settings 'Two-factor authentication' through the API, as the person in `token`'s session. */
export function twoFactorSteps(call: Call, codeOf: (secret: string) => Promise<string>) {
  async function setUp(token: string): Promise<TwoFactorSetup> {
    const res = await call<TwoFactorSetup>('POST', '/account/two-factor/setup', { cookie: token, body: {} });
    expect(res.status).toBe(200);
    return res.body;
  }

  /** Sets it up and turns it on with the code of now; returns the secret and the recovery codes. */
  async function turnOn(token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
    const { secret } = await setUp(token);
    const res = await call<RecoveryCodes>('POST', '/account/two-factor/enable', {
      cookie: token,
      body: { code: await codeOf(secret) },
    });
    expect(res.status).toBe(200);
    return { secret, recoveryCodes: res.body.recovery_codes };
  }

  /** The code step of sign-in; returns the answer and the new session token it set (if any). */
  async function giveCode(pendingToken: string, body: unknown, ip?: string) {
    const res = await call('POST', '/auth/two-factor', { cookie: pendingToken, body, ip });
    const token = res.headers.get('set-cookie')?.match(/rr_session=([^;]+)/)?.[1];
    return { res, token };
  }

  return { setUp, turnOn, giveCode };
}
