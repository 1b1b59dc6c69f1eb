import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { openPage } from './public-helpers';

export const PASSWORD = 'Correct-Horse-9';

export function uniqueEmail(tag = 'user') {
  return `${tag}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Creates an account through the UI's API (same origin, same cookies) and signs the page in. */
export async function signUpAndSignIn(page: Page, fullName = 'Test Neighbour') {
  const email = uniqueEmail();
  await openPage(page, '/auth');
  const res = await page.request.post('/api/auth/sign-up', {
    data: { email, password: PASSWORD, full_name: fullName, age_confirmed: true },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(res.status()).toBe(201);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // The address changes at once; the dashboard shows once its code is in (the sign-in page stays until then).
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back!' })).toBeVisible();
  return { email };
}

/** Signs in on /auth by keyboard: focus the e-mail, type, Tab to the password, type, Enter. */
export async function signInByKeyboard(page: Page, email: string, password: string) {
  await openPage(page, '/auth');
  await page.getByLabel('Email').focus();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
}

/** The spec's toasts: a title and a description, inside sonner's live region. */
export async function expectToast(page: Page, title: string, description?: string) {
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: title });
  await expect(toast.first()).toBeVisible();
  if (description) await expect(toast.filter({ hasText: description }).first()).toBeVisible();
}

export async function expectNoAxeViolations(page: Page) {
  // A toast fading in or out is part transparent, and axe would judge its blended colours: wait until every toast has
  // settled, then analyse. That is the toast itself and its content: a toast pushed behind a newer one fades its
  // content out (sonner), and one being dismissed fades whole. A live toast may still start appearing between the two
  // (the live stream), so the pair is retried: a real violation stays and fails after the timeout, a toast caught
  // mid-fade does not.
  await expect(async () => {
    await expect
      .poll(() =>
        page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('[data-sonner-toast]')].every(
            (t) =>
              t.dataset.removed !== 'true' &&
              getComputedStyle(t).opacity === '1' &&
              [...t.children].every((c) => ['0', '1'].includes(getComputedStyle(c).opacity)),
          ),
        ),
      )
      .toBe(true);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }).toPass({ timeout: 20_000 });
}
