import { gunzipSync, inflateSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { setupTestApp } from '../test/harness';
import { PageJson } from '../core/page-json';
import { storedGzip } from './listing-routes';
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

  it("a cached page's gzip is made once and sent to every browser that asks for gzip, and only to them", async () => {
    const owner = await signUpAndIn();
    for (let i = 0; i < 8; i++)
      await call('POST', '/rides', { cookie: owner.token, body: rideBody({ notes: `Cached ride ${i}` }) });
    const [ana, ben] = [await signUpAndIn(), await signUpAndIn()];
    // Ana's read fills the cache; Ben's is a hit with nothing of his on it: the stored page, gzipped once.
    const plain = await (await get('/rides/browse', ana.token)).text();
    const gzip = vi.spyOn(storedGzip, 'of');
    const answers = await Promise.all([ana, ben].map((u) => get('/rides/browse', u.token, 'gzip, deflate, br')));
    // Both answers are the stored page's one gzip (compressResponses would have made a new one for each).
    expect(gzip).toHaveBeenCalledTimes(2);
    expect(gzip.mock.results[0]?.value).toBe(gzip.mock.results[1]?.value);
    gzip.mockRestore();
    const bodies: Buffer[] = [];
    for (const res of answers) {
      expect(res.headers.get('content-encoding')).toBe('gzip');
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      bodies.push(Buffer.from(await res.arrayBuffer()));
    }
    for (const body of bodies) expect(gunzipSync(body).toString('utf8')).toBe(plain);
    // The owner's own lists are cached whole: the same gzip path, for the same text as a plain read.
    const mine = await (await get('/rides/mine', owner.token)).text();
    const packed = await get('/rides/mine', owner.token, 'gzip');
    expect(packed.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await packed.arrayBuffer())).toString('utf8')).toBe(mine);
    // Deflate is still negotiated (by compressResponses), and identity gets the text.
    const deflated = await get('/rides/mine', owner.token, 'gzip;q=0, deflate');
    expect(deflated.headers.get('content-encoding')).toBe('deflate');
    expect(inflateSync(Buffer.from(await deflated.arrayBuffer())).toString('utf8')).toBe(mine);
    const identity = await get('/rides/mine', owner.token, 'identity');
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(await identity.text()).toBe(mine);
  });

  it('gzips a stored page once, however many hits send it', () => {
    const page = new PageJson(JSON.stringify({ items: Array.from({ length: 50 }, (_, i) => ({ i })) }));
    expect(storedGzip.of(page)).toBe(storedGzip.of(page));
    expect(gunzipSync(storedGzip.of(page)).toString('utf8')).toBe(page.json);
  });
});
