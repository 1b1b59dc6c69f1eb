import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations, expectToast } from './fixtures';
import { withOwnServerAndPeople } from './own-server';
import { adminTotal, eventually, paidBookingBetween, paymentCard } from './payment-helpers';

/**
 * Chargebacks (issue 36) in real browsers on a server of this spec's own (the admin's role is granted on the command
 * line): a confirmed paid booking; the admin has the test provider's bank open a card dispute of it from the payments
 * page; the booking is held ('Chargeback · On hold', no lifecycle action); the admin closes it lost: the held money
 * covers the loss, the booking is cancelled 'Resolved by RuralRoute' and the totals show the bank's fee lost.
 */

const disputes = (page: Page) => page.getByRole('region', { name: 'Card disputes' });
test('a test chargeback holds the booking; closed lost, the booking is cancelled and the loss shows', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  await withOwnServerAndPeople(browser, 'chargebacks', async ({ t, names, admin, requester, driver }) => {
    const title = `Feed sacks ${t}`;
    const bName = names.driver;
    const bookingId = await paidBookingBetween(requester, driver, { title, driverName: bName });

    // The admin raises a test chargeback from the payments page; it asks first.
    const m = admin.page;
    await m.goto('/dashboard/admin/payments');
    await expect(m.getByRole('heading', { level: 1, name: 'Payments' })).toBeVisible();
    await expect(adminTotal(m, 'Chargeback losses')).toHaveText('$0.00');
    await expect(disputes(m)).toContainText('No card disputes.');
    const row = m.getByRole('list', { name: 'The payments' }).getByRole('listitem').filter({ hasText: title });
    await expect(row).toContainText('Held');
    await row.getByRole('button', { name: `Raise a test chargeback: ${title}` }).click();
    const raise = m.getByRole('alertdialog', { name: 'Raise a test chargeback?' });
    await expect(raise).toContainText('test bank');
    await expect(raise).toContainText("the bank's $15.00 fee are withdrawn");
    await expectNoAxeViolations(m);
    await raise.getByRole('button', { name: 'Raise a test chargeback' }).click();
    await expectToast(m, 'Test chargeback raised');
    await expect(raise).toBeHidden();

    // The bank's events are applied by a job: the page shows the dispute once they are.
    const card = disputes(m).getByRole('article', { name: title });
    await expect(card).toContainText('Needs response');
    await expect(card).toContainText('Holds the booking');
    await expect(card).toContainText('Product not received');
    await expect(card).toContainText(`${names.requester} (requester) · ${bName} (driver)`);
    await expect(row).toContainText('Chargeback');
    await expect(row.getByRole('button', { name: /Raise a test chargeback/ })).toHaveCount(0);
    // Withdrawn: the $16.50 and the bank's $15.00 fee.
    await expect(adminTotal(m, 'Chargeback losses')).toHaveText('$31.50');
    await expectNoAxeViolations(m);

    // The driver's booking page: 'Chargeback', on hold, the bank reviewing it, and no lifecycle action.
    const b = driver.page;
    await b.goto(`/dashboard/bookings/${bookingId}`);
    await expect(paymentCard(b)).toContainText('Chargeback · On hold');
    await expect(paymentCard(b)).toContainText("The requester's bank is reviewing a card dispute");
    await expect(b.getByText(/^Status:/)).toContainText('Confirmed');
    for (const name of ['Mark as picked up', 'Complete delivery', 'Cancel booking', 'Report a problem'])
      await expect(b.getByRole('button', { name })).toHaveCount(0);

    // The admin closes it lost (asked first).
    await card.getByRole('button', { name: `Close as lost: ${title}` }).click();
    const close = m.getByRole('alertdialog', { name: 'Close as lost?' });
    await expect(close).toContainText('the booking is cancelled');
    await close.getByRole('button', { name: 'Close as lost' }).click();
    await expectToast(m, 'Card dispute closed');
    await expect(card.getByText('Lost', { exact: true })).toBeVisible();
    await expect(card.getByRole('button')).toHaveCount(0);
    // The held money covered the card's $16.50: only the bank's fee is lost.
    await expect(adminTotal(m, 'Chargeback losses')).toHaveText('$15.00');
    await expect(card).not.toContainText('Holds the booking');
    await expectNoAxeViolations(m);

    // The booking is cancelled by RuralRoute, the payment still 'Chargeback'.
    await eventually(b, async () => {
      await expect(b.getByText(/^Status:/)).toContainText('Cancelled', { timeout: 1_000 });
    });
    const cancelled = b.getByRole('heading', { name: 'Cancelled' }).locator('xpath=../..');
    await expect(cancelled).toContainText('Cancelled by RuralRoute.');
    await expect(cancelled).toContainText('Resolved by RuralRoute');
    await expect(paymentCard(b)).toContainText('Chargeback');
    await expect(paymentCard(b)).not.toContainText('On hold');
    await expectNoAxeViolations(b);
  });
});
