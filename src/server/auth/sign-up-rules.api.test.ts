import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../db/schema';
import { STRONG_PASSWORD, setupTestApp } from '../test/harness';
import { hashPassword } from './password';

// The server refuses common passwords at sign-up whatever the client did.
const { ctx, call } = setupTestApp();

let ipCounter = 0;
/** Each call from its own address, so the per-address attempt limit never decides these cases. */
const nextIp = () => `10.80.0.${++ipCounter}`;

const signUp = (email: string, password: string, extra: Record<string, unknown> = {}) =>
  call('POST', '/auth/sign-up', {
    body: { email, password, full_name: 'Mary Field', age_confirmed: true, ...extra },
    ip: nextIp(),
  });

async function countUsers(email: string) {
  const rows = await ctx.database.db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  return rows.length;
}

describe('sign-up refuses common passwords', () => {
  it.each(['Password123!', 'P@ssw0rd1234', 'Qwerty123456!'])(
    'answers 400 validation_error for %s and creates no account',
    async (password) => {
      const email = `common.${ipCounter}@example.com`;
      const res = await signUp(email, password);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'validation_error', message: 'This password is too common. Choose another.' });
      expect(await countUsers(email)).toBe(0);
    },
  );

  it('reports the spec rules first: a common password with an empty name is told about the name', async () => {
    const res = await signUp('common.noname@example.com', 'Password123!', { full_name: ' ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'validation_error', message: 'Full name is required' });
  });

  it('still creates an account with an uncommon password', async () => {
    const res = await signUp('uncommon@example.com', STRONG_PASSWORD);
    expect(res.status).toBe(201);
    expect(await countUsers('uncommon@example.com')).toBe(1);
  });

  it('does not affect existing accounts: one whose password is common still signs in', async () => {
    const email = 'existing.common@example.com';
    expect((await signUp(email, STRONG_PASSWORD)).status).toBe(201);
    // As if the account had been created before the rule existed.
    const cost = {
      memoryCost: ctx.env.ARGON2_MEMORY_KIB,
      timeCost: ctx.env.ARGON2_TIME_COST,
      parallelism: ctx.env.ARGON2_PARALLELISM,
    };
    await ctx.database.db
      .update(users)
      .set({ passwordHash: await hashPassword('Password123!', cost) })
      .where(eq(users.email, email));
    const res = await call('POST', '/auth/sign-in', {
      body: { email, password: 'Password123!' },
      ip: nextIp(),
    });
    expect(res.status).toBe(200);
  });
});
