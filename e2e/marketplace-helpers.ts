import { expect, type Browser, type Page } from '@playwright/test';
import { expectToast, signUpAndSignIn } from './fixtures';

/** A calendar date `days` from the browser's today (same machine, same timezone), as the date input wants it. */
export function dateInDays(days: number) {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export function longDate(iso: string) {
  return new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** A tag that keeps this test's rows apart from the rows of tests running in parallel on the same server. */
export function tag() {
  return Math.random().toString(36).slice(2, 8);
}

/** A signed-in user in their own browser context (own cookies), on the shared server or on `baseURL`. */
export async function newUser(browser: Browser, name: string, baseURL?: string) {
  const context = await browser.newContext(baseURL ? { baseURL } : {});
  const page = await context.newPage();
  await signUpAndSignIn(page, name);
  return { context, page };
}

export async function goTo(page: Page, link: string, heading: string) {
  await page.getByRole('complementary', { name: 'Dashboard navigation' }).getByRole('link', { name: link }).click();
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

export async function postRide(
  page: Page,
  ride: { origin: string; destination: string; date: string; time?: string; space?: string; notes?: string },
) {
  await page.getByRole('button', { name: 'Post New Ride' }).click();
  await page.getByLabel('Origin').fill(ride.origin);
  await page.getByLabel('Destination').fill(ride.destination);
  await page.getByLabel('Departure Date').fill(ride.date);
  if (ride.time) await page.getByLabel('Departure Time (optional)').fill(ride.time);
  if (ride.space) await page.getByLabel('Available Space').fill(ride.space);
  if (ride.notes) await page.getByLabel('Notes').fill(ride.notes);
  await page.getByRole('button', { name: 'Post Ride' }).click();
}

export async function createRequest(
  page: Page,
  request: { title: string; description: string; pickup: string; delivery: string; neededBy?: string; pay?: string },
) {
  await page.getByRole('button', { name: 'Create Request' }).click();
  await page.getByLabel('Title').fill(request.title);
  await page.getByLabel('Description').fill(request.description);
  await page.getByLabel('Pickup Location').fill(request.pickup);
  await page.getByLabel('Delivery Location').fill(request.delivery);
  if (request.neededBy) await page.getByLabel('Needed By (optional)').fill(request.neededBy);
  if (request.pay) await page.getByLabel('Compensation (optional)').fill(request.pay);
  await page.getByRole('button', { name: 'Submit Request' }).click();
}

/** The list item (card) whose heading is exactly `title`. */
export function card(page: Page, title: string) {
  return page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

/** My Bookings (the given tab) -> 'View booking' -> the booking page. */
export async function openBooking(page: Page, title: string, tab: 'As driver' | 'As requester' = 'As driver') {
  await goTo(page, 'My Bookings', 'My Bookings');
  await page.getByRole('tab', { name: tab }).click();
  await card(page, title)
    .getByRole('link', { name: `View booking for ${title}` })
    .click();
  await expect(page).toHaveURL(/\/dashboard\/bookings\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

/** A ride posted through the API with the page's cookies (not the page's connection: works while it is offline). */
export async function postRideThroughApi(page: Page, origin: string) {
  const res = await page.request.post('/api/rides', {
    data: { origin, destination: 'Millbrook', departure_date: dateInDays(3) },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(res.status()).toBe(201);
}

/** Resolves once the service worker is active, i.e. has precached the app. */
export async function serviceWorkerReady(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
}

/** A posts a request from My Requests (paying $15 by default; `pay` null: no compensation) and sees it Open. */
export async function postRequest(page: Page, title: string, pay: string | null = '15') {
  await goTo(page, 'My Requests', 'My Requests');
  await createRequest(page, {
    title,
    description: 'Three sacks of chicken feed',
    pickup: 'Grain store, Mill Rd',
    delivery: 'Upper Farm',
    ...(pay ? { pay } : {}),
  });
  await expectToast(page, 'Request created successfully');
  await expect(card(page, title)).toContainText('Open');
}

/** A driver accepts the request in Browse Requests; the card then shows a disabled 'Offer sent'. */
export async function offer(page: Page, title: string) {
  await goTo(page, 'Browse Requests', 'Browse Delivery Requests');
  await card(page, title)
    .getByRole('button', { name: `Accept request ${title}` })
    .click();
  await expectToast(page, 'Success', 'Request accepted! Check your bookings to manage it.');
  await expect(card(page, title).getByRole('button', { name: `Offer sent for request ${title}` })).toBeDisabled();
}

/** My Requests -> 'View' -> the request page. */
export async function openRequest(page: Page, title: string) {
  await goTo(page, 'My Requests', 'My Requests');
  await card(page, title)
    .getByRole('link', { name: `View request ${title}` })
    .click();
  await expect(page).toHaveURL(/\/dashboard\/requests\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}
