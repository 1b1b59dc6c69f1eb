import { expect, test, type Page } from '@playwright/test';
import { PASSWORD, uniqueEmail } from './fixtures';

/**
 * /auth is prerendered: readable and typed into before any script runs, hydrated without a mismatch
 * (which would re-render the form and wipe what was typed), and signing in works once the script arrives.
 */

/** The app's entry chunk, which the prerendered page's one script (src/client/boot.ts, inline) loads. */
const APP_ENTRY = /\/assets\/index-[^/]+\.js$/;

/** Holds a script for `ms` (or until released): the line is slow, the HTML is there, the app is not. */
async function delayScripts(page: Page, script = APP_ENTRY, ms = 2000) {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(script, async (route) => {
    await Promise.race([released, new Promise((r) => setTimeout(r, ms))]);
    await route.continue();
  });
  return release;
}

function collectErrors(page: Page) {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

async function newAccount(page: Page, baseURL: string) {
  const email = uniqueEmail('prerender');
  const res = await page.request.post('/api/auth/sign-up', {
    data: { email, password: PASSWORD, full_name: 'Slow Line', age_confirmed: true },
    headers: { origin: baseURL },
  });
  expect(res.status()).toBe(201);
  return email;
}

/** Opens a page without waiting for its scripts (the load event, even DOMContentLoaded, waits for module scripts). */
const openEarly = (page: Page, url: string) => page.goto(url, { waitUntil: 'commit' });

const ready = (page: Page) => page.locator('html[data-ready="true"]');

test('with JavaScript off, /auth and /auth?tab=signup show their text and forms', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const res = await page.goto('/auth');
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome to RuralRoute');
  await expect(page).toHaveTitle('Sign in or sign up — RuralRoute');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page.getByLabel('Password')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Sign in' })).toHaveAttribute('method', 'post');

  // Sent with no script at all: posted to the page (never a GET with the password in the address), sent again.
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  await page.getByLabel('Email').fill('someone@example.com');
  await page.getByLabel('Password').fill('Secret-password-1');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/auth(\?next=[^&]+)?$/);
  await expect(page.getByLabel('Password')).toBeVisible();
  expect(urls.some((u) => u.includes('Secret-password'))).toBe(false);

  await page.goto('/auth?tab=signup');
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  for (const label of ['Full Name', 'Email']) await expect(page.getByLabel(label)).toBeVisible();
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();
  await context.close();
});

test('typed before the script arrives, kept after hydration; signing in then works', async ({ page, baseURL }) => {
  const email = await newAccount(page, baseURL!);
  const errors = collectErrors(page);
  const release = await delayScripts(page);
  await openEarly(page, '/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  // Still the prerendered page: the app has not taken it over.
  await expect(ready(page)).toHaveCount(0);
  release();
  await expect(ready(page)).toHaveCount(1);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('Password')).toHaveValue(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Welcome back!' })).toBeVisible();
  expect(errors).toEqual([]);

  // Signed in, /auth (prerendered signed out) hydrates, then goes to the dashboard.
  await page.goto('/auth');
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(errors).toEqual([]);
});

test('Sign In pressed before the app arrives is sent once it is ready', async ({ page, baseURL }) => {
  const email = await newAccount(page, baseURL!);
  const errors = collectErrors(page);
  // The page's boot script is there (inline; it holds the submit); the app's code is still on its way.
  const release = await delayScripts(page);
  const signIns: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/auth/sign-in')) signIns.push(r.method());
  });
  await page.goto('/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  // Held, not posted: still this page, with what was typed.
  await expect(page).toHaveURL(/\/auth(\?next=[^&]+)?$/);
  await expect(page.getByLabel('Password')).toHaveValue(PASSWORD);
  await expect(ready(page)).toHaveCount(0);
  release();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(signIns).toEqual(['POST']);
  expect(errors).toEqual([]);
});

test('/auth?tab=signup is prerendered with Sign Up open and hydrates as it was sent', async ({ page }) => {
  const errors = collectErrors(page);
  const release = await delayScripts(page);
  await openEarly(page, '/auth?tab=signup');
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  await page.getByLabel('Full Name').fill('Rosa Hill');
  await page.getByLabel('Email').fill('rosa@example.com');
  await expect(ready(page)).toHaveCount(0);
  release();
  await expect(ready(page)).toHaveCount(1);
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Full Name')).toHaveValue('Rosa Hill');
  await expect(page.getByLabel('Email')).toHaveValue('rosa@example.com');
  // The app works: the tabs switch.
  await page.getByRole('tab', { name: 'Sign In' }).click();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  expect(errors).toEqual([]);
});
