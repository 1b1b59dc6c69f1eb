import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations, signUpAndSignIn } from './fixtures';
import { goTo, postRideThroughApi, serviceWorkerReady, tag } from './marketplace-helpers';

/** The app kept on the device (docs/weak-signal.md, 'Installable and offline'). */

const OFFLINE = /^You're offline\. Showing what you last saw at .+\.$/;

/** The device's copy of the query cache (IndexedDB), as text; '' when there is none. */
function keptOnDevice(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('ruralroute');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('offline')) return resolve('');
          const get = db.transaction('offline').objectStore('offline').get('query-cache');
          get.onsuccess = () => resolve(get.result ? JSON.stringify(get.result) : '');
          get.onerror = () => reject(get.error);
        };
      }),
  );
}

test('installable: every page links the manifest, which opens the dashboard', async ({ page }) => {
  for (const path of ['/', '/privacy', '/auth']) {
    await page.goto(path);
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
    await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute('href', /\.png$/);
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#166534');
  }
  const manifest = await page.request.get('/manifest.webmanifest');
  expect(manifest.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const body = (await manifest.json()) as { start_url: string; display: string; icons: { sizes: string }[] };
  expect(body).toMatchObject({ name: 'RuralRoute', start_url: '/dashboard', display: 'standalone', scope: '/' });
  expect(body.icons.map((i) => i.sizes)).toEqual(['192x192', '512x512', '512x512']);
  const worker = await page.request.get('/sw.js');
  expect(worker.headers()['cache-control']).toBe('no-cache');
  // Lighthouse 12 dropped its PWA category; Chromium's own installability check (what offers 'Install app') stays.
  await page.goto('/dashboard');
  await serviceWorkerReady(page);
  const cdp = await page.context().newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  // A Playwright context is incognito, where Chromium never offers installing; nothing else may be missing.
  expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
});

test('opened with no signal, My Rides shows what was last loaded; back online it refreshes; signed out, nothing is kept', async ({
  page,
  context,
}) => {
  const t = tag();
  await signUpAndSignIn(page, `Offline Olive ${t}`);
  await serviceWorkerReady(page);
  await postRideThroughApi(page, `Pine ${t}`);
  await goTo(page, 'My Rides', 'My Rides');
  await expect(page.getByText(`Pine ${t}`)).toBeVisible();
  await expect.poll(() => keptOnDevice(page)).toContain(`Pine ${t}`);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'My Rides' })).toBeVisible();
  await expect(page.getByText(`Pine ${t}`)).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(OFFLINE);
  await expectNoAxeViolations(page);

  // Meanwhile, posted elsewhere (the API is not the page's connection).
  await postRideThroughApi(page, `Cedar ${t}`);
  await context.setOffline(false);
  await expect(page.getByText(`Cedar ${t}`)).toBeVisible();
  await expect(page.getByRole('status')).toHaveCount(0);

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect.poll(() => keptOnDevice(page)).toBe('');
  await context.setOffline(true);
  await page.goto('/dashboard/rides');
  await expect(page.getByText("You're offline.", { exact: true })).toBeVisible();
  await expect(page.getByText(`Pine ${t}`)).toHaveCount(0);
  await expect(page.getByText(`Cedar ${t}`)).toHaveCount(0);
  await expect(page.getByText(`Offline Olive ${t}`)).toHaveCount(0);
  await page.reload();
  await expect(page.getByText("You're offline.", { exact: true })).toBeVisible();
  await expect(page.getByText(`Pine ${t}`)).toHaveCount(0);
  // The public pages open from the device too.
  await page.goto('/privacy');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test("the dashboard opened with no signal starts from what the page's own early script read from the device", async ({
  page,
  context,
}) => {
  const t = tag();
  const { email } = await signUpAndSignIn(page, `Early Edna ${t}`);
  await serviceWorkerReady(page);
  await expect.poll(() => keptOnDevice(page)).toContain(email);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back!' })).toBeVisible();
  // The session kept on the device: the banner asking this person to confirm their address.
  await expect(page.getByText(`We sent a link to ${email}.`)).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(OFFLINE);
  // The dashboard's frame read the snapshot while the app loaded (src/client/early-requests.ts), and the app took
  // that read instead of opening IndexedDB again (offline/snapshot-place.ts): nothing of it is left unclaimed.
  // That script is written into the page itself (vite.config.ts, appShellPage).
  await expect(page.locator('head script[type="module"][async]:not([src])')).toHaveCount(1);
  expect(await page.locator('head script[type="module"][async]').textContent()).toContain('__rrEarlySnapshot');
  expect(await page.evaluate(() => 'ready' in document.documentElement.dataset)).toBe(true);
  expect(await page.evaluate(() => (globalThis as { __rrEarlySnapshot?: unknown }).__rrEarlySnapshot)).toBeUndefined();
  expect(await page.evaluate(() => performance.getEntriesByName('rr:cache-restored').length)).toBe(1);
});

test('a list left the moment it loaded is kept: opened with no signal right after, it shows what was on screen', async ({
  page,
  context,
}) => {
  const t = tag();
  await signUpAndSignIn(page, `Quick Quentin ${t}`);
  await serviceWorkerReady(page);
  await postRideThroughApi(page, `Birch ${t}`);
  const posted = await page.request.post('/api/requests', {
    data: {
      title: `Seed potatoes ${t}`,
      description: 'Two sacks',
      pickup_location: 'Co-op',
      delivery_location: 'Farm',
    },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(posted.status()).toBe(201);

  // Each list is seen, then left at once, and the app is reopened with no signal straight after.
  await goTo(page, 'My Rides', 'My Rides');
  await expect(page.getByText(`Birch ${t}`)).toBeVisible();
  await goTo(page, 'My Requests', 'My Requests');
  await expect(page.getByText(`Seed potatoes ${t}`)).toBeVisible();
  await goTo(page, 'Dashboard', 'Welcome back!');
  await context.setOffline(true);
  await page.reload();

  await goTo(page, 'My Rides', 'My Rides');
  await expect(page.getByText(`Birch ${t}`)).toBeVisible();
  await goTo(page, 'My Requests', 'My Requests');
  await expect(page.getByText(`Seed potatoes ${t}`)).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(OFFLINE);
});
