import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations, expectToast } from './fixtures';
import { dateInDays, goTo, tag } from './marketplace-helpers';
import { bookingBetween, personOn } from './own-server';

/**
 * Reviews and profiles, in two real browsers: after a completed delivery both people review (stars by
 * keyboard), each review stays hidden until both are in, then the profiles and the Browse cards show the ratings.
 */

const reviewSection = (page: Page) => page.getByRole('region', { name: 'Leave a review' });

/** Chooses `stars` in the rating radio group by keyboard, as someone without a mouse would. */
async function rateByKeyboard(page: Page, stars: number) {
  const first = page.getByRole('radio', { name: '1 star', exact: true });
  await first.focus();
  await page.keyboard.press('Space');
  const radio = (n: number) => page.getByRole('radio', { name: n === 1 ? '1 star' : `${n} stars`, exact: true });
  // One key at a time, as a person presses them: each moves focus (and the choice) one star on.
  for (let n = 2; n <= stars; n += 1) {
    await page.keyboard.press('ArrowRight');
    await expect(radio(n)).toBeFocused();
  }
  await expect(page.getByRole('radio', { name: `${stars} stars`, exact: true })).toBeChecked();
}

test('both review a completed delivery; reviews stay hidden until both are in; profiles and Browse show ratings', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const base = baseURL!;
  const requester = await personOn(browser, base, 'Rita Reviewer');
  const driver = await personOn(browser, base, 'Dan Driver');
  const title = `Pharmacy run ${tag()}`;
  const bookingId = await bookingBetween(requester, driver, title);
  await requester.api('POST', `/api/bookings/${bookingId}/choose`, {});
  await requester.api('POST', `/api/bookings/${bookingId}/receive`, {});
  const requesterId = (await requester.api<{ user: { id: string } }>('GET', '/api/auth/session')).user.id;
  const driverId = (await driver.api<{ user: { id: string } }>('GET', '/api/auth/session')).user.id;
  const r = requester.page;
  const d = driver.page;

  // The driver reviews first: 5 stars and a comment.
  await d.goto(`/dashboard/bookings/${bookingId}`);
  await expect(reviewSection(d)).toBeVisible();
  await rateByKeyboard(d, 5);
  await d.getByLabel('Comment').fill('Ready on time and very kind.');
  await d.getByRole('button', { name: 'Submit review' }).click();
  await expectToast(d, 'Review submitted');

  // Not yet published: the requester's profile has no review, and the requester is told one is waiting.
  await r.goto(`/dashboard/users/${requesterId}`);
  await expect(r.getByRole('heading', { level: 1, name: 'Rita Reviewer' })).toBeVisible();
  await expect(r.getByText('New member')).toBeVisible();
  await expect(r.getByText('Ready on time and very kind.')).toHaveCount(0);
  await r.goto(`/dashboard/bookings/${bookingId}`);
  await expect(r.getByText('Dan Driver has reviewed you. Leave your review to see theirs.')).toBeVisible();
  await expect(r.getByText('Ready on time and very kind.')).toHaveCount(0);

  // The requester reviews: 4 stars. Both are published together.
  await rateByKeyboard(r, 4);
  await r.getByRole('button', { name: 'Submit review' }).click();
  await expectToast(r, 'Review submitted');
  await expect(r.getByText('Ready on time and very kind.')).toBeVisible();

  // The requester's profile now shows the driver's review, with the driver's name linking to the driver's profile.
  await r.goto(`/dashboard/users/${requesterId}`);
  await expect(r.getByText('5.0 ★ · 1 review')).toBeVisible();
  await expect(r.getByText('Ready on time and very kind.')).toBeVisible();
  await expect(r.getByText('Requests delivered: 1')).toBeVisible();
  await expectNoAxeViolations(r);
  await r.getByRole('link', { name: 'Dan Driver' }).click();
  await expect(r).toHaveURL(new RegExp(`/dashboard/users/${driverId}$`));
  await expect(r.getByRole('heading', { level: 1, name: 'Dan Driver' })).toBeVisible();
  await expect(r.getByText('Deliveries made: 1')).toBeVisible();
  await expect(r.getByText('4.0 ★ · 1 review')).toBeVisible();
  await expectNoAxeViolations(r);

  // The ratings on Browse: the driver's ride as the requester sees it, the requester's request as the driver does.
  const origin = `Millbrook ${tag()}`;
  await driver.api('POST', '/api/rides', { origin, destination: 'Oakville', departure_date: dateInDays(2) });
  const another = `Feed sacks ${tag()}`;
  await requester.api('POST', '/api/requests', {
    title: another,
    description: 'Two sacks',
    pickup_location: 'Co-op',
    delivery_location: 'Hill Farm',
  });
  await goTo(r, 'Browse Rides', 'Browse Available Rides');
  const rideCard = r.getByRole('listitem').filter({ hasText: origin });
  await expect(rideCard.getByText('4.0 ★ · 1 review')).toBeVisible();
  await rideCard.getByRole('link', { name: 'Dan Driver' }).click();
  await expect(r.getByRole('heading', { level: 1, name: 'Dan Driver' })).toBeVisible();
  await goTo(d, 'Browse Requests', 'Browse Delivery Requests');
  const requestCard = d.getByRole('listitem').filter({ hasText: another });
  await expect(requestCard.getByText('5.0 ★ · 1 review')).toBeVisible();

  // The driver replies to the requester's review of them, on their own profile.
  await d.goto(`/dashboard/users/${driverId}`);
  await d.getByLabel('Reply').fill('Thank you, Rita!');
  await d.getByRole('button', { name: 'Post reply' }).click();
  await expectToast(d, 'Reply posted');
  await expect(d.getByText('Thank you, Rita!')).toBeVisible();

  await requester.context.close();
  await driver.context.close();
});
