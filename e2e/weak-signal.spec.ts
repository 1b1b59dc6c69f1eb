import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { expectNoAxeViolations, expectToast, PASSWORD, signUpAndSignIn, uniqueEmail } from './fixtures';
import { card, dateInDays, goTo, postRide, postRideThroughApi, serviceWorkerReady, tag } from './marketplace-helpers';

/** Writes on a weak signal (docs/weak-signal.md): kept on the device with no signal, sent once when it returns. */

const QUEUED = "No connection. Your change is saved and will be sent when you're back online.";
/** The slow profile: 400 kbit/s each way, 400 ms round trip. */
const SLOW = { offline: false, latency: 400, downloadThroughput: 50_000, uploadThroughput: 50_000 };

/** The signal returns, on the slow profile. */
async function backOnSlowLine(context: BrowserContext, page: Page) {
  await context.setOffline(false);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW);
}

/** My rides as the server has them (through the API, not the page). */
async function myRideOrigins(page: Page): Promise<string[]> {
  const res = await page.request.get('/api/rides/mine?limit=50');
  expect(res.status()).toBe(200);
  return ((await res.json()) as { items: { origin: string }[] }).items.map((r) => r.origin);
}

const waiting = (page: Page) => page.getByRole('region', { name: /^Waiting to send/ });

test('a ride posted with no signal waits on the device through a reload, and is posted once when the signal returns', async ({
  page,
  context,
}) => {
  // The service worker installed, a reload and a reconnect: 17 to 24 s in CI, near the default 30.
  test.setTimeout(60_000);
  const t = tag();
  await signUpAndSignIn(page, `Queued Quinn ${t}`);
  await serviceWorkerReady(page);
  await goTo(page, 'My Rides', 'My Rides');

  await context.setOffline(true);
  await postRide(page, { origin: `Hollow ${t}`, destination: 'Millbrook', date: dateInDays(4) });
  await expectToast(page, 'Error', QUEUED);
  await expect(waiting(page)).toHaveAccessibleName('Waiting to send (1)');
  await expect(waiting(page).getByText(`Post ride Hollow ${t} → Millbrook`)).toBeVisible();
  // The form closed: what was typed is in the list above, not to be typed again.
  await expect(page.getByRole('button', { name: 'Post Ride', exact: true })).toHaveCount(0);
  await expectNoAxeViolations(page);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'My Rides' })).toBeVisible();
  await expect(waiting(page)).toHaveAccessibleName('Waiting to send (1)');
  await expect(waiting(page).getByText(`Post ride Hollow ${t} → Millbrook`)).toBeVisible();

  await backOnSlowLine(context, page);
  await expectToast(page, 'Ride posted successfully');
  await expect(waiting(page)).toHaveCount(0);
  await expect(card(page, `Hollow ${t} → Millbrook`)).toHaveCount(1);
  expect((await myRideOrigins(page)).filter((o) => o === `Hollow ${t}`)).toHaveLength(1);
});

test('a delete made with no signal waits and can be discarded; a delete stuck on the line can be cancelled', async ({
  page,
  context,
}) => {
  const t = tag();
  await signUpAndSignIn(page, `Discarding Dee ${t}`);
  await serviceWorkerReady(page);
  await postRideThroughApi(page, `Glen ${t}`);
  await goTo(page, 'My Rides', 'My Rides');
  const deleteButton = page.getByRole('button', { name: `Delete ride Glen ${t} → Millbrook` });
  // The list has loaded before the signal goes (CI once cut it mid-load: no ride, so no button to press).
  await expect(deleteButton).toBeVisible();

  await context.setOffline(true);
  await deleteButton.click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Error', QUEUED);
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(waiting(page)).toHaveAccessibleName('Waiting to send (1)');
  await waiting(page)
    .getByRole('button', { name: `Discard: Delete ride Glen ${t} → Millbrook` })
    .click();
  await expect(waiting(page)).toHaveCount(0);

  await backOnSlowLine(context, page);
  await page.reload();
  await expect(card(page, `Glen ${t} → Millbrook`)).toBeVisible();
  expect(await myRideOrigins(page)).toContain(`Glen ${t}`);

  // A delete whose answer does not come: 'Deleting...', and Cancel closes the dialog at once.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/rides/*', async (route) => {
    if (route.request().method() !== 'DELETE') return route.continue();
    await held;
    await route.continue();
  });
  await deleteButton.click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog.getByRole('button', { name: 'Deleting...' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(deleteButton).toBeFocused();
  release();
  await expectToast(page, 'Ride deleted successfully');
  await expect(card(page, `Glen ${t} → Millbrook`)).toHaveCount(0);
});

test.describe('before the app is kept on the device', () => {
  test.use({ serviceWorkers: 'block' });

  test('a page that could not load for want of signal loads by itself when the signal returns', async ({
    page,
    context,
  }) => {
    await signUpAndSignIn(page, `Error Eli ${tag()}`);
    await context.setOffline(true);
    await page
      .getByRole('complementary', { name: 'Dashboard navigation' })
      .getByRole('link', { name: 'Browse Requests' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible();
    await expect(page.getByText('It will load by itself when you are back online.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();

    await context.setOffline(false);
    await expect(page.getByRole('heading', { level: 1, name: 'Browse Delivery Requests' })).toBeVisible({
      timeout: 15_000,
    });
  });
});

test("a first visit to the dashboard asks for its data before the app's scripts arrive, and never loads the stylesheet or the entry its HTML carries", async ({
  browser,
  baseURL,
}) => {
  // A fresh context: no cached scripts, no service worker; signed in through the API only.
  const context = await browser.newContext();
  const email = uniqueEmail('first-visit');
  const headers = { origin: baseURL! };
  const data = { email, password: PASSWORD, full_name: 'Fiona Firstvisit', age_confirmed: true };
  expect((await context.request.post('/api/auth/sign-up', { data, headers })).status()).toBe(201);
  expect(
    (await context.request.post('/api/auth/sign-in', { data: { email, password: PASSWORD }, headers })).status(),
  ).toBe(200);
  // Every script is held until the dashboard's data has been asked for: the first screen can only appear if that
  // request left from the HTML (its early-requests script is written into it), not from the app (or a chunk it
  // imports).
  let dataAsked!: () => void;
  const asked = new Promise<void>((resolve) => (dataAsked = resolve));
  await context.route('**/api/dashboard', (route) => {
    dataAsked();
    return route.continue();
  });
  await context.route(/\/assets\/[^/]+\.js$/, async (route) => {
    await asked;
    await route.continue();
  });
  const page = await context.newPage();
  const stylesheets: string[] = [];
  const entries: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'stylesheet') stylesheets.push(r.url());
    if (/\/assets\/index-[^/]+\.js$/.test(r.url())) entries.push(r.url());
  });
  // The lazy chunks the dashboard imports once it is up (the live-events one among them) bring the entry's
  // stylesheet as a dependency; the page already has it inline.
  const liveEvents = page.waitForResponse(/\/assets\/live-events-[^/]+\.js$/);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back!' })).toBeVisible();
  await liveEvents;
  expect(stylesheets).toEqual([]);
  // The app's entry came with the HTML (vite.config.ts, appShellPage), and ran once: never fetched as a file.
  expect(entries).toEqual([]);
  expect(await page.evaluate(() => performance.getEntriesByName('rr:start').length)).toBe(1);
  await context.close();
});
