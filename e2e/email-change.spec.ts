import { expect, test } from '@playwright/test';
import { EMAIL_CHANGED_TOAST, EMAIL_LINK_EXPIRED, waitingForConfirmation } from '../src/shared/account';
import { expectNoAxeViolations, expectToast, PASSWORD, signInByKeyboard, uniqueEmail } from './fixtures';
import { E2E_DATA_DIR, mailsWithSubject } from './mail-helpers';

/** Settings 'Email' end to end, with the link read from the mail the app wrote. */

const CONFIRM_SUBJECT = 'Confirm your new RuralRoute e-mail address';
const NOTICE_SUBJECT = 'Your e-mail address was changed';

const confirmLinkIn = (dataDir: string, to: string) =>
  mailsWithSubject(dataDir, to, CONFIRM_SUBJECT)[0]?.text.match(
    /https?:\/\/[^\s<>"')\]]+\/confirm-email\?token=[\w-]+/,
  )?.[0];

test("'Email': the link mailed to the new address changes it, the old one is told, and only the new one signs in", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const dataDir = E2E_DATA_DIR;
  const base = baseURL!;
  const oldEmail = uniqueEmail('old');
  const newEmail = uniqueEmail('new');
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  const signUp = await page.request.post('/api/auth/sign-up', {
    data: { email: oldEmail, password: PASSWORD, full_name: 'Edna Email', age_confirmed: true },
    headers: { origin: base },
  });
  expect(signUp.status()).toBe(201);
  await signInByKeyboard(page, oldEmail, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);

  // Settings, 'Email' (right after 'Profile'): by keyboard, the new address, Tab, the password, Enter.
  await page.goto('/dashboard/settings');
  const card = page.getByRole('region', { name: 'Email' });
  await expect(card.getByText(oldEmail)).toBeVisible();
  await expectNoAxeViolations(page);
  await card.getByLabel('New email').focus();
  await page.keyboard.type(newEmail);
  await page.keyboard.press('Tab');
  await expect(card.getByLabel('Current password')).toBeFocused();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Tab');
  await expect(card.getByRole('button', { name: 'Change email' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expectToast(page, 'Check your new inbox', newEmail);
  await expect(card.getByText(waitingForConfirmation(newEmail))).toBeVisible();
  await expect(card.getByRole('button', { name: 'Cancel change' })).toBeVisible();
  await expectNoAxeViolations(page);
  // Still waiting after a reload; the address has not changed yet.
  await page.reload();
  await expect(card.getByText(waitingForConfirmation(newEmail))).toBeVisible();
  await expect(card.getByText(oldEmail)).toBeVisible();

  // The job writes the mail to the NEW address within about a second.
  await expect.poll(() => confirmLinkIn(dataDir, newEmail), { timeout: 20_000 }).toBeTruthy();
  const link = confirmLinkIn(dataDir, newEmail)!;
  expect(link.startsWith(`${base}/confirm-email?token=`)).toBe(true);

  // Opened in a fresh browser (the mail program's), signed out.
  const fresh = await browser.newContext({ baseURL: base });
  const mailPage = await fresh.newPage();
  await mailPage.goto(link);
  await expect(mailPage.getByRole('heading', { level: 1, name: EMAIL_CHANGED_TOAST })).toBeVisible();
  await expectToast(mailPage, EMAIL_CHANGED_TOAST);
  await expect(mailPage.getByText(newEmail)).toBeVisible();
  await expect(mailPage).toHaveTitle('Confirm your new email — RuralRoute');
  await expect(mailPage.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await expect(mailPage.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await expectNoAxeViolations(mailPage);

  // The old address got the security notice, naming the new one.
  await expect.poll(() => mailsWithSubject(dataDir, oldEmail, NOTICE_SUBJECT).length, { timeout: 20_000 }).toBe(1);
  expect(mailsWithSubject(dataDir, oldEmail, NOTICE_SUBJECT)[0]!.text).toContain(`changed to ${newEmail}`);
  expect(mailsWithSubject(dataDir, newEmail, NOTICE_SUBJECT)).toEqual([]);

  // The first browser is still signed in and shows the new address, nothing waiting.
  await page.reload();
  await expect(card.getByText(newEmail)).toBeVisible();
  await expect(card.getByText(/Waiting for confirmation/)).toHaveCount(0);

  // Used once: the link again says it has expired, with the way to ask again.
  await mailPage.goto(link);
  await expect(mailPage.getByText(EMAIL_LINK_EXPIRED)).toBeVisible();
  await expect(mailPage.getByRole('link', { name: 'Ask for a new one' })).toHaveAttribute(
    'href',
    '/dashboard/settings',
  );
  await expectNoAxeViolations(mailPage);

  // Signed out, the old address no longer signs in; the new one does.
  await page
    .getByRole('complementary', { name: 'Dashboard navigation' })
    .getByRole('button', { name: 'Sign Out' })
    .click();
  await expect(page).toHaveURL(/:\d+\/$/);
  await signInByKeyboard(page, oldEmail, PASSWORD);
  await expectToast(page, 'Error', 'Invalid email or password');
  await expect(page).toHaveURL(/\/auth(\?next=[^&]+)?$/);
  await signInByKeyboard(page, newEmail, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);

  for (const c of [context, fresh]) await c.close();
});
