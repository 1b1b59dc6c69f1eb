import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations, expectToast } from './fixtures';
import { card, goTo, newUser, offer, openBooking, openRequest, postRequest, tag } from './marketplace-helpers';

/**
 * The booking lifecycle, in real browsers: a requester and one or two drivers, each in their own context
 * (own session), acting on the same server. Every step goes through the UI; nothing is set up through the API.
 */

const status = (page: Page) => page.getByText(/^Status:/);
const timeline = (page: Page) => page.getByRole('heading', { name: 'Timeline' }).locator('xpath=../..');

/** Browse Requests freshly loaded (a list or its empty text, not the loading skeleton). */
async function browseRequests(page: Page) {
  await page.goto('/dashboard/browse-requests');
  await expect(
    page
      .getByRole('list', { name: 'Delivery requests' })
      .or(page.getByText('No requests available at the moment. Check back later!')),
  ).toBeVisible();
}

test('the whole story: offer, choose, pick up, a wrong code, the right code, Completed 1 on both dashboards', async ({
  browser,
}) => {
  // Two users and many steps: longer than the default 30 s budget when the 2-core machine runs workers in parallel.
  test.slow();
  const t = tag();
  const title = `Feed sacks ${t}`;
  const aName = `Ana Diaz ${t}`;
  const bName = `Ben Okafor ${t}`;
  const a = await newUser(browser, aName);
  const b = await newUser(browser, bName);

  // Every answer the driver's browser receives, to prove the delivery code is never among them: the API's answers,
  // and every event of the live stream (a response that never ends, so read in the page as the app receives it).
  const driverResponses: Promise<string>[] = [];
  b.page.on('response', (res) => {
    if (res.url().includes('/api/') && !res.url().includes('/api/events'))
      driverResponses.push(res.text().catch(() => ''));
  });
  await b.context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __streamed: string[] }).__streamed = seen;
    const add = EventSource.prototype.addEventListener;
    EventSource.prototype.addEventListener = function (
      this: EventSource,
      type: string,
      listener: EventListenerOrEventListenerObject,
      options?: boolean | AddEventListenerOptions,
    ) {
      add.call(this, type, (e: Event) => seen.push(`${type} ${(e as MessageEvent).data}`));
      add.call(this, type, listener, options);
    } as typeof add;
  });
  await b.page.reload();

  await postRequest(a.page, title);
  await expect(card(a.page, title)).toContainText('No offers yet');
  await offer(b.page, title);

  // A: My Requests, loaded again (lists do not poll), counts the offer; the request page lists it with B's name.
  await a.page.reload();
  await expect(card(a.page, title)).toContainText('1 offer');
  await openRequest(a.page, title);
  await expect(status(a.page)).toContainText('Open');
  const offers = a.page.getByRole('region', { name: 'Offers' });
  const offerItem = offers.getByRole('listitem').filter({ hasText: bName });
  await expect(offerItem).toContainText('Offered');
  await expectNoAxeViolations(a.page);

  // The request pays $15: choosing the driver pays $15 and the $1.50 fee, held until the delivery is complete.
  await offerItem.getByRole('button', { name: `Choose this driver: ${bName}` }).click();
  const choose = a.page.getByRole('dialog', { name: `Choose ${bName}?` });
  await expect(choose).toHaveAccessibleDescription('You pay $16.50 now');
  await expect(choose).toContainText(`Delivery by ${bName}: $15.00`);
  await expect(choose).toContainText('Service fee: $1.50');
  await expect(choose).toContainText('Held by RuralRoute until the delivery is complete.');
  await expect(choose).toContainText('Test mode: no real money moves.');
  await expectNoAxeViolations(a.page);
  // A declined card changes nothing, and the dialog stays for another card.
  await choose.getByLabel('Card number').fill('4000 0000 0000 0002');
  await choose.getByLabel('Expiry').fill('12/40');
  await choose.getByLabel('CVC').fill('123');
  await choose.getByLabel('ZIP').fill('05401');
  await choose.getByRole('button', { name: 'Pay and confirm' }).click();
  await expectToast(a.page, 'Error', 'Your card was declined. Try another card.');
  await expect(choose).toBeVisible();
  await expect(choose.getByLabel('Card number')).toBeFocused();
  await expect(status(a.page)).toContainText('Open');
  await choose.getByLabel('Card number').fill('4242 4242 4242 4242');
  await choose.getByRole('button', { name: 'Pay and confirm' }).click();
  await expectToast(a.page, 'Driver confirmed');
  await expect(choose).toBeHidden();
  await expect(status(a.page)).toContainText('Matched');
  await expect(status(a.page)).toBeFocused();
  await expect(offers).toContainText('No pending offers.');
  const chosen = a.page.getByRole('region', { name: 'Booking' });
  await expect(chosen).toContainText(`Driver: ${bName}`);
  await expect(chosen).toContainText('Confirmed');
  await expectNoAxeViolations(a.page);

  // The request is matched: it has left Browse Requests, for its driver as for anyone else.
  const c = await newUser(browser, `Cal Reyes ${t}`);
  await browseRequests(c.page);
  await expect(card(c.page, title)).toHaveCount(0);
  await c.context.close();
  await browseRequests(b.page);
  await expect(card(b.page, title)).toHaveCount(0);

  // A: the booking page shows both people, the code to give at handoff, and A's own actions.
  await chosen.getByRole('link', { name: 'View booking' }).click();
  await expect(a.page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(a.page.getByText('You are the requester.')).toBeVisible();
  await expect(status(a.page)).toContainText('Confirmed');
  await expect(a.page.getByText(`${aName} (you)`)).toBeVisible();
  await expect(a.page.getByText(bName, { exact: true })).toBeVisible();
  await expect(a.page.getByRole('button', { name: 'Mark as received' })).toBeVisible();
  await expect(a.page.getByRole('button', { name: 'Cancel booking' })).toBeVisible();
  await expect(timeline(a.page)).toContainText(`Offered by ${bName}`);
  await expect(timeline(a.page)).toContainText(`Driver chosen by ${aName}`);
  await expect(a.page.getByRole('heading', { name: 'Delivery code' })).toBeVisible();
  const code = (await a.page.getByTestId('delivery-code').textContent())?.trim() ?? '';
  expect(code).toMatch(/^\d{6}$/);
  // The payment is held: A sees what was paid and with which card.
  const paymentCard = a.page.getByRole('heading', { name: 'Payment' }).locator('xpath=../..');
  await expect(paymentCard).toContainText(`${bName} receives $15.00`);
  await expect(paymentCard).toContainText('You paid $16.50 (service fee $1.50) with the card ending in 4242.');
  await expect(paymentCard).toContainText('Held:');
  await expectNoAxeViolations(a.page);

  // B: My Bookings -> the booking, which says confirmed and shows no code.
  await openBooking(b.page, title);
  await expect(b.page.getByText('You are the driver.')).toBeVisible();
  await expect(status(b.page)).toContainText('Confirmed');
  await expect(b.page.getByText(`${bName} (you)`)).toBeVisible();
  await expect(b.page.getByRole('heading', { name: 'Delivery code' })).toHaveCount(0);
  await expect(b.page.getByRole('button', { name: 'Mark as received' })).toHaveCount(0);
  await expectNoAxeViolations(b.page);

  await b.page.getByRole('button', { name: 'Mark as picked up' }).click();
  await expectToast(b.page, 'Marked as picked up');
  await expect(timeline(b.page)).toContainText('Picked up');
  await expect(status(b.page)).toContainText('Confirmed');
  await expect(b.page.getByRole('button', { name: 'Mark as picked up' })).toHaveCount(0);

  // A wrong code first: the dialog stays open with the code selected for another try.
  await b.page.getByRole('button', { name: 'Complete delivery' }).click();
  const complete = b.page.getByRole('dialog', { name: 'Complete delivery' });
  const codeInput = complete.getByLabel('Delivery code');
  await expect(codeInput).toBeFocused();
  await expectNoAxeViolations(b.page);
  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  await codeInput.fill(wrong);
  await complete.getByRole('button', { name: 'Complete delivery' }).click();
  await expectToast(b.page, 'Error', 'That delivery code is not correct.');
  await expect(complete).toBeVisible();
  await expect(codeInput).toBeFocused();
  await expect(status(b.page)).toContainText('Confirmed');

  // The right code, read from A's page.
  await codeInput.fill(code);
  await complete.getByRole('button', { name: 'Complete delivery' }).click();
  await expectToast(b.page, 'Delivery completed');
  await expect(complete).toBeHidden();
  await expect(status(b.page)).toContainText('Completed');
  await expect(timeline(b.page)).toContainText(`Delivered by ${bName} with the delivery code`);
  // The delivery released the money to B.
  const released = b.page.getByRole('heading', { name: 'Payment' }).locator('xpath=../..');
  await expect(released).toContainText(`${bName} receives $15.00`);
  await expect(released).toContainText('Released:');
  await expect(released).not.toContainText('You paid');
  await expect(b.page.getByRole('button', { name: 'Complete delivery' })).toHaveCount(0);
  await expectNoAxeViolations(b.page);

  // A sees it completed too; the code is no longer shown.
  await a.page.reload();
  await expect(status(a.page)).toContainText('Completed');
  await expect(timeline(a.page)).toContainText('Picked up');
  await expect(a.page.getByTestId('delivery-code')).toHaveCount(0);
  await expect(a.page.getByRole('button', { name: 'Cancel booking' })).toHaveCount(0);
  await expectNoAxeViolations(a.page);

  // Both dashboards: Completed 1, and the lifecycle in words.
  await goTo(a.page, 'Dashboard', 'Welcome back!');
  await expect(a.page.getByTestId('stat-completed')).toHaveText('1');
  await expect(a.page.getByTestId('stat-totalBookings')).toHaveText('1');
  await expect(a.page.getByTestId('stat-openRequests')).toHaveText('0');
  await expect(a.page.getByRole('list', { name: 'Recent activity' })).toContainText(`${bName} delivered "${title}"`);
  await goTo(b.page, 'Dashboard', 'Welcome back!');
  await expect(b.page.getByTestId('stat-completed')).toHaveText('1');
  await expect(b.page.getByTestId('stat-totalBookings')).toHaveText('1');
  const bActivity = b.page.getByRole('list', { name: 'Recent activity' });
  await expect(bActivity).toContainText(`You delivered "${title}"`);
  await expect(bActivity).toContainText(`${aName} chose you to deliver "${title}"`);
  await expectNoAxeViolations(b.page);

  // The driver's browser never saw the code: not on any page, not in any answer from the server.
  await b.page.goBack();
  await expect(b.page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  expect(await b.page.locator('body').innerText()).not.toContain(code);
  for (const body of await Promise.all(driverResponses)) expect(body).not.toContain(code);
  const streamed = await b.page.evaluate(() => (window as unknown as { __streamed: string[] }).__streamed);
  expect(streamed.join('\n')).toContain('"event_type":"completed"');
  expect(streamed.join('\n')).not.toContain(code);

  await a.context.close();
  await b.context.close();
});

test('a confirmed booking cancelled with a reason: both see who and why, the request is open again for offers', async ({
  browser,
}) => {
  test.slow();
  const t = tag();
  const title = `Fence posts ${t}`;
  const aName = `Dora Quinn ${t}`;
  const bName = `Eli Novak ${t}`;
  const a = await newUser(browser, aName);
  const b = await newUser(browser, bName);

  // No compensation: choosing is a plain confirmation (the paid choice is the first story's).
  await postRequest(a.page, title, null);
  await offer(b.page, title);

  // A chooses B with the keyboard alone; Escape first closes the dialog and gives focus back to its button.
  await openRequest(a.page, title);
  const chooseButton = a.page.getByRole('button', { name: `Choose this driver: ${bName}` });
  await chooseButton.focus();
  await a.page.keyboard.press('Enter');
  const choose = a.page.getByRole('alertdialog', { name: `Choose ${bName}?` });
  await expect(choose).toBeVisible();
  await a.page.keyboard.press('Escape');
  await expect(choose).toBeHidden();
  await expect(chooseButton).toBeFocused();
  await expect(status(a.page)).toContainText('Open');
  await a.page.keyboard.press('Enter');
  await expect(choose).toBeVisible();
  // The safe choice has focus first; Tab reaches Confirm.
  await expect(choose.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await a.page.keyboard.press('Tab');
  await expect(choose.getByRole('button', { name: 'Confirm' })).toBeFocused();
  await a.page.keyboard.press('Enter');
  await expectToast(a.page, 'Driver confirmed');
  await expect(status(a.page)).toBeFocused();
  await expect(status(a.page)).toContainText('Matched');

  // B cancels: the Reason is required; Details are optional.
  await openBooking(b.page, title);
  await expect(status(b.page)).toContainText('Confirmed');
  await b.page.getByRole('button', { name: 'Cancel booking' }).click();
  const cancel = b.page.getByRole('dialog', { name: 'Cancel this booking?' });
  await expect(cancel).toBeVisible();
  await cancel.getByRole('button', { name: 'Cancel booking' }).click();
  await expectToast(b.page, 'Validation Error', 'Please choose a reason');
  await expect(cancel.getByLabel('Reason')).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(b.page);
  await cancel.getByLabel('Reason').selectOption({ label: "Can't make it in time" });
  await cancel.getByLabel('Details').fill('The truck broke down.');
  await cancel.getByRole('button', { name: 'Cancel booking' }).click();
  await expectToast(b.page, 'Booking cancelled');
  await expect(cancel).toBeHidden();
  await expect(status(b.page)).toContainText('Cancelled');
  await expect(status(b.page)).toBeFocused();
  await expect(b.page.getByText('Cancelled by you.')).toBeVisible();
  await expect(b.page.getByText("Reason: Can't make it in time").first()).toBeVisible();
  await expect(b.page.getByText('Details: The truck broke down.')).toBeVisible();
  await expect(b.page.getByRole('button', { name: 'Complete delivery' })).toHaveCount(0);
  await expectNoAxeViolations(b.page);

  // A: the booking page (from the 'As requester' tab) says who cancelled and why; the request is open again.
  await openBooking(a.page, title, 'As requester');
  await expect(status(a.page)).toContainText('Cancelled');
  await expect(a.page.getByText(`Cancelled by ${bName} (Driver).`)).toBeVisible();
  await expect(a.page.getByText("Reason: Can't make it in time").first()).toBeVisible();
  await expect(a.page.getByText('Details: The truck broke down.')).toBeVisible();
  await expect(timeline(a.page)).toContainText(`Cancelled by ${bName}`);
  await expect(a.page.getByTestId('delivery-code')).toHaveCount(0);
  await expectNoAxeViolations(a.page);
  await goTo(a.page, 'My Requests', 'My Requests');
  await expect(card(a.page, title)).toContainText('Open');
  await expect(card(a.page, title)).toContainText('No offers yet');

  // B may offer again, and A sees the new offer.
  await offer(b.page, title);
  await a.page.reload();
  await expect(card(a.page, title)).toContainText('1 offer');
  await openRequest(a.page, title);
  await expect(
    a.page.getByRole('region', { name: 'Offers' }).getByRole('button', { name: `Choose this driver: ${bName}` }),
  ).toBeVisible();

  await a.context.close();
  await b.context.close();
});

test('a second offer declined by the requester, a pending offer withdrawn by its driver', async ({ browser }) => {
  test.slow();
  const t = tag();
  const title = `Hay bales ${t}`;
  const aName = `Faye Moss ${t}`;
  const bName = `Gil Park ${t}`;
  const cName = `Hal Voss ${t}`;
  const a = await newUser(browser, aName);
  const b = await newUser(browser, bName);
  const c = await newUser(browser, cName);

  await postRequest(a.page, title);
  await offer(b.page, title);
  await offer(c.page, title);

  await a.page.reload();
  await expect(card(a.page, title)).toContainText('2 offers');
  await openRequest(a.page, title);
  const offers = a.page.getByRole('list', { name: 'Pending offers' });
  await expect(offers.getByRole('listitem')).toHaveCount(2);

  // A declines C's offer: it leaves the list, focus goes to the status.
  await offers.getByRole('button', { name: `Decline offer from ${cName}` }).click();
  await expectToast(a.page, 'Offer declined');
  await expect(offers.getByRole('listitem')).toHaveCount(1);
  await expect(offers).toContainText(bName);
  await expect(status(a.page)).toBeFocused();
  await expect(status(a.page)).toContainText('Open');

  // C sees the decline on their booking and dashboard, and has no action left.
  await openBooking(c.page, title);
  await expect(status(c.page)).toContainText('Declined');
  await expect(timeline(c.page)).toContainText(`Offer declined by ${aName}`);
  await expect(c.page.getByRole('button', { name: 'Withdraw offer' })).toHaveCount(0);
  await goTo(c.page, 'Dashboard', 'Welcome back!');
  await expect(c.page.getByRole('list', { name: 'Recent activity' })).toContainText(
    `${aName} declined your offer on "${title}"`,
  );

  // B withdraws: a confirm dialog, then 'Offer withdrawn'.
  await openBooking(b.page, title);
  await expect(status(b.page)).toContainText('Pending');
  await b.page.getByRole('button', { name: 'Withdraw offer' }).click();
  const withdraw = b.page.getByRole('alertdialog', { name: 'Withdraw your offer?' });
  await expect(withdraw).toContainText(`${aName} will no longer be able to choose you for "${title}".`);
  await expectNoAxeViolations(b.page);
  await withdraw.getByRole('button', { name: 'Withdraw offer' }).click();
  await expectToast(b.page, 'Offer withdrawn');
  await expect(status(b.page)).toContainText('Cancelled');
  await expect(status(b.page)).toBeFocused();
  await expect(timeline(b.page)).toContainText(`Offer withdrawn by ${bName}`);
  await expectNoAxeViolations(b.page);

  // A's request has no offers left and is still open; the driver who withdrew may offer again.
  await a.page.reload();
  await expect(a.page.getByText('No offers yet. Drivers who accept your request will appear here.')).toBeVisible();
  await expect(status(a.page)).toContainText('Open');
  await expectNoAxeViolations(a.page);
  await browseRequests(b.page);
  await expect(card(b.page, title).getByRole('button', { name: `Accept request ${title}` })).toBeVisible();

  await a.context.close();
  await b.context.close();
  await c.context.close();
});
