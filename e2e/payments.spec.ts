import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations, expectToast } from './fixtures';
import { goTo, newUser, offer, openBooking, openRequest, postRequest, tag } from './marketplace-helpers';
import { chooseAndPay, eventually, paymentCard } from './payment-helpers';

/**
 * Payments in two real browsers (issue 35), every step through the UI: the requester pays with the test card, the
 * driver's earnings wait as 'Available' until payouts are set up in Settings, then are paid out; a cancellation
 * before pickup refunds everything. The embedded test provider runs: no real money moves.
 */

/** The 'Earned' tab's totals, as the driver reads them. */
const totals = (page: Page) => page.getByRole('tabpanel', { name: 'Earned' }).locator('dl').first();

test('paid, delivered, Available, payouts set up, Paid out; the requester’s receipt', async ({ browser }) => {
  test.slow();
  const t = tag();
  const title = `Feed sacks ${t}`;
  const bName = `Ben Okafor ${t}`;
  const a = await newUser(browser, `Ana Diaz ${t}`);
  const b = await newUser(browser, bName);

  await postRequest(a.page, title);
  await offer(b.page, title);
  await openRequest(a.page, title);
  await chooseAndPay(a.page, bName);

  // B, before the delivery: $15.00 in progress, nothing available yet.
  await goTo(b.page, 'Payments', 'Payments');
  await expect(b.page.getByText('Test mode: no real money moves.')).toBeVisible();
  await b.page.getByRole('tab', { name: 'Earned' }).click();
  await expect(totals(b.page)).toContainText('In progress$15.00');
  await expect(totals(b.page)).toContainText('Available$0.00');
  await expectNoAxeViolations(b.page);

  // A confirms receiving it: the money is released to B.
  await a.page.getByRole('region', { name: 'Booking' }).getByRole('link', { name: 'View booking' }).click();
  await a.page.getByRole('button', { name: 'Mark as received' }).click();
  await a.page
    .getByRole('alertdialog', { name: 'Mark as received?' })
    .getByRole('button', { name: 'Mark as received' })
    .click();
  await expect(a.page.getByText(/^Status:/)).toContainText('Completed');

  // B: Available until payouts are set up, with the way to set them up.
  await b.page.reload();
  await expect(totals(b.page)).toContainText('Available$15.00');
  await expect(totals(b.page)).toContainText('In progress$0.00');
  const earned = b.page.getByRole('tabpanel', { name: 'Earned' });
  await expect(earned.getByRole('listitem').filter({ hasText: title })).toContainText('Earned');
  await earned.getByRole('link', { name: 'set up payouts' }).click();
  await expect(b.page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const payouts = b.page.getByRole('region', { name: 'Payouts' });
  await expect(payouts).toContainText('Not set up');
  await payouts.getByRole('button', { name: 'Set up payouts' }).click();
  const setup = b.page.getByRole('dialog', { name: 'Set up payouts' });
  await expect(setup).toContainText('Test mode: no real money moves.');
  await expectNoAxeViolations(b.page);
  await setup.getByLabel('Routing number').fill('123456789');
  await setup.getByLabel('Account number').fill('000123456789');
  await setup.getByRole('button', { name: 'Save bank account' }).click();
  await expect(setup.getByText('Enter a valid 9-digit routing number')).toBeVisible();
  await setup.getByLabel('Routing number').fill('110000000');
  await setup.getByRole('button', { name: 'Save bank account' }).click();
  await expectToast(b.page, 'Payouts active');
  await expect(setup).toBeHidden();
  await expect(payouts).toContainText('Payouts active');
  await expect(payouts).toContainText('ending in 6789');

  // The payout job sends what was Available.
  await b.page.goto('/dashboard/payments?tab=earned');
  await eventually(b.page, async () => {
    await expect(totals(b.page)).toContainText('Paid out$15.00', { timeout: 1_000 });
  });
  await expect(totals(b.page)).toContainText('Available$0.00');
  await expectNoAxeViolations(b.page);

  // A: 'Paid' lists the payment, released, with its receipt.
  await goTo(a.page, 'Payments', 'Payments');
  const paid = a.page.getByRole('tabpanel', { name: 'Paid' }).getByRole('listitem').filter({ hasText: title });
  await expect(paid).toContainText('$16.50');
  await expect(paid).toContainText('Released');
  await expectNoAxeViolations(a.page);
  await paid.getByRole('link', { name: `Receipt for ${title}` }).click();
  await expect(a.page.getByRole('heading', { level: 1, name: 'Receipt' })).toBeVisible();
  const receipt = a.page.locator('dl');
  await expect(receipt).toContainText(`Delivery by ${bName}$15.00`);
  await expect(receipt).toContainText('Service fee$1.50');
  await expect(receipt).toContainText('Total paid$16.50');
  await expect(receipt).toContainText('CardVisa ending in 4242');
  await expectNoAxeViolations(a.page);

  await a.context.close();
  await b.context.close();
});

test('cancelled before pickup: the dialog says the refund, and everything goes back', async ({ browser }) => {
  test.slow();
  const t = tag();
  const title = `Hay bales ${t}`;
  const bName = `Ben Okafor ${t}`;
  const a = await newUser(browser, `Ana Diaz ${t}`);
  const b = await newUser(browser, bName);
  await postRequest(a.page, title);
  await offer(b.page, title);
  await openRequest(a.page, title);
  await chooseAndPay(a.page, bName);

  await openBooking(a.page, title, 'As requester');
  await a.page.getByRole('button', { name: 'Cancel booking' }).click();
  const cancel = a.page.getByRole('dialog', { name: 'Cancel this booking?' });
  await expect(cancel).toContainText('You will be refunded $16.50.');
  await expectNoAxeViolations(a.page);
  await cancel.getByLabel('Reason').selectOption({ label: 'Plans changed' });
  await cancel.getByRole('button', { name: 'Cancel booking' }).click();
  await expectToast(a.page, 'Booking cancelled');
  await expect(a.page.getByText(/^Status:/)).toContainText('Cancelled');
  await expect(paymentCard(a.page)).toContainText('Refunded $16.50');

  await goTo(a.page, 'Payments', 'Payments');
  await expect(
    a.page.getByRole('tabpanel', { name: 'Paid' }).getByRole('listitem').filter({ hasText: title }),
  ).toContainText('Refunded $16.50');
  // B hears of it, and earned nothing.
  await goTo(b.page, 'Payments', 'Payments');
  await b.page.getByRole('tab', { name: 'Earned' }).click();
  await expect(
    b.page.getByRole('tabpanel', { name: 'Earned' }).getByRole('listitem').filter({ hasText: title }),
  ).toContainText('Refunded to the requester');

  await a.context.close();
  await b.context.close();
});
