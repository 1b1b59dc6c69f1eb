import { expect, test, type Page } from '@playwright/test';
import type { Place } from '../src/shared/places';
import { expectNoAxeViolations, expectToast } from './fixtures';
import { dateInDays, goTo, tag } from './marketplace-helpers';
import { personOn } from './own-server';
import { chooseByKeyboard, PICK_SUGGESTION_HINT } from './place-helpers';

/**
 * Along the route, end to end: a ride Springfield, IL -> Decatur, IL posted through the form by keyboard; a request between two towns on the way is listed under
 * 'Requests along this route' (one off the route is not), its requester asks the driver through 'Ask to carry
 * something', and the driver accepts it from there; a saved search 'near Decatur' is told about a new request.
 */

type Person = Awaited<ReturnType<typeof personOn>>;

/** The gazetteer's place for 'Town, ST' (GET /api/places, as the suggestions ask it). */
async function place(person: Person, label: string): Promise<Place> {
  const { items } = await person.api<{ items: Place[] }>('GET', `/api/places?q=${encodeURIComponent(label)}`);
  const found = items.find((p) => p.label === label);
  expect(found, `no place '${label}'`).toBeDefined();
  return found!;
}

async function postRequest(person: Person, title: string, pickup: string, delivery: string) {
  const [from, to] = [await place(person, pickup), await place(person, delivery)];
  return person.api<{ id: string }>('POST', '/api/requests', {
    title,
    description: 'Two sacks',
    pickup_location: pickup,
    delivery_location: delivery,
    pickup_place_id: from.id,
    delivery_place_id: to.id,
  });
}

/** Requests are soft-deleted at the end, so a rerun on the same server counts only its own. */
async function removeRequests(person: Person, ids: string[]) {
  const origin = new URL(person.page.url()).origin;
  for (const id of ids) await person.page.request.delete(`/api/requests/${id}`, { headers: { origin } });
}

/** A ride's card on a list, told apart from other runs' by its 'Available space'. */
const rideCard = (page: Page, space: string) =>
  page.getByRole('listitem').filter({ hasText: `Available space: ${space}` });

const bell = (page: Page) => page.getByRole('banner').getByRole('link', { name: /^Notifications/ });

test('a request on the way is listed along the route, asked for, and accepted from there', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const driver = await personOn(browser, baseURL!, 'Dan Driver');
  const requester = await personOn(browser, baseURL!, 'Rita Requester');
  const d = driver.page;
  const r = requester.page;
  const t = tag();
  const space = `Truck bed ${t}`;
  const onRoute = `Seed corn ${t}`;
  const offRoute = `Hay bales ${t}`;

  // The driver posts Springfield, IL -> Decatur, IL through the form, both places chosen by keyboard only.
  await goTo(d, 'My Rides', 'My Rides');
  await d.getByRole('button', { name: 'Post New Ride' }).click();
  await chooseByKeyboard(d, d.getByRole('combobox', { name: 'Origin' }), 'Springf', 'Springfield, IL');
  await d.keyboard.press('Tab');
  await chooseByKeyboard(d, d.getByRole('combobox', { name: 'Destination' }), 'Decat', 'Decatur, IL');
  await expect(d.getByText(PICK_SUGGESTION_HINT)).toBeHidden();
  await d.getByLabel('Departure Date').fill(dateInDays(3));
  await d.getByLabel('Available Space').fill(space);
  await d.getByRole('button', { name: 'Post Ride' }).click();
  await expectToast(d, 'Ride posted successfully');
  const posted = [
    await postRequest(requester, onRoute, 'Illiopolis, IL', 'Niantic, IL'),
    await postRequest(requester, offRoute, 'Peoria, IL', 'Champaign, IL'),
  ];
  try {
    // My Rides: the count (the requests were posted after the ride), and the route alert toggled by keyboard.
    await d.reload();
    const mine = rideCard(d, space);
    await expect(mine.getByRole('link', { name: 'Requests along this route (1)' })).toBeVisible();
    const alert = mine.getByRole('button', { name: /^Tell me about new requests along this route/ });
    await expect(alert).toHaveAttribute('aria-pressed', 'false');
    await alert.focus();
    await d.keyboard.press('Enter');
    await expectToast(d, 'Route alert on');
    await expect(alert).toHaveAttribute('aria-pressed', 'true');

    // The requester asks this ride's driver to carry the request on the way.
    await goTo(r, 'Browse Rides', 'Browse Available Rides');
    await rideCard(r, space)
      .getByRole('button', { name: 'Ask to carry something: Springfield, IL → Decatur, IL' })
      .click();
    const dialog = r.getByRole('dialog', { name: 'Ask to carry something' });
    const choice = dialog.getByRole('radio', { name: new RegExp(onRoute) });
    await expect(choice).toBeVisible();
    await expectNoAxeViolations(r);
    await choice.focus();
    await r.keyboard.press('Space');
    await expect(choice).toBeChecked();
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expectToast(r, 'Request sent to the driver');
    await expect(dialog).toBeHidden();

    // The driver is told, and the notification leads to the route's list.
    await expect(bell(d)).toHaveAccessibleName(/Notifications, \d+ unread/);
    await bell(d).click();
    await d
      .getByRole('list', { name: 'Your notifications' })
      .getByRole('link', { name: `Unread: Rita Requester asked you to carry “${onRoute}” on your ride.` })
      .click();
    await expect(d.getByRole('heading', { level: 1, name: 'Requests along this route' })).toBeVisible();
    await expect(d.getByText(/^Springfield, IL → Decatur, IL, /)).toBeVisible();
    await expect(d.getByLabel('Corridor')).toHaveValue('5');

    const list = d.getByRole('list', { name: 'Requests along this route' });
    const item = list.getByRole('listitem').filter({ has: d.getByRole('heading', { name: onRoute }) });
    await expect(item.getByText('Asked you')).toBeVisible();
    await expect(item.getByText(/mi detour$/)).toBeVisible();
    await expect(list.getByRole('heading', { name: offRoute })).toHaveCount(0);
    await expectNoAxeViolations(d);

    // A wider corridor is kept in the URL; the request off the route stays out.
    await d.getByLabel('Corridor').selectOption('25');
    await expect(d).toHaveURL(/corridor=25/);
    await expect(item).toBeVisible();
    await expect(list.getByRole('heading', { name: offRoute })).toHaveCount(0);

    // Accept, exactly as in Browse.
    await item.getByRole('button', { name: `Accept request ${onRoute}` }).click();
    await expectToast(d, 'Success', 'Request accepted! Check your bookings to manage it.');
    await expect(item.getByRole('button', { name: `Offer sent for request ${onRoute}` })).toBeDisabled();

    // The route alert is on the Alerts page, reached from Settings.
    await goTo(d, 'Settings', 'Settings');
    await d.getByRole('region', { name: 'Alerts' }).getByRole('link', { name: 'Alerts' }).click();
    await expect(d.getByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible();
    await expect(
      d.getByRole('list', { name: 'Route alerts' }).getByText('Along Springfield, IL → Decatur, IL'),
    ).toBeVisible();
    await expectNoAxeViolations(d);
  } finally {
    await removeRequests(
      requester,
      posted.map((p) => p.id),
    );
  }
});

test('a saved search near Decatur is told when someone posts a request there', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const saver = await personOn(browser, baseURL!, 'Sara Saver');
  const poster = await personOn(browser, baseURL!, 'Paul Poster');
  const s = saver.page;
  const decatur = await place(saver, 'Decatur, IL');
  const name = `Near Decatur ${tag()}`;

  // The place by its id only: the dialog reads its name.
  await s.goto(`/dashboard/browse-requests?near=${decatur.id}&within=10`);
  await expect(s.getByRole('heading', { level: 1, name: 'Browse Delivery Requests' })).toBeVisible();
  await s.getByRole('button', { name: 'Save this search' }).click();
  const dialog = s.getByRole('dialog', { name: 'Save this search' });
  await expect(dialog.getByText(/^Requests near Decatur, IL within 10 mi\./)).toBeVisible();
  await expect(dialog.getByLabel('Name')).toHaveValue('Requests near Decatur, IL');
  await expectNoAxeViolations(s);
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Name').press('Enter');
  await expectToast(s, 'Search saved');
  await expect(dialog).toBeHidden();

  // Someone else posts a request a few miles from Decatur (north of it: off any Springfield -> Decatur corridor).
  const title = `Fence posts ${tag()}`;
  const posted = await postRequest(poster, title, 'Forsyth, IL', 'Maroa, IL');
  try {
    await expect(bell(s)).toHaveAccessibleName('Notifications, 1 unread');
    await bell(s).click();
    const link = s
      .getByRole('list', { name: 'Your notifications' })
      .getByRole('link', { name: `Unread: A new request matches your search “${name}”.` });
    await link.click();
    await expect(s).toHaveURL(new RegExp(`/dashboard/browse-requests\\?near=${decatur.id}`));
    await expect(s.getByRole('heading', { name: title })).toBeVisible();

    // The Alerts page lists it; its 'Email' switch works by keyboard.
    await s.goto('/dashboard/settings/alerts');
    const row = s.getByRole('list', { name: 'Saved searches' }).getByRole('listitem').filter({ hasText: name });
    await expect(row.getByText('Requests near Decatur, IL within 10 mi')).toBeVisible();
    const email = row.getByRole('switch', { name: `${name} Email` });
    await expect(email).toBeChecked();
    await email.focus();
    await s.keyboard.press('Space');
    await expect(email).not.toBeChecked();
    await expectToast(s, 'Alert e-mails off');
    await expectNoAxeViolations(s);
  } finally {
    await removeRequests(poster, [posted.id]);
  }
});
