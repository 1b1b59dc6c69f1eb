import { expect, test } from '@playwright/test';
import { expectNoAxeViolations, expectToast, PASSWORD, signUpAndSignIn, uniqueEmail } from './fixtures';
import { openPage } from './public-helpers';

test('sign up, sign in, use the dashboard shell, reload, sign out', async ({ page, context }) => {
  const email = uniqueEmail('flow');
  await openPage(page, '/auth');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Sign Up' }).click();

  await page.getByLabel('Full Name').fill('Rosa Hill');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('alllowercase1!');
  await page.getByLabel('I confirm I am 18 or older').check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expectToast(page, 'Validation Error', 'Password must contain at least one uppercase letter');

  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expectToast(page, 'Success!', 'Account created successfully. You can now sign in.');

  // Back on Sign In with the email filled in.
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Welcome back!' })).toBeVisible();
  await expect(page.getByText('RuralRoute Dashboard')).toBeVisible();
  const nav = page.getByRole('complementary', { name: 'Dashboard navigation' });
  await expect(nav.getByRole('heading', { name: 'Menu' })).toBeVisible();
  for (const name of ['Dashboard', 'My Rides', 'My Requests', 'Browse Rides', 'Browse Requests', 'My Bookings'])
    await expect(nav.getByRole('link', { name })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');

  // Dashboard is an exact match: on a child page only the child is active.
  await nav.getByRole('link', { name: 'My Rides' }).click();
  await expect(page).toHaveURL(/\/dashboard\/rides$/);
  await expect(nav.getByRole('link', { name: 'My Rides' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current', 'page');

  // Ctrl+B collapses to icons (3rem) and the state is remembered in a 7-day cookie, across a reload.
  const sidebar = page.getByTestId('sidebar');
  await expect(sidebar).toHaveAttribute('data-state', 'expanded');
  expect((await sidebar.boundingBox())?.width).toBe(256);
  await page.keyboard.press('Control+b');
  await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
  await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(48);
  const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state');
  expect(cookie?.value).toBe('false');
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(604800 - 60);

  await page.reload();
  await expect(page).toHaveURL(/\/dashboard\/rides$/);
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'collapsed');
  await page.getByRole('button', { name: 'Toggle Sidebar' }).click();
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'expanded');

  // A new browser page with the same cookies (as after a browser restart) is still signed in.
  const again = await context.newPage();
  await again.goto('/dashboard');
  await expect(again.getByRole('heading', { name: 'Welcome back!' })).toBeVisible();
  await again.close();

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth(\?next=[^&]+)?$/);
});

test('sign-out revokes the session on the server, not only in this browser', async ({ page, context }) => {
  await signUpAndSignIn(page);
  const token = (await context.cookies()).find((c) => c.name === '__Host-rr_session')!.value;
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  const res = await page.request.get('/api/auth/session', { headers: { authorization: `Bearer ${token}` } });
  expect(await res.json()).toEqual({ user: null, session: null });
});

test('a signed-out visit to the dashboard lands on /auth, which knows the page to come back to', async ({ page }) => {
  await page.goto('/dashboard/bookings');
  await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard%2Fbookings$/);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
});

test('wrong password and unknown email show the same Error toast', async ({ page }) => {
  const { email } = await signUpAndSignIn(page);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  // Signed out once home shows: navigating sooner can cut the sign-out request off, and /auth then sends the
  // still signed-in person to the dashboard.
  await expect(page).toHaveURL(/\/$/);
  await openPage(page, '/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('Not-the-password-1');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expectToast(page, 'Error', 'Invalid email or password.');
  await page.getByLabel('Email').fill(uniqueEmail('ghost'));
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Invalid email or password.' })).toHaveCount(2);
  await expect(page).toHaveURL(/\/auth(\?next=[^&]+)?$/);
});

test('an email already registered gets an Error toast', async ({ page }) => {
  const { email } = await signUpAndSignIn(page);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  // Signed out once home shows: navigating sooner can cut the sign-out request off, and /auth then sends the
  // still signed-in person to the dashboard.
  await expect(page).toHaveURL(/\/$/);
  await openPage(page, '/auth?tab=signup');
  await page.getByLabel('Full Name').fill('Someone Else');
  await page.getByLabel('Email').fill(email.toUpperCase());
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('I confirm I am 18 or older').check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expectToast(page, 'Error', 'An account with this email already exists. Please sign in instead.');
});

test('on a phone the sidebar opens as a sheet (18rem)', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await signUpAndSignIn(page);
  await expect(page.getByTestId('sidebar')).toHaveCount(0);
  await page.getByRole('button', { name: 'Toggle Sidebar' }).click();
  const sheet = page.getByRole('dialog', { name: 'Dashboard navigation' });
  await expect(sheet).toBeVisible();
  await expect.poll(async () => (await sheet.boundingBox())?.width).toBe(288);
  await sheet.getByRole('link', { name: 'My Requests' }).click();
  await expect(page).toHaveURL(/\/dashboard\/requests$/);
  await expect(sheet).toBeHidden();
});

test('unknown paths show the 404 page and log the path', async ({ page }) => {
  const messages: string[] = [];
  page.on('console', (m) => messages.push(m.text()));
  const res = await page.goto('/no/such/place');
  expect(res?.status()).toBe(404);
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  // Logged from the page's effect, which may run a moment after the text shows.
  await expect.poll(() => messages.some((m) => m.includes('/no/such/place'))).toBe(true);
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('auth and dashboard pages pass axe and work by keyboard', async ({ page }) => {
  await openPage(page, '/auth');
  // Prerendered: judged once the app has taken it over (openPage), as a person would use it.
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expectNoAxeViolations(page);
  await signUpAndSignIn(page);
  await expectNoAxeViolations(page);
  // Keyboard: tab to the first sidebar link and follow it with Enter.
  await page.getByRole('link', { name: 'My Bookings' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/bookings$/);
});

test('sign-up validation is the spec toast, not the browser bubble, and sends nothing', async ({ page }) => {
  const signUps: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/auth/sign-up')) signUps.push(r.method());
  });
  await openPage(page, '/auth?tab=signup');

  // An empty form: Chromium's own validation would stop this submit with a bubble and no toast.
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expectToast(page, 'Validation Error', 'Invalid email address');
  await expect(page.getByRole('form', { name: 'Sign up' })).toHaveAttribute('novalidate');
  await expect(page.getByLabel('Email')).toBeFocused();
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Full Name')).toHaveAttribute('aria-required', 'true');

  await page.getByLabel('Full Name').fill('Rosa Hill');
  await page.getByLabel('Email').fill('rosa@');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expectToast(page, 'Validation Error', 'Invalid email address');

  await page.getByLabel('Email').fill(uniqueEmail('bubble'));
  await page.getByLabel('Password', { exact: true }).fill('Short1!');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expectToast(page, 'Validation Error', 'Password must be at least 12 characters');

  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expectToast(page, 'Validation Error', 'You must be 18 or older to use RuralRoute.');
  await expect(page.getByLabel('I confirm I am 18 or older')).toBeFocused();
  expect(signUps).toEqual([]);
});

test("a common password is the server's refusal, shown under the field; no phone downloads the list", async ({
  page,
}) => {
  const scripts: string[] = [];
  const signUps: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    if (r.url().endsWith('/api/auth/sign-up')) signUps.push(r.method());
  });

  await openPage(page, '/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('Full Name').fill('Rosa Hill');
  await page.getByLabel('Email').fill(uniqueEmail('common'));
  await page.getByLabel('Password', { exact: true }).fill('Password123!');
  await page.getByLabel('I confirm I am 18 or older').check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expectToast(page, 'Validation Error', 'This password is too common. Choose another.');
  const password = page.getByLabel('Password', { exact: true });
  await expect(password).toBeFocused();
  await expect(password).toHaveAccessibleDescription('This password is too common. Choose another.');
  // The server decided (one refused request); the list (about 200 KB compressed) never came to the browser.
  expect(signUps).toEqual(['POST']);
  expect(scripts.some((s) => s.includes('common-passwords'))).toBe(false);
});
