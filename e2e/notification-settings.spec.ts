import { expect, test, type Page } from '@playwright/test';
import { NOTIFICATION_TYPE_LABELS, UNSUBSCRIBE_INVALID_MESSAGE } from '../src/shared/notifications';
import { expectNoAxeViolations, expectToast, signUpAndSignIn } from './fixtures';
import { E2E_DATA_DIR, mailsTo } from './mail-helpers';
import { goTo, tag } from './marketplace-helpers';
import { bookingBetween, personOn } from './own-server';

/** The e-mail switches of /dashboard/settings/notifications, and the one-click unsubscribe link. */

const OFFERS = NOTIFICATION_TYPE_LABELS.offer_received;
const emailSwitch = (page: Page, label: string) => page.getByRole('switch', { name: `${label} Email`, exact: true });

test("a switch turns a type's e-mails off at once, stays off after a reload, and works by keyboard", async ({
  page,
}) => {
  const { email } = await signUpAndSignIn(page, 'Nora Notified');
  await goTo(page, 'Settings', 'Settings');
  await page.getByRole('link', { name: 'Notification settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Notification settings' })).toBeVisible();
  await expect(page.getByText(/^E-mails go to/)).toHaveText(`E-mails go to ${email}.`);
  await expect(page.getByRole('region', { name: 'Security notices' })).toContainText('Always e-mailed');

  const offers = emailSwitch(page, OFFERS);
  await expect(offers).toBeChecked();
  await offers.click();
  await expect(offers).not.toBeChecked();
  await expectToast(page, 'Notification settings saved');
  await page.reload();
  await expect(emailSwitch(page, OFFERS)).not.toBeChecked();
  await expect(emailSwitch(page, NOTIFICATION_TYPE_LABELS.message)).toBeChecked();

  // By keyboard: Tab reaches the next switch, shows where the focus is, and Space toggles it.
  await emailSwitch(page, OFFERS).focus();
  await page.keyboard.press('Tab');
  const chosen = emailSwitch(page, NOTIFICATION_TYPE_LABELS.offer_chosen);
  await expect(chosen).toBeFocused();
  await expect(chosen).not.toHaveCSS('box-shadow', 'none');
  await page.keyboard.press('Space');
  await expect(chosen).not.toBeChecked();
  await page.keyboard.press('Space');
  await expect(chosen).toBeChecked();
  await expectNoAxeViolations(page);

  await page.reload();
  await expect(emailSwitch(page, NOTIFICATION_TYPE_LABELS.offer_chosen)).toBeChecked();
  await expect(emailSwitch(page, OFFERS)).not.toBeChecked();
});

/** The text part of the newest mail to `to` that mentions `words`, once the job has written it. */
const mailTo = (dataDir: string, to: string, words: string) =>
  mailsTo(dataDir, to, (mail) => mail.text.includes(words))[0]?.text;

test('the unsubscribe link of an offer e-mail works without signing in, shows in the settings, and can be undone', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const dataDir = E2E_DATA_DIR;
  const base = baseURL!;
  const requester = await personOn(browser, base, 'Rita Requester');
  const driver = await personOn(browser, base, 'Dan Driver');
  const title = `Seed potatoes ${tag()}`;
  await bookingBetween(requester, driver, title);

  // The e-mail job runs within about a second of the offer.
  await expect.poll(() => mailTo(dataDir, requester.email, title), { timeout: 20_000 }).toBeTruthy();
  const text = mailTo(dataDir, requester.email, title) ?? '';
  // The human link (`/unsubscribe?token=`), not the List-Unsubscribe one (`/api/notifications/unsubscribe`).
  const token = text.match(/(?<!notifications)\/unsubscribe\?token=([^\s<>"')\]]+)/)?.[1];
  expect(token, text).toBeTruthy();

  // Opened from the mail program: a browser that is not signed in.
  const anonymous = await browser.newContext({ baseURL: base });
  const a = await anonymous.newPage();
  await a.goto(`/unsubscribe?token=${token}`);
  await expect(a.getByText(`You won't get e-mails about “${OFFERS}” any more.`)).toBeVisible();
  await expect(a).toHaveTitle('Unsubscribe — RuralRoute');
  await expectNoAxeViolations(a);

  const r = requester.page;
  await r.goto('/dashboard/settings/notifications');
  await expect(emailSwitch(r, OFFERS)).not.toBeChecked();
  await expect(emailSwitch(r, NOTIFICATION_TYPE_LABELS.message)).toBeChecked();

  await a.getByRole('button', { name: 'Undo' }).click();
  await expect(a.getByText(`E-mails about “${OFFERS}” are on again.`)).toBeVisible();
  await r.reload();
  await expect(emailSwitch(r, OFFERS)).toBeChecked();

  // A link that was tampered with says so, and where to go instead.
  await a.goto(`/unsubscribe?token=${token}x`);
  await expect(a.getByText(UNSUBSCRIBE_INVALID_MESSAGE)).toBeVisible();
  await expect(a.getByRole('link', { name: 'Sign in' })).toBeVisible();

  for (const c of [anonymous, requester.context, driver.context]) await c.close();
});
