import { expect, test } from '@playwright/test';
import { expectNoAxeViolations, expectToast } from './fixtures';
import { card, createRequest, dateInDays, goTo, longDate, newUser, postRide, tag } from './marketplace-helpers';

const EMPTY_ACTIVITY = 'No recent activity yet. Start by posting a ride or creating a delivery request!';

test('two neighbours: A posts a ride and a request, B finds them, accepts and sees the booking', async ({
  browser,
}) => {
  // Two users and many steps: longer than the default 30 s budget when the 2-core machine runs workers in parallel.
  test.slow();
  const t = tag();
  const rideFrom = `Oakville ${t}`;
  const title = `Feed from the co-op ${t}`;
  const rideDate = dateInDays(7);
  const neededBy = dateInDays(10);

  // --- A: a fresh dashboard, empty lists, then a ride and a request.
  const a = await newUser(browser, `Alice Marsh ${t}`);
  await expect(a.page.getByTestId('stat-activeRides')).toHaveText('0');
  await expect(a.page.getByText(EMPTY_ACTIVITY)).toBeVisible();
  await expectNoAxeViolations(a.page);

  await goTo(a.page, 'My Rides', 'My Rides');
  await expect(a.page.getByText('No rides posted yet. Click "Post New Ride" to get started!')).toBeVisible();
  await expectNoAxeViolations(a.page);
  await a.page.getByRole('button', { name: 'Post New Ride' }).click();
  await expect(a.page.getByLabel('Available Space')).toHaveAttribute('placeholder', /trunk space, back seat/i);
  await a.page.getByRole('button', { name: 'Post Ride' }).click();
  await expectToast(a.page, 'Validation Error', 'Origin is required');
  await expect(a.page.getByLabel('Origin')).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(a.page);
  await a.page.getByLabel('Origin').fill(rideFrom);
  await a.page.getByLabel('Destination').fill('Millbrook');
  await a.page.getByLabel('Departure Date').fill(dateInDays(-1));
  await a.page.getByRole('button', { name: 'Post Ride' }).click();
  await expectToast(a.page, 'Validation Error', 'Departure date cannot be in the past');
  await a.page.getByRole('button', { name: 'Cancel' }).click();
  await expect(a.page.getByLabel('Origin')).toBeHidden();

  await postRide(a.page, {
    origin: rideFrom,
    destination: 'Millbrook',
    date: rideDate,
    time: '09:30',
    space: 'Back seat',
    notes: 'Leaving from the church',
  });
  await expectToast(a.page, 'Ride posted successfully');
  const myRide = card(a.page, `${rideFrom} → Millbrook`);
  await expect(myRide).toContainText(`${longDate(rideDate)} at 09:30`);
  await expect(myRide).toContainText('Available space: Back seat');
  await expect(myRide).toContainText('Leaving from the church');
  await expect(myRide).toContainText('Active');
  await expect(a.page.getByLabel('Origin')).toBeHidden();

  await goTo(a.page, 'My Requests', 'My Requests');
  await expect(a.page.getByText('No requests yet. Click "Create Request" to get started!')).toBeVisible();
  await a.page.getByRole('button', { name: 'Create Request' }).click();
  await expect(a.page.getByRole('heading', { name: 'Create a Delivery Request' })).toBeVisible();
  await a.page.getByRole('button', { name: 'Create Request' }).click();
  await expect(a.page.getByRole('heading', { name: 'Create a Delivery Request' })).toBeHidden();
  await createRequest(a.page, {
    title,
    description: 'Two bags of layer pellets',
    pickup: 'Co-op, Main St',
    delivery: 'Hill Farm',
    neededBy,
    pay: '12.345',
  });
  await expectToast(
    a.page,
    'Validation Error',
    'Compensation must be an amount like 12.50, with at most 2 decimal places',
  );
  await a.page.getByLabel('Compensation (optional)').fill('12.5');
  await a.page.getByRole('button', { name: 'Submit Request' }).click();
  await expectToast(a.page, 'Request created successfully');
  const myRequest = card(a.page, title);
  await expect(myRequest).toContainText('Co-op, Main St → Hill Farm');
  await expect(myRequest).toContainText('Two bags of layer pellets');
  await expect(myRequest).toContainText(`Needed by: ${longDate(neededBy)}`);
  await expect(myRequest).toContainText('Compensation: $12.50');
  await expect(myRequest).toContainText('Open');
  await expectNoAxeViolations(a.page);

  // A cannot accept their own request.
  await goTo(a.page, 'Browse Requests', 'Browse Delivery Requests');
  await expect(card(a.page, title)).toContainText('Your request');
  await expect(card(a.page, title).getByRole('button', { name: /Accept/ })).toHaveCount(0);

  // --- B: sees both with A's name, accepts, sees the booking.
  const b = await newUser(browser, `Ben Ortiz ${t}`);
  await goTo(b.page, 'Browse Rides', 'Browse Available Rides');
  const theRide = card(b.page, `${rideFrom} → Millbrook`);
  await expect(theRide).toContainText(`Posted by Alice Marsh ${t}`);
  await expect(theRide).toContainText(`${longDate(rideDate)} at 09:30`);
  await expect(theRide).toContainText('Available space: Back seat');
  // A ride card's one action: asking its driver to carry one of my requests.
  await expect(theRide.getByRole('button')).toHaveText(['Ask to carry something']);
  await expectNoAxeViolations(b.page);

  await goTo(b.page, 'My Bookings', 'My Bookings');
  await expect(b.page.getByText('No bookings yet. Browse requests to accept deliveries!')).toBeVisible();
  await expectNoAxeViolations(b.page);

  await goTo(b.page, 'Browse Requests', 'Browse Delivery Requests');
  const theRequest = card(b.page, title);
  await expect(theRequest).toContainText(`Requested by Alice Marsh ${t}`);
  await expect(theRequest).toContainText('Compensation: $12.50');
  await expect(theRequest).toContainText(`Needed by: ${longDate(neededBy)}`);
  await expectNoAxeViolations(b.page);
  // A second tab of B's, loaded before the accept, is brought up to date by the app's live stream.
  const staleTab = await b.context.newPage();
  await staleTab.goto('/dashboard/browse-requests');
  await expect(card(staleTab, title).getByRole('button', { name: `Accept request ${title}` })).toBeVisible();

  await theRequest.getByRole('button', { name: `Accept request ${title}` }).click();
  await expectToast(b.page, 'Success', 'Request accepted! Check your bookings to manage it.');
  // The card now shows a disabled 'Offer sent' and links to the bookings, instead of offering Accept again.
  await expect(theRequest.getByRole('button', { name: `Offer sent for request ${title}` })).toBeDisabled();
  await expect(theRequest.getByRole('link', { name: 'See My Bookings' })).toBeVisible();
  await expect(theRequest.getByRole('button', { name: /Accept/ })).toHaveCount(0);

  await expect(card(staleTab, title).getByRole('button', { name: `Offer sent for request ${title}` })).toBeDisabled();
  await staleTab.close();

  await goTo(b.page, 'My Bookings', 'My Bookings');
  const booking = card(b.page, title);
  await expect(booking).toContainText(`For Alice Marsh ${t}`);
  await expect(booking).toContainText('Co-op, Main St → Hill Farm');
  await expect(booking.getByText('Pending', { exact: true })).toHaveClass(/bg-yellow-100/);
  await expectNoAxeViolations(b.page);

  await goTo(b.page, 'Dashboard', 'Welcome back!');
  await expect(b.page.getByTestId('stat-totalBookings')).toHaveText('1');
  await expect(b.page.getByRole('list', { name: 'Recent activity' })).toContainText(
    `You accepted "${title}" for Alice Marsh ${t}`,
  );

  // --- A's dashboard now counts the ride, the request and the booking, and says who accepted.
  await goTo(a.page, 'Dashboard', 'Welcome back!');
  await expect(a.page.getByTestId('stat-activeRides')).toHaveText('1');
  await expect(a.page.getByTestId('stat-openRequests')).toHaveText('1');
  await expect(a.page.getByTestId('stat-totalBookings')).toHaveText('1');
  await expect(a.page.getByTestId('stat-completed')).toHaveText('0');
  const activity = a.page.getByRole('list', { name: 'Recent activity' });
  await expect(activity).toContainText(`Ben Ortiz ${t} accepted your request "${title}"`);
  await expect(activity).toContainText(`You posted a ride from ${rideFrom} to Millbrook`);
  await expect(a.page.getByText(EMPTY_ACTIVITY)).toBeHidden();
  await expectNoAxeViolations(a.page);

  await a.context.close();
  await b.context.close();
});

test('deletes need confirmation; a request deleted meanwhile is Unavailable and its booking turns cancelled', async ({
  browser,
}) => {
  // Two users and many steps: longer than the default 30 s budget when the 2-core machine runs workers in parallel.
  test.slow();
  const t = tag();
  const a = await newUser(browser, `Cora Lane ${t}`);
  const b = await newUser(browser, `Dev Patel ${t}`);
  const stale = `Stale parcel ${t}`;
  const accepted = `Accepted parcel ${t}`;

  await goTo(a.page, 'My Requests', 'My Requests');
  for (const title of [stale, accepted]) {
    await createRequest(a.page, { title, description: 'A box', pickup: 'Depot', delivery: 'Farm' });
    await expectToast(a.page, 'Request created successfully');
    await expect(card(a.page, title)).toBeVisible();
  }

  // B accepts one, and has the list open with the other when A deletes both.
  await goTo(b.page, 'Browse Requests', 'Browse Delivery Requests');
  await card(b.page, accepted)
    .getByRole('button', { name: /^Accept/ })
    .click();
  await expectToast(b.page, 'Success', 'Request accepted! Check your bookings to manage it.');
  await expect(card(b.page, stale)).toBeVisible();

  // Cancel in the dialog keeps the row; the dialog is keyboard operable and returns focus to its button.
  const deleteStale = card(a.page, stale).getByRole('button', { name: `Delete request ${stale}` });
  await deleteStale.click();
  const dialog = a.page.getByRole('alertdialog', { name: 'Delete this request?' });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(a.page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(deleteStale).toBeFocused();
  await a.page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await a.page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await a.page.reload();
  await expect(card(a.page, stale)).toBeVisible();

  const deleteRequest = async (title: string) => {
    await card(a.page, title)
      .getByRole('button', { name: `Delete request ${title}` })
      .click();
    await a.page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expectToast(a.page, 'Request deleted successfully');
    await expect(card(a.page, title)).toHaveCount(0);
  };
  await deleteRequest(stale);

  // B's list is stale (B has no part in that request, so nothing tells B's page live): accepting says Unavailable
  // and the list reloads without it.
  await card(b.page, stale)
    .getByRole('button', { name: /^Accept/ })
    .click();
  await expectToast(b.page, 'Unavailable', 'This request is no longer available.');
  await expect(card(b.page, stale)).toHaveCount(0);

  await deleteRequest(accepted);
  await expect(a.page.getByText('No requests yet. Click "Create Request" to get started!')).toBeVisible();

  // The offer on the withdrawn request stays visible to its driver, as declined (grey).
  await goTo(b.page, 'My Bookings', 'My Bookings');
  await expect(card(b.page, accepted).getByText('Declined', { exact: true })).toBeVisible();
  await expectNoAxeViolations(b.page);

  // Rides: Cancel keeps, Delete removes, the empty state comes back.
  await goTo(a.page, 'My Rides', 'My Rides');
  await postRide(a.page, { origin: `Elm ${t}`, destination: 'Ash', date: dateInDays(1) });
  await expectToast(a.page, 'Ride posted successfully');
  const ride = card(a.page, `Elm ${t} → Ash`);
  await ride.getByRole('button', { name: `Delete ride Elm ${t} → Ash` }).click();
  await a.page.getByRole('alertdialog', { name: 'Delete this ride?' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(ride).toBeVisible();
  await ride.getByRole('button', { name: `Delete ride Elm ${t} → Ash` }).click();
  await a.page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expectToast(a.page, 'Ride deleted successfully');
  await expect(a.page.getByText('No rides posted yet. Click "Post New Ride" to get started!')).toBeVisible();

  await a.context.close();
  await b.context.close();
});
