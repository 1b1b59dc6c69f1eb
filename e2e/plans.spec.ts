import { expect, test } from '@playwright/test';
import { expectNoAxeViolations, expectToast, PASSWORD, uniqueEmail } from './fixtures';
import { goTo, newUser, offer, openRequest, postRequest, tag } from './marketplace-helpers';
import { chooseAndPay } from './payment-helpers';
import { openPage } from './public-helpers';

/**
 * Plans in real browsers (issue 38), on the embedded test provider: a visitor chooses Plus on /pricing, signs in and
 * comes back to Settings > Plan with the plan's dialog open, pays with the test card; as a Plus member they pay no
 * service fee when choosing a driver; the plan's payment is on the 'Paid' tab with its receipt; they cancel, and the
 * page says when the plan ends. axe on each page.
 */
test("Choose Plus on /pricing, sign in, pay; no service fee; the plan's receipt; Cancel plan", async ({ browser }) => {
  test.setTimeout(180_000);
  const t = tag();
  const name = `Pat Plus ${t}`;
  const driverName = `Dee Driver ${t}`;
  const title = `Feed sacks ${t}`;

  // A visitor on /pricing: 'Choose Plus' leads to sign in, and back.
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = uniqueEmail('plus');
  await openPage(page, '/pricing');
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: 'Choose Plus' }).click();
  await expect(page).toHaveURL(/\/auth\?tab=signup&next=/);
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  const created = await page.request.post('/api/auth/sign-up', {
    data: { email, password: PASSWORD, full_name: name, age_confirmed: true },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(created.status()).toBe(201);
  await page.getByRole('tab', { name: 'Sign In' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings\/plan$/);

  // The dialog for Plus is open: the test card pays for the first month.
  const dialog = page.getByRole('dialog', { name: 'Upgrade to Plus' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('You pay $4.99 now');
  await expect(dialog).toContainText('Test mode: no real money moves.');
  await dialog.getByLabel('Card number').fill('4242 4242 4242 4242');
  await dialog.getByLabel('Expiry').fill('12/40');
  await dialog.getByLabel('CVC').fill('123');
  await dialog.getByLabel('ZIP').fill('05401');
  await dialog.getByRole('button', { name: 'Pay and subscribe' }).click();
  await expectToast(page, 'Welcome to Plus');
  const yourPlan = page.getByRole('region', { name: 'Your plan' });
  await expect(yourPlan).toContainText('You are on Plus.');
  await expect(yourPlan).toContainText('Card: Visa ending in 4242');
  await expectNoAxeViolations(page);

  // No service fee: a $15 delivery costs $15.00.
  const driver = await newUser(browser, driverName);
  await postRequest(page, title);
  await offer(driver.page, title);
  await openRequest(page, title);
  await chooseAndPay(page, driverName, { youPay: '$15.00' });

  // The plan's payment on the 'Paid' tab, with its receipt.
  await goTo(page, 'Payments', 'Payments');
  const planPayments = page.getByRole('region', { name: 'Plan payments' });
  await expect(planPayments).toContainText('RuralRoute Plus');
  await planPayments.locator('summary').first().click();
  await expect(planPayments).toContainText('Visa ending in 4242');
  await expectNoAxeViolations(page);

  // Cancel plan: it runs to the end of the month.
  await page.goto('/dashboard/settings/plan');
  await page.getByRole('button', { name: 'Cancel plan' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Cancel Plus?' });
  await confirm.getByRole('button', { name: 'Cancel plan' }).click();
  await expect(yourPlan).toContainText(/Your Plus plan ends on \w+ \d+, \d{4}\./);
  await expect(yourPlan.getByRole('button', { name: 'Keep my plan' })).toBeVisible();
  await expectNoAxeViolations(page);

  // Signed in, a plan button on /pricing goes on through /auth to Settings > Plan.
  await openPage(page, '/pricing');
  await page.getByRole('link', { name: 'Choose Community' }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings\/plan(\?plan=community)?$/);
  await expect(yourPlan).toContainText('You are on Plus.');
  await driver.context.close();
  await context.close();
});
