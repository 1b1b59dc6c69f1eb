import { expect, type Page } from '@playwright/test';
import { expectToast } from './fixtures';
import { offerBetween, type personOn } from './own-server';

/**
 * On the request page: choose `driver`'s offer and pay, the booking confirmed. The dialog says what the card pays
 * now (`youPay`: $16.50 for a $15 delivery); with RuralRoute credit it shows 'RuralRoute credit: -{credit}', and when
 * the credit pays it all no card is asked for.
 */
export async function chooseAndPay(
  page: Page,
  driver: string,
  { youPay = '$16.50', credit }: { youPay?: string; credit?: string } = {},
) {
  await page
    .getByRole('region', { name: 'Offers' })
    .getByRole('button', { name: `Choose this driver: ${driver}` })
    .click();
  const dialog = page.getByRole('dialog', { name: `Choose ${driver}?` });
  await expect(dialog).toHaveAccessibleDescription(`You pay ${youPay} now`);
  if (credit) await expect(dialog).toContainText(`RuralRoute credit: -${credit}`);
  if (youPay === '$0.00') {
    await expect(dialog).toContainText('no card is needed');
    await expect(dialog.getByLabel('Card number')).toHaveCount(0);
  } else {
    await dialog.getByLabel('Card number').fill('4242 4242 4242 4242');
    await dialog.getByLabel('Expiry').fill('12/40');
    await dialog.getByLabel('CVC').fill('123');
    await dialog.getByLabel('ZIP').fill('05401');
  }
  await dialog.getByRole('button', { name: 'Pay and confirm' }).click();
  await expectToast(page, 'Driver confirmed');
  await expect(dialog).toBeHidden();
}

/** Reloads the page until `check` holds: money moved by a background job (a refund, a payout) is not pushed. */
export async function eventually(page: Page, check: () => Promise<void>, timeout = 30_000) {
  await expect(async () => {
    await page.reload();
    await check();
  }).toPass({ timeout });
}

/** The booking page's 'Payment' card. */
export const paymentCard = (page: Page) => page.getByRole('heading', { name: 'Payment' }).locator('xpath=../..');

/**
 * `requester`'s request paying $15 and `driver`'s offer (through the API), then the requester chooses and pays in the
 * request page (chooseAndPay's `pay`): the booking's id.
 */
export async function paidBookingBetween(
  requester: Awaited<ReturnType<typeof personOn>>,
  driver: Awaited<ReturnType<typeof personOn>>,
  { title, driverName, ...pay }: { title: string; driverName: string } & Parameters<typeof chooseAndPay>[2],
) {
  const { requestId, bookingId } = await offerBetween(requester, driver, title, { compensation: '15' });
  await requester.page.goto(`/dashboard/requests/${requestId}`);
  await chooseAndPay(requester.page, driverName, pay);
  return bookingId;
}

/** One of the admin payments page's totals ('Chargeback losses', 'Delivery Guarantee reserve'): its amount. */
export const adminTotal = (page: Page, label: string) =>
  page
    .getByRole('term')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]');
