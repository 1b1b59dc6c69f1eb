import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoAxeViolations, expectToast } from './fixtures';
import { card, goTo, tag } from './marketplace-helpers';
import { personOn } from './own-server';

/**
 * Notifications in two real browsers: the driver offers on the requester's request, the requester's bell counts it live
 * (the app's event stream, no reload), the notification leads to the request and is read once opened;
 * 'Mark all as read'; a new account is 'all caught up'; the bell works by keyboard.
 */

/** The header's bell: its name is 'Notifications', or 'Notifications, 2 unread'. */
const bell = (page: Page) => page.getByRole('banner').getByRole('link', { name: /^Notifications/ });
const notifications = (page: Page) => page.getByRole('list', { name: 'Your notifications' });

/** Presses Tab until `target` has the focus, as someone without a mouse would (at most `max` presses). */
async function tabTo(page: Page, target: Locator, max = 40) {
  for (let i = 0; i < max && !(await target.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

async function postRequest(person: Awaited<ReturnType<typeof personOn>>, title: string) {
  return person.api<{ id: string }>('POST', '/api/requests', {
    title,
    description: 'Two sacks of feed',
    pickup_location: 'Co-op, Mill Rd',
    delivery_location: 'Upper Farm',
  });
}

test('the bell counts a new offer live and leads to the request; opening it, then "Mark all as read", clears it', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const requester = await personOn(browser, baseURL!, 'Rita Requester');
  const driver = await personOn(browser, baseURL!, 'Dan Driver');
  const r = requester.page;
  const d = driver.page;

  // A new account: the bell by keyboard (Tab, then Enter) opens an empty, axe-clean page.
  await expect(r.getByRole('heading', { level: 1, name: 'Welcome back!' })).toBeVisible();
  await expect(bell(r)).toHaveAccessibleName('Notifications');
  await tabTo(r, bell(r));
  await r.keyboard.press('Enter');
  await expect(r).toHaveURL(/\/dashboard\/notifications$/);
  await expect(r.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  await expect(r.getByText("You're all caught up.")).toBeVisible();
  await expect(r.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  await expect(r.getByRole('link', { name: 'Notification settings' })).toHaveAttribute(
    'href',
    '/dashboard/settings/notifications',
  );
  await expectNoAxeViolations(r);

  // The requester waits on the dashboard while the driver offers.
  const title = `Feed sacks ${tag()}`;
  const request = await postRequest(requester, title);
  await goTo(r, 'Dashboard', 'Welcome back!');
  await goTo(d, 'Browse Requests', 'Browse Delivery Requests');
  await card(d, title)
    .getByRole('button', { name: `Accept request ${title}` })
    .click();
  await expect(card(d, title).getByRole('button', { name: `Offer sent for request ${title}` })).toBeDisabled();

  // Live: the bell counts it without a reload, in its name and its badge.
  await expect(bell(r)).toHaveAccessibleName('Notifications, 1 unread');
  await expect(bell(r).getByText('1', { exact: true })).toBeVisible();

  // The bell opens the list; the notification says who offered on what, and is marked unread.
  await bell(r).click();
  await expect(r).toHaveURL(/\/dashboard\/notifications$/);
  const text = `Dan Driver offered to carry “${title}”.`;
  const item = notifications(r).getByRole('link', { name: `Unread: ${text}`, exact: true });
  await expect(item).toBeVisible();
  await expect(notifications(r).getByRole('listitem')).toHaveCount(1);
  await expect(r.getByRole('button', { name: 'Mark all as read' })).toBeEnabled();
  await expectNoAxeViolations(r);

  // Opening it leads to the request and marks it read.
  await item.click();
  await expect(r).toHaveURL(new RegExp(`/dashboard/requests/${request.id}$`));
  await expect(r.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(bell(r)).toHaveAccessibleName('Notifications');
  await bell(r).click();
  await expect(notifications(r).getByRole('link', { name: text, exact: true })).toBeVisible();

  // Two more offers arrive while the page is open: newest first, both unread; 'Mark all as read' clears them.
  const second = `Hay bales ${tag()}`;
  const third = `Fence posts ${tag()}`;
  for (const t of [second, third]) {
    const other = await postRequest(requester, t);
    await driver.api('POST', '/api/bookings', { request_id: other.id });
  }
  await expect(bell(r)).toHaveAccessibleName('Notifications, 2 unread');
  const links = notifications(r).getByRole('link');
  await expect(links).toHaveText([
    `Unread: Dan Driver offered to carry “${third}”.`,
    `Unread: Dan Driver offered to carry “${second}”.`,
    text,
  ]);
  await r.getByRole('button', { name: 'Mark all as read' }).click();
  await expectToast(r, 'All notifications marked as read');
  await expect(bell(r)).toHaveAccessibleName('Notifications');
  await expect(notifications(r).getByRole('link', { name: /^Unread:/ })).toHaveCount(0);
  await expect(r.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  await expectNoAxeViolations(r);

  await requester.context.close();
  await driver.context.close();
});
