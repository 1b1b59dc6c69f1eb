import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { countRows } from '../test/marketplace';

/**
 * The body limit over a real socket: app.request() has no TCP connection, so it cannot show what a client sees
 * when the server closes a connection with body bytes still arriving.
 */

const { ctx } = setupTestApp({ CONTACT_PER_IP_MAX: '1000' });
let server: ServerType;
let port = 0;
/** One keep-alive socket at a time: a server that announced keep-alive and then closed breaks the next call. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  server = serve({ fetch: ctx.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  agent.destroy();
  await new Promise((resolve) => server.close(resolve));
});

interface Answer {
  status?: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Every error on the request, the response or the socket, e.g. EPIPE, ECONNRESET, "socket hang up". */
  errors: string[];
}

/** A contact message whose text makes the JSON exactly `bytes` long. */
function contactJson(bytes: number): Buffer {
  const head = '{"name":"Ann","email":"ann@example.com","subject":"Hello","message":"';
  const tail = '"}';
  return Buffer.from(head + 'x'.repeat(Math.max(1, bytes - head.length - tail.length)) + tail);
}

/** Sends `body` with Content-Length, or in chunks (Transfer-Encoding: chunked), honouring back-pressure. */
function post(body: Buffer, framing: 'content-length' | 'chunked'): Promise<Answer> {
  return new Promise((resolve) => {
    const answer: Answer = { headers: {}, body: '', errors: [] };
    // No Origin: a non-browser client, which the CSRF check lets through (the Host here is 127.0.0.1:port).
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (framing === 'content-length') headers['content-length'] = String(body.length);
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/contact', headers, agent });
    const settle = () => setTimeout(() => resolve(answer), 50); // late socket errors show up in `errors` too
    req.on('socket', (socket) => socket.on('error', (err) => answer.errors.push(`socket: ${err.message}`)));
    req.on('error', (err) => {
      answer.errors.push(`request: ${err.message}`);
      settle();
    });
    req.setTimeout(20_000, () => req.destroy(new Error('timed out')));
    req.on('response', (res) => {
      answer.status = res.statusCode;
      answer.headers = res.headers;
      res.setEncoding('utf8');
      res.on('data', (text: string) => (answer.body += text));
      res.on('error', (err) => answer.errors.push(`response: ${err.message}`));
      res.on('end', settle);
    });
    const chunk = 16 * 1024;
    let sent = 0;
    const pump = () => {
      while (sent < body.length && !req.destroyed) {
        const ok = req.write(body.subarray(sent, sent + chunk));
        sent += chunk;
        if (!ok) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

function health(): Promise<number | string> {
  return new Promise((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path: '/api/health', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', (err) => resolve(err.message));
  });
}

describe('a request body over 64 KiB, over a real socket', () => {
  // 4 MiB is more than loopback socket buffers hold: the client is still sending when the answer is ready.
  it.each([
    ['1 MiB', 1024 * 1024, 'content-length'],
    ['1 MiB', 1024 * 1024, 'chunked'],
    ['4 MiB', 4 * 1024 * 1024, 'content-length'],
    ['4 MiB', 4 * 1024 * 1024, 'chunked'],
  ] as const)(
    'answers %s (%s) with a readable 413, Connection: close, no socket error, and stores nothing',
    async (_, bytes, framing) => {
      const before = await countRows(ctx.database.db, contactMessages);
      const res = await post(contactJson(bytes), framing);
      expect(res.errors).toEqual([]);
      expect(res.status).toBe(413);
      expect(res.headers.connection).toBe('close');
      expect(JSON.parse(res.body)).toEqual({ code: 'payload_too_large', message: expect.any(String) });
      // The next call (on a new connection, since this one was closed as announced) is served.
      expect(await health()).toBe(200);
      expect(await countRows(ctx.database.db, contactMessages)).toBe(before);
    },
  );

  it.each(['content-length', 'chunked'] as const)(
    'still delivers a body within the limit (%s) to the route, and keeps the connection alive',
    async (framing) => {
      const before = await countRows(ctx.database.db, contactMessages);
      const res = await post(contactJson(2000), framing);
      expect(res.errors).toEqual([]);
      expect(res.status).toBe(201);
      expect(res.headers.connection).toBe('keep-alive');
      expect(await countRows(ctx.database.db, contactMessages)).toBe(before + 1);
    },
  );
});
