import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PASSWORD, signUpAndSignIn, uniqueEmail } from './fixtures';
import { goTo, postRideThroughApi, tag } from './marketplace-helpers';

/**
 * When the person signed in on this browser changes under an open dashboard (another tab signed
 * someone else in, or the session cookie changed), nothing of the previous person stays on screen.
 */

const activity = (page: Page) => page.getByRole('list', { name: 'Recent activity' });
const NOTHING_YET = 'No recent activity yet. Start by posting a ride or creating a delivery request!';

/** Ana's dashboard, with her ride in Recent Activity. */
async function anasDashboard(page: Page) {
  const town = `Anatown ${tag()}`;
  await signUpAndSignIn(page, 'Ana Previous');
  await postRideThroughApi(page, town);
  await page.reload();
  await expect(activity(page)).toContainText(`You posted a ride from ${town}`);
  return town;
}

/** An account for Ben, made through the API with cookies of its own (not this browser's). */
async function bensAccount(request: APIRequestContext, page: Page) {
  const email = uniqueEmail('ben');
  const res = await request.post('/api/auth/sign-up', {
    data: { email, password: PASSWORD, full_name: 'Ben Next', age_confirmed: true },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(res.status()).toBe(201);
  return email;
}

test('another person signing in in another tab replaces the dashboard in this one at once', async ({
  page,
  context,
}) => {
  const town = await anasDashboard(page);

  // Ana's session ends behind the page's back (signed out elsewhere), and Ben signs in in another tab.
  const signOut = await page.request.post('/api/auth/sign-out', { headers: { origin: new URL(page.url()).origin } });
  expect(signOut.status()).toBe(204);
  const other = await context.newPage();
  await signUpAndSignIn(other, 'Ben Next');

  // No navigation in the first tab: it learns of the sign-in from the other tab.
  await expect(page.getByText(town)).toHaveCount(0);
  await expect(page.getByText(NOTHING_YET)).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a session cookie that changed is noticed at the next answer, and the cached dashboard is not shown', async ({
  page,
  request,
}) => {
  const town = await anasDashboard(page);
  const ben = await bensAccount(request, page);
  // The cookie changes under the page (the browser's cookie jar), with no other tab to say so.
  const signIn = await page.request.post('/api/auth/sign-in', {
    data: { email: ben, password: PASSWORD },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(signIn.status()).toBe(200);

  // The next answer comes from Ben's session: My Rides is his (empty), and back on the dashboard Ana's activity,
  // kept in memory from before, is gone.
  await goTo(page, 'My Rides', 'My Rides');
  await goTo(page, 'Dashboard', 'Welcome back!');
  await expect(page.getByText(NOTHING_YET)).toBeVisible();
  await expect(page.getByText(town)).toHaveCount(0);
});
