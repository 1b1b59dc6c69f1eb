import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, type Browser } from '@playwright/test';
import { PASSWORD, uniqueEmail } from './fixtures';
import { tag } from './marketplace-helpers';
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
  // A first start loads the places (the gazetteer) into a new database: on a busy two-core CI machine, with other
  // specs' servers starting at the same time, that has taken over a minute. Healthy is the signal; this is a bound.
  const deadline = Date.now() + 180_000;
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

/**
 * A server of the spec's own on a free port and a fresh embedded database (`name` tags its folder). `grantAdmin`
 * makes someone an admin on the command line, which needs the embedded database while no server holds it: the server
 * is stopped, the role granted, and the server started again (sessions survive). `close` stops it and removes the
 * database.
 */
export async function ownServer(name: string) {
  const dataDir = mkdtempSync(join(tmpdir(), `rr-e2e-${name}-`));
  const port = await freePort();
  let server = await startServer(port, { DATA_DIR: dataDir });
  return {
    base: `http://localhost:${port}`,
    /** The server's DATA_DIR: its mails (`mail/*.eml`) and SMS (`sms/*.txt`) are files there. */
    dataDir,
    async grantAdmin(email: string) {
      await stopServer(server);
      const grant = await promisify(execFile)(process.execPath, ['dist/server/admin-grant.js', email], {
        env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'production' },
      });
      expect(grant.stdout + grant.stderr).toContain(email);
      server = await startServer(port, { DATA_DIR: dataDir });
    },
    async close() {
      await stopServer(server);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
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

type Person = Awaited<ReturnType<typeof personOn>>;

/** A request by `requester` (with `extra` fields, e.g. its compensation) and an offer by `driver`: both ids. */
export async function offerBetween(
  requester: Person,
  driver: Person,
  title: string,
  extra: Record<string, string> = {},
) {
  const request = await requester.api<{ id: string }>('POST', '/api/requests', {
    title,
    description: 'Two sacks of feed',
    pickup_location: 'Co-op, Mill Rd',
    delivery_location: 'Upper Farm',
    ...extra,
  });
  const booking = await driver.api<{ id: string }>('POST', '/api/bookings', { request_id: request.id });
  return { requestId: request.id, bookingId: booking.id };
}

/** A request by `requester` with an offer by `driver`: the booking's id. */
export async function bookingBetween(requester: Person, driver: Person, title: string) {
  return (await offerBetween(requester, driver, title)).bookingId;
}

/**
 * Runs `run` on ownServer with an admin (`adminName`, granted first) and a requester and a driver in their own
 * browsers, their names tagged (`t`) to tell this test's rows apart; then closes their browsers and the server.
 */
export async function withOwnServerAndPeople(
  browser: Browser,
  name: string,
  run: (people: {
    t: string;
    names: { requester: string; driver: string };
    admin: Person;
    requester: Person;
    driver: Person;
  }) => Promise<void>,
  adminName = 'Ada Admin',
) {
  const own = await ownServer(name);
  try {
    const admin = await personOn(browser, own.base, adminName);
    await own.grantAdmin(admin.email);
    const t = tag();
    const names = { requester: `Ana Diaz ${t}`, driver: `Ben Okafor ${t}` };
    const requester = await personOn(browser, own.base, names.requester);
    const driver = await personOn(browser, own.base, names.driver);
    await run({ t, names, admin, requester, driver });
    for (const p of [requester, driver, admin]) await p.context.close();
  } finally {
    await own.close();
  }
}
