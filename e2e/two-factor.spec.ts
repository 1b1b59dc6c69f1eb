import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { CODE_LABEL, RECOVERY_CODE_LABEL, TWO_FACTOR_TOASTS, USE_RECOVERY_CODE_LABEL } from '../src/shared/two-factor';
import { expectNoAxeViolations, expectToast, PASSWORD, signInByKeyboard, signUpAndSignIn } from './fixtures';
import { goTo } from './marketplace-helpers';

/**
 * Two-factor sign-in in a real browser against the real API: set it up with a code computed here from the
 * key the page shows (as an authenticator app would), keep the recovery codes, sign in with a code and with a
 * recovery code, turn it off.
 */

const STEP_MS = 30_000;
const card = (page: Page) => page.getByRole('region', { name: 'Two-factor authentication' });

/** Long enough for a code to be typed and sent. */
const TYPING_MS = 10_000;

/**
 * The app's code for a time step after `after` (a code is accepted once: the server refuses a step at or before the
 * last one used). The server accepts the step before and the step after the current one (a phone's clock may be off
 * by one step), so three codes in a row need no wait: the earliest step still accepted once the code is typed, then
 * the next ones. Only a fourth code within a minute would wait for the clock. Answers the code and its step.
 */
async function freshCode(secret: string, after = -1) {
  const earliest = Math.floor((Date.now() + TYPING_MS) / STEP_MS) - 1;
  const step = Math.max(after + 1, earliest);
  const wait = (step - 1) * STEP_MS - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait + 250));
  // The middle of the step: the code the app shows for it.
  return { code: await generate({ secret, epoch: step * 30 + 15 }), step };
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
}

test('two-factor: set up from the shown key, sign in with a code and with a recovery code, turn it off', async ({
  page,
  context,
}) => {
  // Each code comes from a later 30-second step than the one before (see freshCode: no wait for three codes).
  test.setTimeout(60_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { email } = await signUpAndSignIn(page, 'Tess Twofactor');

  // Settings: off, then 'Set up' shows the QR code and the key (just signed in: no re-check needed).
  await goTo(page, 'Settings', 'Settings');
  await expect(card(page).getByText(/Two-factor authentication is off/)).toBeVisible();
  await expectNoAxeViolations(page);
  await card(page).getByRole('button', { name: 'Set up' }).click();
  await expect(card(page).getByRole('img', { name: /QR code/ })).toBeVisible();
  const secret = (await card(page).locator('code').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expectNoAxeViolations(page);

  // The app's code turns it on; the 10 recovery codes are shown once.
  const first = await freshCode(secret);
  const codeField = card(page).getByLabel(CODE_LABEL);
  await codeField.focus();
  await page.keyboard.type(first.code);
  await page.keyboard.press('Enter');
  await expectToast(page, TWO_FACTOR_TOASTS.enabled);
  const list = card(page).getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const codes = await list.getByRole('listitem').allInnerTexts();
  for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
  await expectNoAxeViolations(page);

  // 'Download' saves them as a .txt file; 'Copy' puts them on the clipboard.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card(page).getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('ruralroute-recovery-codes.txt');
  const saved = readFileSync((await download.path())!, 'utf8');
  for (const code of codes) expect(saved).toContain(code);
  await card(page).getByRole('button', { name: 'Copy', exact: true }).click();
  await expectToast(page, TWO_FACTOR_TOASTS.copied);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join('\n'));
  await card(page).getByRole('button', { name: 'Done' }).click();
  await expect(card(page).getByText('You have 10 recovery codes left.')).toBeVisible();

  // Signing in now asks for the code after the password; the dashboard waits for it.
  await signOut(page);
  await signInByKeyboard(page, email, PASSWORD);
  const signInCode = page.getByLabel(CODE_LABEL);
  await expect(signInCode).toBeFocused();
  await expect(page).toHaveURL(/\/auth/);
  await expectNoAxeViolations(page);
  // Still signed out meanwhile: the dashboard sends me back.
  expect(((await (await page.request.get('/api/auth/session')).json()) as { user: unknown }).user).toBeNull();
  // The code already used to turn it on is refused (a replay), and says so on the field.
  await page.keyboard.type(first.code);
  await page.keyboard.press('Enter');
  await expect(signInCode).toHaveAttribute('aria-invalid', 'true');
  const second = await freshCode(secret, first.step);
  await signInCode.fill('');
  await page.keyboard.type(second.code);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);

  // A recovery code works instead, once.
  await signOut(page);
  await signInByKeyboard(page, email, PASSWORD);
  await expect(page.getByLabel(CODE_LABEL)).toBeFocused();
  await page.getByRole('button', { name: USE_RECOVERY_CODE_LABEL }).click();
  const recovery = page.getByLabel(RECOVERY_CODE_LABEL);
  await expect(recovery).toBeFocused();
  await expectNoAxeViolations(page);
  await page.keyboard.type(codes[0]!.toUpperCase());
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);

  // 'Turn off' needs a current code, in a dialog.
  await goTo(page, 'Settings', 'Settings');
  await expect(card(page).getByText('You have 9 recovery codes left.')).toBeVisible();
  await card(page).getByRole('button', { name: 'Turn off' }).click();
  const dialog = page.getByRole('dialog', { name: 'Turn off two-factor authentication?' });
  await expect(dialog.getByLabel(CODE_LABEL)).toBeFocused();
  await expectNoAxeViolations(page);
  const third = await freshCode(secret, second.step);
  await page.keyboard.type(third.code);
  await page.keyboard.press('Enter');
  await expectToast(page, TWO_FACTOR_TOASTS.disabled);
  await expect(dialog).toBeHidden();
  await expect(card(page).getByRole('button', { name: 'Set up' })).toBeVisible();

  // Off again: the password alone signs in.
  await signOut(page);
  await signInByKeyboard(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("'Cancel' on the code step signs the half-done session out and shows the sign-in form again", async ({ page }) => {
  const { email } = await signUpAndSignIn(page, 'Cal Cancel');
  await goTo(page, 'Settings', 'Settings');
  await card(page).getByRole('button', { name: 'Set up' }).click();
  const secret = (await card(page).locator('code').innerText()).replace(/\s+/g, '');
  await card(page)
    .getByLabel(CODE_LABEL)
    .fill((await freshCode(secret)).code);
  await card(page).getByRole('button', { name: 'Turn on' }).click();
  await expectToast(page, TWO_FACTOR_TOASTS.enabled);
  await card(page).getByRole('button', { name: 'Done' }).click();

  await signOut(page);
  await signInByKeyboard(page, email, PASSWORD);
  await expect(page.getByLabel(CODE_LABEL)).toBeFocused();
  // Reopening /auth keeps the step: the session is still waiting for a code.
  await page.reload();
  await expect(page.getByLabel(CODE_LABEL)).toBeVisible();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByLabel(CODE_LABEL)).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByLabel(CODE_LABEL)).toHaveCount(0);
});
