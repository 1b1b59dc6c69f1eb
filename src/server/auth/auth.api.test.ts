import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { profiles, sessions, users } from '../db/schema';
import { STRONG_PASSWORD, setupTestApp } from '../test/harness';
import { hashToken } from './tokens';

const { ctx, call, signUpAndIn, signIn } = setupTestApp();

const signUpBody = (email: string, extra: Record<string, unknown> = {}) => ({
  email,
  password: STRONG_PASSWORD,
  full_name: 'Mary Field',
  age_confirmed: true,
  ...extra,
});

async function countUsers(email: string) {
  const rows = await ctx.database.db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return rows.length;
}

describe('sign-up', () => {
  it('creates a user and a profile, storing the email trimmed and lower-cased and only an argon2id hash', async () => {
    const res = await call<{ user: { id: string; email: string; full_name: string } }>('POST', '/auth/sign-up', {
      body: signUpBody('  Mary.Field@Example.COM ', { full_name: '  Mary Field ' }),
    });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ email: 'mary.field@example.com', full_name: 'Mary Field' });
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, res.body.user.id));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row?.passwordHash).not.toContain(STRONG_PASSWORD);
    const [profile] = await ctx.database.db.select().from(profiles).where(eq(profiles.userId, res.body.user.id));
    expect(profile?.fullName).toBe('Mary Field');
    // Sign-up does not sign in: the spec says "You can now sign in." Only the browser is remembered (so signing
    // in from it is not a 'new browser').
    const cookies = res.headers.getSetCookie();
    expect(cookies.filter((c) => c.includes('rr_session'))).toEqual([]);
    expect(cookies).toEqual([
      expect.stringMatching(/^rr_browser=[A-Za-z0-9_-]{43}; Max-Age=34560000; Path=\/; HttpOnly; SameSite=Lax$/),
    ]);
  });

  it('refuses an email already registered, whatever its case or spaces, and creates nothing', async () => {
    await call('POST', '/auth/sign-up', { body: signUpBody('dup@example.com') });
    const res = await call('POST', '/auth/sign-up', {
      body: signUpBody('  DUP@Example.com  ', { full_name: 'Other' }),
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      code: 'email_taken',
      message: 'An account with this email already exists. Please sign in instead.',
    });
    expect(await countUsers('dup@example.com')).toBe(1);
  });

  it('gives one account when the same email signs up twice at once', async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() => call('POST', '/auth/sign-up', { body: signUpBody('race@example.com') })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await countUsers('race@example.com')).toBe(1);
  });

  it('refuses a sign-up without the 18+ confirmation', async () => {
    const res = await call('POST', '/auth/sign-up', {
      body: signUpBody('young@example.com', { age_confirmed: false }),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'validation_error', message: 'You must be 18 or older to use RuralRoute.' });
    expect(await countUsers('young@example.com')).toBe(0);
  });

  it('applies the same schema as the browser: first failing message', async () => {
    const res = await call('POST', '/auth/sign-up', {
      body: signUpBody('weak@example.com', { password: 'alllowercase1!' }),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'validation_error',
      message: 'Password must contain at least one uppercase letter',
    });
    expect(await countUsers('weak@example.com')).toBe(0);
  });
});

describe('sign-in', () => {
  it('sets an httpOnly, SameSite=Lax session cookie and returns the user', async () => {
    await call('POST', '/auth/sign-up', { body: signUpBody('in@example.com') });
    const res = await call<{ user: { email: string } }>('POST', '/auth/sign-in', {
      body: { email: ' IN@example.com', password: STRONG_PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe('in@example.com');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^rr_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toMatch(/Max-Age=\d+/);
    expect(cookie).not.toContain('Secure'); // plain http here; Secure is set when served over https
    // Only the token's SHA-256 is stored.
    const token = cookie.match(/rr_session=([^;]+)/)![1]!;
    const stored = await ctx.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(token)));
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('marks the cookie Secure when served over https', async () => {
    await call('POST', '/auth/sign-up', { body: signUpBody('secure@example.com') });
    const res = await ctx.app.request(
      'https://rural.example/api/auth/sign-in',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://rural.example' },
        body: JSON.stringify({ email: 'secure@example.com', password: STRONG_PASSWORD }),
      },
      { incoming: { socket: { remoteAddress: '10.9.9.9' } } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toContain('Secure');
  });

  it('answers an unknown email and a wrong password identically', async () => {
    await call('POST', '/auth/sign-up', { body: signUpBody('known@example.com') });
    const wrong = await call('POST', '/auth/sign-in', {
      body: { email: 'known@example.com', password: 'Wrong-password-1' },
    });
    const unknown = await call('POST', '/auth/sign-in', {
      body: { email: 'nobody@example.com', password: 'Wrong-password-1' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ code: 'invalid_credentials', message: 'Invalid email or password.' });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect(unknown.headers.get('set-cookie')).toBeNull();
  });
});

describe('sessions', () => {
  it('identifies the user by cookie or by bearer token, and reports nulls without one', async () => {
    const { token, email } = await signUpAndIn('Session User');
    const byCookie = await call<{ user: { email: string; full_name: string } }>('GET', '/auth/session', {
      cookie: token,
    });
    expect(byCookie.body.user).toMatchObject({ email, full_name: 'Session User' });
    const byBearer = await call<{ user: { email: string } }>('GET', '/auth/session', { bearer: token });
    expect(byBearer.body.user.email).toBe(email);
    const anonymous = await call('GET', '/auth/session');
    expect(anonymous.body).toEqual({ user: null, session: null });
    const forged = await call('GET', '/auth/session', { cookie: 'x'.repeat(43) });
    expect(forged.body).toEqual({ user: null, session: null });
  });

  it('sign-out revokes the session on the server at once', async () => {
    const { token } = await signUpAndIn();
    const out = await call('POST', '/auth/sign-out', { cookie: token });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/rr_session=;.*Max-Age=0/);
    // The same token, replayed (e.g. copied before sign-out), no longer works.
    const after = await call('GET', '/auth/session', { bearer: token });
    expect(after.body).toEqual({ user: null, session: null });
    const rows = await ctx.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(token)));
    expect(rows).toHaveLength(0);
  });

  it('ends a session after the idle time and after the absolute lifetime', async () => {
    const idle = await signUpAndIn();
    await ctx.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - (ctx.env.SESSION_IDLE_MINUTES + 1) * 60_000) })
      .where(eq(sessions.tokenHash, hashToken(idle.token)));
    expect((await call('GET', '/auth/session', { cookie: idle.token })).body).toEqual({ user: null, session: null });

    const old = await signUpAndIn();
    await ctx.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, hashToken(old.token)));
    const res = await call('GET', '/auth/session', { cookie: old.token });
    expect(res.body).toEqual({ user: null, session: null });
    expect(res.headers.get('set-cookie')).toMatch(/Max-Age=0/);
  });

  it('renews itself while in use: the idle window slides and the cookie is re-issued', async () => {
    const { token } = await signUpAndIn();
    const staleSeen = new Date(Date.now() - 3 * 24 * 60 * 60_000);
    await ctx.database.db
      .update(sessions)
      .set({ lastSeenAt: staleSeen })
      .where(eq(sessions.tokenHash, hashToken(token)));
    const res = await call<{ session: { idle_expires_at: string } }>('GET', '/auth/session', { cookie: token });
    expect(res.headers.get('set-cookie')).toContain(`rr_session=${token}`);
    const [row] = await ctx.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(token)));
    expect(row!.lastSeenAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(new Date(res.body.session.idle_expires_at).getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 60 * 60_000);
  });
});

describe('CSRF: unsafe requests from a foreign origin', () => {
  it('refuses a foreign Origin with 403 and changes nothing', async () => {
    const { token } = await signUpAndIn();
    const res = await call('POST', '/auth/sign-out', { cookie: token, origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'forbidden_origin',
      message: 'This request came from another site and was refused.',
    });
    expect((await call<{ user: unknown }>('GET', '/auth/session', { cookie: token })).body.user).not.toBeNull();
  });

  it('refuses a cross-site request without Origin, and accepts a non-browser client', async () => {
    const crossSite = await call('POST', '/auth/sign-up', {
      origin: null,
      headers: { 'sec-fetch-site': 'cross-site' },
      body: signUpBody('xsite@example.com'),
    });
    expect(crossSite.status).toBe(403);
    const cli = await call('POST', '/auth/sign-up', { origin: null, body: signUpBody('cli@example.com') });
    expect(cli.status).toBe(201);
  });
});

describe('malformed input never gives a 500', () => {
  it.each([
    ['broken JSON', { raw: '{"email": ' }, 400, 'malformed_json'],
    ['an array', { raw: '[]' }, 400, 'validation_error'],
    ['null', { raw: 'null' }, 400, 'validation_error'],
    ['a number for email', { body: { email: 5, password: 'x' } }, 400, 'validation_error'],
    ['no body', {}, 400, 'validation_error'],
    ['a text body', { raw: 'email=a', headers: { 'content-type': 'text/plain' } }, 415, 'unsupported_media_type'],
    ['a huge body', { raw: JSON.stringify({ email: 'a'.repeat(70_000), password: 'x' }) }, 413, 'payload_too_large'],
  ])('sign-in with %s', async (_label, opts, status, code) => {
    const res = await call<{ code: string; message: string }>('POST', '/auth/sign-in', opts);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(res.body.message.length).toBeGreaterThan(0);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await call('GET', '/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'not_found', message: 'There is nothing at this address.' });
  });

  it('serves the generated OpenAPI document', async () => {
    const res = await call<{ paths: Record<string, unknown> }>('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/auth/sign-up',
        '/auth/sign-in',
        '/auth/sign-out',
        '/auth/session',
        '/rides/mine',
        '/rides/browse',
        '/rides',
        '/rides/{id}',
        '/requests/mine',
        '/requests/browse',
        '/requests',
        '/requests/{id}',
        '/bookings',
        '/bookings/mine',
        '/dashboard',
        '/contact',
      ]),
    );
  });
});

describe('rate limits', () => {
  it('locks an account at one address after 5 failed sign-ins in 15 minutes, even for the right password, with Retry-After', async () => {
    await call('POST', '/auth/sign-up', { body: signUpBody('locked@example.com'), ip: '10.1.0.1' });
    for (let i = 0; i < 5; i++) {
      const res = await call('POST', '/auth/sign-in', {
        body: { email: 'locked@example.com', password: `Wrong-password-${i}` },
        ip: '10.1.1.1',
      });
      expect(res.status).toBe(401);
    }
    const res = await call('POST', '/auth/sign-in', {
      body: { email: 'LOCKED@example.com', password: STRONG_PASSWORD },
      ip: '10.1.1.1',
    });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({
      code: 'too_many_requests',
      message: 'Too many attempts. Please wait 15 minutes and try again.',
    });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
    // The owner, from their own address, is not locked out by what a stranger did from another.
    expect(
      (
        await call('POST', '/auth/sign-in', {
          body: { email: 'locked@example.com', password: STRONG_PASSWORD },
          ip: '10.1.2.1',
        })
      ).status,
    ).toBe(200);
    // An unknown email is limited the same way, so lockouts reveal nothing either.
    for (let i = 0; i < 5; i++)
      await call('POST', '/auth/sign-in', { body: { email: 'ghost@example.com', password: 'x' }, ip: '10.1.3.1' });
    expect(
      (await call('POST', '/auth/sign-in', { body: { email: 'ghost@example.com', password: 'x' }, ip: '10.1.3.1' }))
        .status,
    ).toBe(429);
  });

  it('allows 30 auth attempts per IP per 5 minutes; a forged X-Forwarded-For does not reset it', async () => {
    const ip = '10.2.0.1';
    for (let i = 0; i < 30; i++) {
      const res = await call('POST', '/auth/sign-in', { body: { email: `n${i}@example.com`, password: 'x' }, ip });
      expect(res.status).toBe(401);
    }
    const blocked = await call('POST', '/auth/sign-up', {
      body: signUpBody('blocked@example.com'),
      ip,
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(300);
    expect(await countUsers('blocked@example.com')).toBe(0);
    // Another address is unaffected.
    expect(
      (await call('POST', '/auth/sign-up', { body: signUpBody('other-ip@example.com'), ip: '10.2.0.2' })).status,
    ).toBe(201);
  });

  it('a successful sign-in resets the failure count', async () => {
    const { email } = await signUpAndIn('Reset', '10.3.0.1');
    for (let i = 0; i < 4; i++)
      await call('POST', '/auth/sign-in', { body: { email, password: 'nope' }, ip: '10.3.0.1' });
    await signIn(email, STRONG_PASSWORD, '10.3.0.1');
    for (let i = 0; i < 4; i++)
      expect((await call('POST', '/auth/sign-in', { body: { email, password: 'nope' }, ip: '10.3.0.1' })).status).toBe(
        401,
      );
  });
});

describe('text the database cannot store', () => {
  it('refuses a NUL character in the email or name with a 400 and stores nothing (a password only ever becomes a hash)', async () => {
    const bad = [signUpBody('nul\u0000@example.com'), signUpBody('nulname@example.com', { full_name: 'Ann\u0000' })];
    for (const body of bad) {
      const res = await call<{ code: string }>('POST', '/auth/sign-up', { body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_error');
    }
    expect(await countUsers('nulname@example.com')).toBe(0);
    const signIn = await call('POST', '/auth/sign-in', { body: { email: 'a\u0000@example.com', password: 'x' } });
    expect(signIn.status).toBe(400);
    expect(signIn.body).toEqual({ code: 'validation_error', message: 'Invalid email or password' });
  });
});
