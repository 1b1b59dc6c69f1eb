import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../test/harness';

/** Each Set-Cookie attribute, lower-cased name -> value ('' for flags). */
function attributes(setCookie: string | null): { name: string; value: string; attrs: Map<string, string> } {
  const [pair = '', ...rest] = (setCookie ?? '').split(/;\s*/);
  const [name = '', value = ''] = pair.split('=');
  return {
    name,
    value,
    attrs: new Map(rest.map((a) => [a.split('=')[0]!.toLowerCase(), a.split('=')[1] ?? ''])),
  };
}

function expectSecureHeaders(headers: Headers) {
  expect(headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  const csp = (headers.get('content-security-policy') ?? '').split(/;\s*/);
  for (const directive of ["base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'", "object-src 'none'"])
    expect(csp).toContain(directive);
  expect(csp.some((d) => d.startsWith('base-uri') && d !== "base-uri 'none'")).toBe(false);
}

describe('in production (NODE_ENV=production)', () => {
  const { call, signUpAndIn } = setupTestApp({ NODE_ENV: 'production' });
  const withCookie = (name: string, token: string) => ({ headers: { cookie: `${name}=${token}` } });

  it('names the session cookie __Host-rr_session: Secure, Path=/, no Domain, httpOnly, SameSite=Lax', async () => {
    const { email } = await signUpAndIn();
    const res = await call('POST', '/auth/sign-in', { body: { email, password: 'Correct-Horse-9' } });
    const cookie = attributes(res.headers.get('set-cookie'));
    expect(cookie.name).toBe('__Host-rr_session');
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie.attrs.has('secure')).toBe(true);
    expect(cookie.attrs.get('path')).toBe('/');
    expect(cookie.attrs.has('domain')).toBe(false);
    expect(cookie.attrs.has('httponly')).toBe(true);
    expect(cookie.attrs.get('samesite')).toBe('Lax');
  });

  it('reads only the __Host- cookie, and clears it with the attributes the prefix requires', async () => {
    const { token } = await signUpAndIn();
    const signedIn = await call<{ user: unknown }>('GET', '/auth/session', withCookie('__Host-rr_session', token));
    expect(signedIn.body.user).not.toBeNull();
    // A bare rr_session cookie (as planted by plain http or a sibling subdomain) is not a session here.
    const bare = await call<{ user: unknown }>('GET', '/auth/session', withCookie('rr_session', token));
    expect(bare.body.user).toBeNull();

    const out = await call('POST', '/auth/sign-out', withCookie('__Host-rr_session', token));
    expect(out.status).toBe(204);
    const cleared = attributes(out.headers.get('set-cookie'));
    expect(cleared).toMatchObject({ name: '__Host-rr_session', value: '' });
    expect(cleared.attrs.get('max-age')).toBe('0');
    expect(cleared.attrs.has('secure')).toBe(true);
    expect(cleared.attrs.get('path')).toBe('/');
  });

  it('sends HSTS for a year with subdomains and the tightened CSP', async () => {
    expectSecureHeaders((await call('GET', '/health')).headers);
    expectSecureHeaders((await call('GET', '/no-such-route')).headers);
  });
});

describe('in development (plain http on localhost)', () => {
  const { call, signUpAndIn } = setupTestApp({ NODE_ENV: 'development' });

  it('keeps the plain rr_session cookie, without Secure over http', async () => {
    const { email, token } = await signUpAndIn();
    const res = await call('POST', '/auth/sign-in', { body: { email, password: 'Correct-Horse-9' } });
    const cookie = attributes(res.headers.get('set-cookie'));
    expect(cookie.name).toBe('rr_session');
    expect(cookie.attrs.has('secure')).toBe(false);
    expect(cookie.attrs.get('path')).toBe('/');
    expect(cookie.attrs.has('httponly')).toBe(true);
    const prefixed = await call<{ user: unknown }>('GET', '/auth/session', {
      headers: { cookie: `__Host-rr_session=${token}` },
    });
    expect(prefixed.body.user).toBeNull();
    expect((await call<{ user: unknown }>('GET', '/auth/session', { cookie: token })).body.user).not.toBeNull();
  });

  it('sends the same security headers', async () => {
    expectSecureHeaders((await call('GET', '/health')).headers);
  });
});
