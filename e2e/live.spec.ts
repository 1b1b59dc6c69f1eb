import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import pg from 'pg';
import { expectNoAxeViolations, PASSWORD, uniqueEmail } from './fixtures';
import { card, createRequest, goTo, newUser, tag } from './marketplace-helpers';

/**
 * Issue 10 in real browsers: a driver and a requester, each in their own browser context, write to each other and
 * see the other's messages arrive live (the app's one event stream, GET /api/events), without reloading. Then the
 * stream survives a server restart, and (on real PostgreSQL) a message sent through one instance reaches a browser
 * connected to another.
 */

const messagesLink = (page: Page) =>
  page.getByRole('complementary', { name: 'Dashboard navigation' }).getByRole('link', { name: /^Messages/ });
const conversation = (page: Page) => page.getByRole('list', { name: 'Messages' });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await expect(composer(page)).toHaveValue('');
}

async function openBookingAsDriver(page: Page, title: string) {
  await goTo(page, 'My Bookings', 'My Bookings');
  await card(page, title)
    .getByRole('link', { name: `View booking for ${title}` })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

test('driver and requester write to each other live; the unread badge rises and clears', async ({ browser }) => {
  const title = `Pharmacy pickup ${tag()}`;
  const requester = await newUser(browser, 'Rita Requester');
  const driver = await newUser(browser, 'Dan Driver');
  const r = requester.page;
  const d = driver.page;

  await goTo(r, 'My Requests', 'My Requests');
  await createRequest(r, {
    title,
    description: 'A prescription bag',
    pickup: 'Pharmacy, High St',
    delivery: 'Hill Farm',
  });
  await goTo(d, 'Browse Requests', 'Browse Delivery Requests');
  await card(d, title)
    .getByRole('button', { name: `Accept request ${title}` })
    .click();
  await expect(card(d, title).getByRole('button', { name: `Offer sent for request ${title}` })).toBeDisabled();

  // The requester waits on the dashboard; nothing unread yet.
  await goTo(r, 'Dashboard', 'Welcome back!');
  await expect(messagesLink(r)).toHaveAccessibleName('Messages');

  // The driver asks before being chosen: the conversation is open from the offer.
  await openBookingAsDriver(d, title);
  await expect(d.getByRole('heading', { name: 'Messages' })).toBeVisible();
  await send(d, 'Hello! Is the bag ready\nfrom 10 o’clock?');
  await expect(conversation(d).getByRole('listitem').last()).toContainText('Is the bag ready');

  // Live: the requester's badge rises without a reload.
  await expect(messagesLink(r)).toHaveAccessibleName('Messages, 1 unread');
  await messagesLink(r).click();
  await expect(r.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  const row = r.getByRole('link', { name: new RegExp(title) });
  await expect(row).toContainText('Dan Driver');
  await expect(row).toContainText('Hello! Is the bag ready');
  await expect(row).not.toContainText('from 10'); // the first line only
  await expectNoAxeViolations(r);
  await row.click();
  await expect(conversation(r)).toContainText('Is the bag ready');
  // Opening it marks it read: the badge clears, and the driver sees 'Seen' live.
  await expect(messagesLink(r)).toHaveAccessibleName('Messages');
  await expect(conversation(d).getByText('Seen')).toBeVisible();

  // The reply appears on the driver's open page without a reload, well within the expect timeout.
  const sentAt = Date.now();
  await send(r, 'Yes, any time after ten. <b>Thanks</b>');
  await expect(conversation(d)).toContainText('Yes, any time after ten. <b>Thanks</b>');
  console.log(`[live.spec] reply visible to the other browser after ${Date.now() - sentAt} ms`);
  // Plain text: the markup is shown, never interpreted.
  expect(await conversation(d).locator('b').count()).toBe(0);
  await expectNoAxeViolations(d);

  await requester.context.close();
  await driver.context.close();
});

// ─── Own servers: a restart, and two instances ─────────────────────────────────────────────────────────────────

function freePort(): Promise<number> {
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
async function startServer(port: number, env: Record<string, string>): Promise<ChildProcess> {
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

function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

/** A person signed in on `base` in their own context; their request (if any) and the API through their cookies. */
async function personOn(browser: Browser, base: string, name: string) {
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
  await page.goto('/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const api = async <T>(method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> => {
    const res = await page.request.fetch(path, { method, data, headers });
    expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  };
  return { context, page, api };
}

/** A request by `requester` with an offer by `driver`: the booking's id. */
async function bookingBetween(
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

const message = (text: string) => ({ body: text, client_id: crypto.randomUUID() });

test('the stream comes back after the server restarts, and a message sent meanwhile still arrives', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'rr-e2e-restart-'));
  const port = await freePort();
  const base = `http://localhost:${port}`;
  let server = await startServer(port, { DATA_DIR: dataDir });
  try {
    const requester = await personOn(browser, base, 'Rose Requester');
    const driver = await personOn(browser, base, 'Dev Driver');
    const bookingId = await bookingBetween(requester, driver, `Feed run ${tag()}`);
    const r = requester.page;
    await r.goto(`/dashboard/bookings/${bookingId}`);
    await expect(r.getByRole('heading', { name: 'Messages' })).toBeVisible();
    await driver.api('POST', `/api/bookings/${bookingId}/messages`, message('Before the restart'));
    await expect(conversation(r)).toContainText('Before the restart');

    await stopServer(server);
    server = await startServer(port, { DATA_DIR: dataDir });
    // Sent as soon as the server is back, before or while the browser reconnects: it must still arrive.
    await driver.api('POST', `/api/bookings/${bookingId}/messages`, message('Right after the restart'));
    await expect(conversation(r)).toContainText('Right after the restart', { timeout: 15_000 });
    // And the stream is live again.
    await driver.api('POST', `/api/bookings/${bookingId}/messages`, message('Still there?'));
    await expect(conversation(r)).toContainText('Still there?');
    // Each once.
    await expect(conversation(r).getByText('Right after the restart')).toHaveCount(1);
    await requester.context.close();
    await driver.context.close();
  } finally {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a message sent through one instance reaches a browser connected to another (real PostgreSQL)', async ({
  browser,
}) => {
  test.skip(!process.env.DATABASE_URL, 'needs DATABASE_URL (bash scripts/with-postgres.sh npx playwright test)');
  test.setTimeout(120_000);
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  const name = `rr_e2e_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  const [portA, portB] = [await freePort(), await freePort()];
  const servers: ChildProcess[] = [];
  try {
    servers.push(await startServer(portA, { DATABASE_URL: url.toString() }));
    servers.push(await startServer(portB, { DATABASE_URL: url.toString() }));
    const driver = await personOn(browser, `http://localhost:${portA}`, 'Ann on A');
    const requester = await personOn(browser, `http://localhost:${portB}`, 'Bob on B');
    const bookingId = await bookingBetween(requester, driver, `Parcel ${tag()}`);
    const r = requester.page;
    await r.goto(`/dashboard/bookings/${bookingId}`);
    await expect(r.getByRole('heading', { name: 'Messages' })).toBeVisible();
    // Sent through instance A (the driver's page talks to A); the requester's stream is held by instance B.
    const d = driver.page;
    await d.goto(`/dashboard/bookings/${bookingId}`);
    await send(d, 'Sent through instance A');
    await expect(conversation(r)).toContainText('Sent through instance A');
    // And back: B to A.
    await send(r, 'Answered through instance B');
    await expect(conversation(d)).toContainText('Answered through instance B');
    await requester.context.close();
    await driver.context.close();
  } finally {
    for (const s of servers) await stopServer(s);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
});
