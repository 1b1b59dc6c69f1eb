import { gunzipSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../test/harness';
import { rideBody } from '../test/marketplace';

/** http/compress.ts: what browsers get (every one sends Accept-Encoding), through the whole app. */
describe('response compression', () => {
  const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });

  const get = (path: string, token: string, acceptEncoding?: string) =>
    ctx.app.request(
      `http://localhost:3000/api${path}`,
      { headers: { cookie: `rr_session=${token}`, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) } },
      { incoming: { socket: { remoteAddress: '127.0.0.1' } } },
    );

  it('gzips a JSON page for a browser, deflates when gzip is refused, and sends it plain otherwise', async () => {
    const me = await signUpAndIn();
    for (let i = 0; i < 8; i++)
      await call('POST', '/rides', { cookie: me.token, body: rideBody({ notes: `Ride ${i}` }) });
    const plain = await get('/rides/browse', me.token);
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(1024);
    const page = JSON.parse(text) as { items: unknown[] };
    expect(page.items).toHaveLength(8);

    const gzipped = await get('/rides/browse', me.token, 'gzip, deflate, br');
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(gzipped.headers.get('content-type')).toMatch(/^application\/json/);
    const packed = Buffer.from(await gzipped.arrayBuffer());
    expect(packed.length).toBeLessThan(text.length);
    expect(JSON.parse(gunzipSync(packed).toString('utf8'))).toEqual(page);

    const deflated = await get('/rides/browse', me.token, 'gzip;q=0, deflate');
    expect(deflated.headers.get('content-encoding')).toBe('deflate');
    expect(JSON.parse(inflateSync(Buffer.from(await deflated.arrayBuffer())).toString('utf8'))).toEqual(page);

    const refused = await get('/rides/browse', me.token, 'identity');
    expect(refused.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(await refused.text())).toEqual(page);
  });

  it('leaves a body under 1 KiB as it is', async () => {
    const me = await signUpAndIn();
    const res = await get('/auth/session', me.token, 'gzip');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(await res.text())).toMatchObject({ user: { id: me.user.id } });
  });
});
