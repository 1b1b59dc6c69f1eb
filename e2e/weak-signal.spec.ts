import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { expectNoAxeViolations, expectToast, signUpAndSignIn } from './fixtures';
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
