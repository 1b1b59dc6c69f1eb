import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../test/harness';

// Behind one trusted proxy, the address that proxy appended is the client; earlier entries can be forged.
const { call } = setupTestApp({ TRUST_PROXY_HOPS: '1', AUTH_PER_IP_MAX: '2' });

describe('rate limits behind a trusted proxy', () => {
  it('limits by the proxy-appended address and ignores forged entries before it', async () => {
    const attempt = (xff: string) =>
      call('POST', '/auth/sign-in', {
        body: { email: 'a@example.com', password: 'x' },
        ip: '127.0.0.1',
        headers: { 'x-forwarded-for': xff },
      });
    expect((await attempt('1.1.1.1, 198.51.100.5')).status).toBe(401);
    expect((await attempt('2.2.2.2, 198.51.100.5')).status).toBe(401);
    expect((await attempt('3.3.3.3, 198.51.100.5')).status).toBe(429);
    expect((await attempt('198.51.100.6')).status).toBe(401);
  });
});
