import { expect, test } from '@playwright/test';
import { expectNoAxeViolations, expectToast } from './fixtures';
import { card, dateInDays, goTo, newUser, tag } from './marketplace-helpers';
import { chooseByKeyboard, PICK_SUGGESTION_HINT as HINT } from './place-helpers';

test('places: a ride chosen by keyboard, a free-text request, Browse filters in the URL, accents ignored', async ({
  browser,
}) => {
  // Two users, three forms and several axe runs: beyond the default budget on the 2-core machine.
  test.slow();
  const t = tag();
  const notes = `Crème brûlée for the Café ${t}`;

  // --- A driver posts Springfield, IL -> Decatur, IL with both suggestions chosen by keyboard only.
  const a = await newUser(browser, `Dana Driver ${t}`);
  await goTo(a.page, 'My Rides', 'My Rides');
  await a.page.getByRole('button', { name: 'Post New Ride' }).click();
  const origin = a.page.getByRole('combobox', { name: 'Origin' });
  await chooseByKeyboard(a.page, origin, 'Springf', 'Springfield, IL');
  await a.page.keyboard.press('Tab');
  const destination = a.page.getByRole('combobox', { name: 'Destination' });
  await a.page.keyboard.type('Decat');
  await expect(a.page.getByRole('listbox', { name: 'Suggested places' })).toBeVisible();
  await expect(a.page.getByRole('status').filter({ hasText: /\d+ suggestions?$/ })).toHaveCount(1);
  // The form with its popup open.
  await expectNoAxeViolations(a.page);
  await destination.clear();
  await chooseByKeyboard(a.page, destination, 'Decat', 'Decatur, IL');
  await expect(a.page.getByText(HINT)).toBeHidden();
  await a.page.getByLabel('Departure Date').fill(dateInDays(5));
  await a.page.getByLabel('Notes').fill(notes);
  await a.page.getByRole('button', { name: 'Post Ride' }).click();
  await expectToast(a.page, 'Ride posted successfully');
  await expect(card(a.page, 'Springfield, IL → Decatur, IL').filter({ hasText: notes })).toBeVisible();

  // --- A requester types a farm address: free text is allowed, and the form says it cannot be matched by distance.
  const b = await newUser(browser, `Rae Requester ${t}`);
  await goTo(b.page, 'My Requests', 'My Requests');
  await b.page.getByRole('button', { name: 'Create Request' }).click();
  await b.page.getByLabel('Title').fill(`Hay bales ${t}`);
  await b.page.getByLabel('Description').fill('Ten bales');
  const pickup = b.page.getByRole('combobox', { name: 'Pickup Location' });
  await pickup.fill('Miller farm, County Rd 9');
  await expect(pickup).toHaveAccessibleDescription(HINT);
  const delivery = b.page.getByRole('combobox', { name: 'Delivery Location' });
  await delivery.fill('Decatur');
  await expect(b.page.getByRole('option', { name: /^Decatur, IL \d{5}$/ })).toBeVisible();
  await expectNoAxeViolations(b.page);
  await b.page.getByRole('option', { name: /^Decatur, IL \d{5}$/ }).click();
  await expect(delivery).toHaveValue('Decatur, IL');
  await expect(delivery).not.toHaveAccessibleDescription(HINT);
  await b.page.getByRole('button', { name: 'Submit Request' }).click();
  await expectToast(b.page, 'Request created successfully');

  // --- Browse Rides near Decatur, IL within 25 miles: the ride, with its distance; the URL holds the filters.
  await goTo(b.page, 'Browse Rides', 'Browse Available Rides');
  const bar = b.page.getByRole('search', { name: 'Filter rides' });
  await expectNoAxeViolations(b.page);
  await bar.getByRole('combobox', { name: 'Near' }).focus();
  await chooseByKeyboard(b.page, bar.getByRole('combobox', { name: 'Near' }), 'Decatur, IL', 'Decatur, IL');
  await expect(bar.getByLabel('Within')).toHaveValue('25');
  await bar.getByRole('searchbox', { name: 'Search' }).fill(t);
  await bar.getByRole('button', { name: 'Apply filters' }).click();
  await expect(b.page).toHaveURL(/[?&]near=\d+/);
  await expect(b.page).toHaveURL(/[?&]within=25/);
  const ride = card(b.page, 'Springfield, IL → Decatur, IL').filter({ hasText: notes });
  // Its destination is the place itself.
  await expect(ride).toContainText('Less than 1 mi away');
  await expectNoAxeViolations(b.page);

  // The link names the place by its id only (as an alert's does); the Near field reads its name.
  const near = new URL(b.page.url()).searchParams.get('near');
  expect([...new URL(b.page.url()).searchParams.keys()].sort()).toEqual(['near', 'q', 'within']);
  await b.page.goto(`/dashboard/browse-rides?near=${near}`);
  await expect(
    b.page.getByRole('search', { name: 'Filter rides' }).getByRole('combobox', { name: 'Near' }),
  ).toHaveValue('Decatur, IL');
  await b.page.goBack();
  await expect(ride).toContainText('Less than 1 mi away');

  await b.page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(b.page).toHaveURL(/\/dashboard\/browse-rides$/);
  await expect(bar.getByRole('combobox', { name: 'Near' })).toHaveValue('');
  await expect(ride).not.toContainText('mi away');

  // --- A text search ignores accents: 'creme cafe' finds 'Crème brûlée for the Café'.
  await bar.getByRole('searchbox', { name: 'Search' }).fill(`creme cafe ${t}`);
  await bar.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await expect(b.page).toHaveURL(/[?&]q=creme/);
  await expect(ride).toBeVisible();
  await expect(b.page.getByRole('list', { name: 'Available rides' }).getByRole('listitem')).toHaveCount(1);
  await bar.getByRole('searchbox', { name: 'Search' }).fill(`piano ${t}`);
  await bar.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await expect(b.page.getByText('No rides match these filters.')).toBeVisible();
  // Back returns to the previous search.
  await b.page.goBack();
  await expect(ride).toBeVisible();

  await a.context.close();
  await b.context.close();
});
