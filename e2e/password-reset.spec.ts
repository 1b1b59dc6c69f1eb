import { expect, test, type Page } from '@playwright/test';
import { FORGOT_PASSWORD_ANSWER, PASSWORD_UPDATED_TOAST, RESET_LINK_EXPIRED } from '../src/shared/account';
import { expectNoAxeViolations, expectToast, PASSWORD, signInByKeyboard, uniqueEmail } from './fixtures';
import { E2E_DATA_DIR, mailsTo, mailsWithSubject } from './mail-helpers';
import { openPage } from './public-helpers';

/** 'Forgot password?' end to end, with the link read from the mail the app wrote. */

const SUBJECT = 'Reset your RuralRoute password';
const NEW_PASSWORD = 'Fresh-Meadow-42';

/** Every reset mail to `to`, newest first. */
const resetMailsTo = (dataDir: string, to: string) => mailsWithSubject(dataDir, to, SUBJECT);

/** The reset link of the newest reset mail to `to`. */
function resetLinkIn(dataDir: string, to: string): string | undefined {
  const text = resetMailsTo(dataDir, to)[0]?.text ?? '';
  return text.match(/https?:\/\/[^\s<>"')\]]+\/auth\/reset-password\?token=[A-Za-z0-9_-]+/)?.[0];
}

/** Asks for a link on /auth/forgot-password by keyboard and waits for the server's answer. */
async function askForLink(page: Page, email: string) {
  const field = page.getByLabel('Email');
  await field.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText(FORGOT_PASSWORD_ANSWER);
}

test('forgot password: the e-mailed link sets a new password once, ends every session, and the old one fails', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const dataDir = E2E_DATA_DIR;
  const base = baseURL!;
  const email = uniqueEmail('reset');
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  const signUp = await page.request.post('/api/auth/sign-up', {
    data: { email, password: PASSWORD, full_name: 'Ruth Reset', age_confirmed: true },
    headers: { origin: base },
  });
  expect(signUp.status()).toBe(201);

  // Signed in elsewhere (another browser): that session ends with the reset too.
  const elsewhere = await browser.newContext({ baseURL: base });
  const other = await elsewhere.newPage();
  await signInByKeyboard(other, email, PASSWORD);
  await expect(other).toHaveURL(/\/dashboard$/);

  // /auth, Sign In tab: the e-mail typed, then Tab past the password to 'Forgot password?'.
  await openPage(page, '/auth');
  await page.getByLabel('Email').focus();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  const forgot = page.getByRole('link', { name: 'Forgot password?' });
  await expect(forgot).toBeFocused();
  await expect(forgot).not.toHaveCSS('box-shadow', 'none');
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/auth\/forgot-password$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Forgot password?' })).toBeVisible();
  await expect(page).toHaveTitle('Forgot password — RuralRoute');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  // The e-mail came along; Enter in the field sends the link.
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expectNoAxeViolations(page);
  await page.getByLabel('Email').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText(FORGOT_PASSWORD_ANSWER);
  await expectNoAxeViolations(page);

  // The job writes the mail within about a second.
  await expect.poll(() => resetLinkIn(dataDir, email), { timeout: 20_000 }).toBeTruthy();
  const link = resetLinkIn(dataDir, email)!;
  expect(link.startsWith(`${base}/auth/reset-password?token=`)).toBe(true);

  // Opened from the mail program: choose a new password, by keyboard.
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
  await expect(page).toHaveTitle('Choose a new password — RuralRoute');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  const newPassword = page.getByLabel('New password', { exact: true });
  await expect(newPassword).toBeFocused();
  await expectNoAxeViolations(page);
  await page.keyboard.type(NEW_PASSWORD);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Confirm new password')).toBeFocused();
  await page.keyboard.type(`${NEW_PASSWORD}x`);
  await page.keyboard.press('Enter');
  await expectToast(page, 'Validation Error', 'Passwords do not match');
  await expect(page.getByLabel('Confirm new password')).toBeFocused();
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Enter');

  await expectToast(page, PASSWORD_UPDATED_TOAST);
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');

  // Every session ended, the other browser's too.
  await other.goto('/dashboard');
  await expect(other).toHaveURL(/\/auth$/);

  // The old password is refused; the new one works.
  await signInByKeyboard(page, email, PASSWORD);
  await expectToast(page, 'Error', 'Invalid email or password');
  await expect(page).toHaveURL(/\/auth$/);
  await signInByKeyboard(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);

  // The link works once.
  await page.goto(link);
  await expect(page.getByText(RESET_LINK_EXPIRED)).toBeVisible();
  await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
  await expectNoAxeViolations(page);
  const askAgain = page.getByRole('link', { name: 'Ask for a new one' });
  await askAgain.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Forgot password?' })).toBeVisible();

  // An unknown address gets the same answer, and no mail.
  const unknown = uniqueEmail('nobody');
  await askForLink(page, unknown);
  // A barrier: a link asked for afterwards has been mailed, so the unknown address's job has run by then.
  const before = resetMailsTo(dataDir, email).length;
  await askForLink(page, email);
  await expect.poll(() => resetMailsTo(dataDir, email).length, { timeout: 20_000 }).toBe(before + 1);
  expect(resetMailsTo(dataDir, unknown)).toEqual([]);
  expect(mailsTo(dataDir, unknown, () => true)).toEqual([]);

  for (const c of [context, elsewhere]) await c.close();
});
