import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations, expectToast } from './fixtures';
import { withOwnServerAndPeople } from './own-server';
import { adminTotal, eventually, paidBookingBetween } from './payment-helpers';

/**
 * A Delivery Guarantee claim end to end (issue 36) in real browsers on a server of this spec's own: the admin adds
 * $100 to the reserve; a paid delivery is completed; the requester reports it damaged, the item worth $40 (more than
 * the $16.50 they paid); the admin approves $40: $16.50 goes back to the card and $23.50 is RuralRoute credit, which
 * pays the requester's next delivery in full (no card asked).
 */

const problem = (page: Page) => page.getByRole('region', { name: 'Problem reported' });
const credit = (page: Page) => page.getByRole('tabpanel', { name: 'Paid' }).getByText(/^RuralRoute credit:/);

test('the admin funds the reserve; a damaged item worth more than was paid is approved; the credit pays next time', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  await withOwnServerAndPeople(browser, 'guarantee', async ({ t, names, admin, requester, driver }) => {
    const title = `Milk churn ${t}`;
    const driverName = names.driver;
    const a = requester.page;
    const m = admin.page;

    // The admin adds $100 to the reserve: a note is required, and the reserve's total shows it.
    await m.goto('/dashboard/admin/payments');
    const reserve = m.getByRole('form', { name: 'Add to the reserve' });
    await reserve.getByLabel('Amount').fill('100');
    await reserve.getByRole('button', { name: 'Add to the reserve' }).click();
    await expect(reserve.getByText('Write where the money comes from (at most 500 characters)')).toBeVisible();
    await expect(reserve.getByLabel('Note')).toBeFocused();
    await expectNoAxeViolations(m);
    await reserve.getByLabel('Note').fill('Seed money from the county grant');
    await reserve.getByRole('button', { name: 'Add to the reserve' }).click();
    await expectToast(m, 'Added to the reserve');
    await expect(reserve.getByLabel('Amount')).toHaveValue('');
    await expect(adminTotal(m, 'Delivery Guarantee reserve')).toHaveText('$100.00');

    // Paid with the card and received.
    const bookingId = await paidBookingBetween(requester, driver, { title, driverName });
    await a.goto(`/dashboard/bookings/${bookingId}`);
    await a.getByRole('button', { name: 'Mark as received' }).click();
    await a
      .getByRole('alertdialog', { name: 'Mark as received?' })
      .getByRole('button', { name: 'Mark as received' })
      .click();
    await expect(a.getByText(/^Status:/)).toContainText('Completed');

    // A reports it damaged, worth $40: a Delivery Guarantee claim.
    await a.getByRole('button', { name: 'Report a problem' }).click();
    const report = a.getByRole('dialog', { name: 'Report a problem' });
    await report.getByLabel('What happened').selectOption({ label: 'Damaged' });
    await report.getByLabel('Item value').fill('40');
    await report.getByLabel('Details').fill('The churn arrived dented and half the milk had leaked.');
    await report.getByRole('button', { name: 'Report a problem' }).click();
    await expectToast(a, 'Problem reported. We will get back to you within 2 days.');
    await expect(report).toBeHidden();
    await expect(problem(a)).toContainText('Damaged');

    // The admin approves $40 (more than the $16.50 paid).
    await m.goto('/dashboard/admin/disputes');
    const claim = m.getByRole('article', { name: `Damaged: ${title}` });
    await expect(claim).toContainText('$40.00');
    await claim.getByLabel('Note to both people').fill('The guarantee covers the churn.');
    await claim.getByLabel('Amount to pay').fill('40');
    await claim.getByRole('button', { name: 'Approve claim' }).click();
    const confirm = m.getByRole('alertdialog', { name: 'Approve claim?' });
    await expect(confirm).toContainText(`The Delivery Guarantee pays ${names.requester} $40.00.`);
    await confirm.getByRole('button', { name: 'Approve claim' }).click();
    await expectToast(m, 'Decision recorded.');

    // A reads the decision; the card gets the $16.50 paid back and the rest is RuralRoute credit.
    await eventually(a, async () => {
      await expect(problem(a)).toContainText('Claim approved: $40.00.', { timeout: 1_000 });
    });
    await expect(problem(a)).toContainText('The guarantee covers the churn.');
    await a.goto('/dashboard/payments');
    await expect(credit(a)).toHaveText('RuralRoute credit: $23.50');
    await expectNoAxeViolations(a);

    // The next delivery: the credit pays it all, no card asked; $7.00 is left.
    const nextTitle = `Egg trays ${t}`;
    await paidBookingBetween(requester, driver, { title: nextTitle, driverName, youPay: '$0.00', credit: '$16.50' });
    await a.goto('/dashboard/payments');
    await expect(credit(a)).toHaveText('RuralRoute credit: $7.00');
    await expect(
      a.getByRole('tabpanel', { name: 'Paid' }).getByRole('listitem').filter({ hasText: nextTitle }),
    ).toContainText('Held');
  });
});
