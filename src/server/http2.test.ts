import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect, constants } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD } from './test/harness';
import { listening, spawnServer, type ServerProcess } from './test/server-process';

/**
 * HTTPS with HTTP/2 from the server itself (TLS_CERT, TLS_KEY; decision 027). The certificate is a self-signed one
 * for localhost and 127.0.0.1 made for these tests only (src/server/test/fixtures); the clients trust it as their CA.
 */
const CERT = 'src/server/test/fixtures/localhost-cert.pem';
const KEY = 'src/server/test/fixtures/localhost-key.pem';
const ca = readFileSync(CERT);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  protocol: string | undefined;
}

/** One request over HTTP/2 (ALPN h2), trusting the test certificate. */
function h2(base: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const session = connect(base, { ca });
    session.on('error', reject);
    const headers: Record<string, string> = {
      [constants.HTTP2_HEADER_METHOD]: init.method ?? 'GET',
      [constants.HTTP2_HEADER_PATH]: path,
      origin: base,
    };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const stream = session.request(headers);
    let status = 0;
    let answerHeaders: Answer['headers'] = {};
    stream.on('response', (h) => {
      status = Number(h[constants.HTTP2_HEADER_STATUS]);
      answerHeaders = h;
    });
    let body = '';
    stream.setEncoding('utf8');
    stream.on('data', (d: string) => (body += d));
    stream.on('end', () => {
      const protocol = session.alpnProtocol;
      session.close();
      resolve({ status, headers: answerHeaders, body, protocol });
    });
    stream.on('error', reject);
    stream.end(init.body === undefined ? undefined : JSON.stringify(init.body));
  });
}

/** One request over HTTP/1.1 with TLS, as an older client or a health check would send it. */
function https1(base: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${base}${path}`, { ca }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, protocol: 'http/1.1' }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTPS with HTTP/2 (TLS_CERT and TLS_KEY)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rr-h2-'));
  const base = { DATA_DIR: dataDir, DATABASE_URL: '', ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' };
  const started: ServerProcess[] = [];
  const start = (env: Record<string, string>) => {
    const server = spawnServer({ ...base, ...env });
    started.push(server);
    return server;
  };
  afterAll(() => {
    for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers over HTTP/2 and HTTP/1.1 on one port, and its session cookie is Secure', async () => {
    const server = start({ TLS_CERT: CERT, TLS_KEY: KEY });
    const url = (await listening(server)).replace('127.0.0.1', 'localhost');
    expect(url).toMatch(/^https:\/\/localhost:\d+$/);
    expect(server.output()).toContain('(HTTP/2)');

    const health = await h2(url, '/api/health');
    expect(health.protocol).toBe('h2');
    expect(health.status).toBe(200);
    expect((await https1(url, '/api/health')).status).toBe(200);

    const account = { email: 'h2.person@example.com', password: STRONG_PASSWORD };
    const up = await h2(url, '/api/auth/sign-up', {
      method: 'POST',
      body: { ...account, full_name: 'Hattie Two', age_confirmed: true },
    });
    expect(up.status).toBe(201);
    const signIn = await h2(url, '/api/auth/sign-in', { method: 'POST', body: account });
    expect(signIn.status).toBe(200);
    const cookie = [signIn.headers['set-cookie']].flat().join('\n');
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/HttpOnly/i);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // A cold process creating and migrating a PGlite database and loading the gazetteer: 18.5 s in CI, past the
    // default 30 s once while the real-PostgreSQL suite ran beside it (a limit, as main.test.ts's, not a wait on time).
  }, 60_000);

  it('refuses to start with only one of the two, a file it cannot read, or a key that is not one, and says why', async () => {
    const half = start({ TLS_CERT: CERT });
    expect(await half.exited).toBe(1);
    expect(half.output()).toContain('TLS_CERT and TLS_KEY go together');

    const missing = start({ TLS_CERT: CERT, TLS_KEY: join(dataDir, 'no-such-key.pem') });
    expect(await missing.exited).toBe(1);
    expect(missing.output()).toContain('could not read TLS_CERT or TLS_KEY');
    expect(missing.output()).toContain('no-such-key.pem');

    const swapped = start({ TLS_CERT: CERT, TLS_KEY: CERT });
    expect(await swapped.exited).toBe(1);
    expect(swapped.output()).toContain('TLS_CERT and TLS_KEY are not a certificate and its key');
  });
});
