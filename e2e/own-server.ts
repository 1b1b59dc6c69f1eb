import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { expect, type Browser } from '@playwright/test';
import { PASSWORD, uniqueEmail } from './fixtures';
import { openPage } from './public-helpers';

/**
 * Specs that need a server of their own (restarted, two instances, or an embedded database the command line may
 * open while it is stopped) start the build (`dist/server/main.js`, what `npm start` runs) here, apart from the
 * shared e2e server.
 */

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** `npm start`'s entry (the build the shared e2e server runs), on its own port and database. */
export async function startServer(port: number, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c) => (output += c));
  child.stderr?.on('data', (c) => (output += c));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start:\n${output}`);
}

export function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

/** A person signed in on `base` in their own context; their request (if any) and the API through their cookies. */
export async function personOn(browser: Browser, base: string, name: string) {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  const email = uniqueEmail();
  const headers = { origin: base };
  expect(
    (
      await page.request.post('/api/auth/sign-up', {
        data: { email, password: PASSWORD, full_name: name, age_confirmed: true },
        headers,
      })
    ).status(),
  ).toBe(201);
  await openPage(page, '/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const api = async <T>(method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> => {
    const res = await page.request.fetch(path, { method, data, headers });
    expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  };
  return { context, page, api, email };
}

/** A request by `requester` with an offer by `driver`: the booking's id. */
export async function bookingBetween(
  requester: Awaited<ReturnType<typeof personOn>>,
  driver: Awaited<ReturnType<typeof personOn>>,
  title: string,
) {
  const request = await requester.api<{ id: string }>('POST', '/api/requests', {
    title,
    description: 'Two sacks of feed',
    pickup_location: 'Co-op, Mill Rd',
    delivery_location: 'Upper Farm',
  });
  const booking = await driver.api<{ id: string }>('POST', '/api/bookings', { request_id: request.id });
  return booking.id;
}
