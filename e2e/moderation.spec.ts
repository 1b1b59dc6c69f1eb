import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations, expectToast, PASSWORD } from './fixtures';
import { goTo, tag } from './marketplace-helpers';
import { bookingBetween, ownServer, personOn } from './own-server';

/**
 * Reporting and blocking, in real browsers on a server of this spec's own (the admin role is granted on
 * the command line, which needs the embedded database while no server holds it).
 */

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Dashboard navigation' });

test('report and block from a booking, the offer declined live, unblock in Settings; an admin suspends, then lifts it', async ({
  browser,
}) => {
  // A server of its own (started twice: the admin role is granted with it stopped), on a busy CI machine.
  test.setTimeout(300_000);
  const own = await ownServer('moderation');
  const { base } = own;
  try {
    const requester = await personOn(browser, base, 'Rita Requester');
    const driver = await personOn(browser, base, 'Sam Spammer');
    const moderator = await personOn(browser, base, 'Mona Moderator');
    const title = `Feed run ${tag()}`;
    const bookingId = await bookingBetween(requester, driver, title);
    const r = requester.page;
    const d = driver.page;
    await d.goto(`/dashboard/bookings/${bookingId}`);
    await expect(d.getByText(/^Status:/)).toContainText('Pending');

    // Report: the name links to the profile, its menu button is beside it; the dialog refuses an empty form with
    // its messages, then sends.
    await r.goto(`/dashboard/bookings/${bookingId}`);
    await r.getByRole('button', { name: 'More actions for Sam Spammer' }).click();
    await r.getByRole('menuitem', { name: 'Report' }).click();
    const report = r.getByRole('dialog', { name: 'Report Sam Spammer' });
    await report.getByRole('button', { name: 'Send report' }).click();
    await expect(report.getByText('Please choose a reason')).toBeVisible();
    await expect(report.getByText('Details are required')).toBeVisible();
    await expectNoAxeViolations(r);
    await report.getByLabel('Reason').selectOption({ label: 'Spam or scam' });
    await report.getByLabel('Details').fill('Asked me to pay outside the app first.');
    await report.getByRole('button', { name: 'Send report' }).click();
    await expectToast(r, 'Report sent. Thank you for helping keep RuralRoute safe.');
    await expect(report).toBeHidden();

    // Block, after a confirmation: the pending offer is declined, and the driver's open page shows it live.
    await r.getByRole('button', { name: 'More actions for Sam Spammer' }).click();
    await r.getByRole('menuitem', { name: 'Block' }).click();
    const confirm = r.getByRole('alertdialog', { name: 'Block Sam Spammer?' });
    await expectNoAxeViolations(r);
    await confirm.getByRole('button', { name: 'Block' }).click();
    await expectToast(r, 'Blocked');
    await expect(d.getByText(/^Status:/)).toContainText('Declined');
    await expect(d.getByText("You can't contact this person.")).toBeVisible();
    // Neither sees the other's listings in Browse.
    await goTo(d, 'Browse Requests', 'Browse Delivery Requests');
    await expect(d.getByRole('heading', { name: title, exact: true })).toHaveCount(0);

    // Unblock from Settings.
    await sidebar(r).getByRole('link', { name: 'Settings' }).click();
    await expect(r.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    const blocked = r.getByRole('listitem').filter({ hasText: 'Sam Spammer' });
    await expect(blocked).toContainText('Blocked on');
    await expectNoAxeViolations(r);
    await blocked.getByRole('button', { name: /Unblock/ }).click();
    await expectToast(r, 'Unblocked');
    await expect(r.getByText("You haven't blocked anyone.")).toBeVisible();

    // Nobody but an admin has Reports; the role is granted on the command line, with the server stopped.
    await expect(sidebar(moderator.page).getByRole('link', { name: 'Reports' })).toHaveCount(0);
    await own.grantAdmin(moderator.email);

    const m = moderator.page;
    await m.goto('/dashboard');
    await sidebar(m).getByRole('link', { name: 'Reports' }).click();
    await expect(m.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
    const item = m
      .getByRole('article')
      .filter({ hasText: 'Sam Spammer' })
      .or(m.getByRole('listitem').filter({ hasText: 'Asked me to pay outside the app first.' }));
    await expect(item.first()).toContainText('Spam or scam');
    await expect(item.first()).toContainText('Rita Requester');
    await expectNoAxeViolations(m);
    await item.first().getByRole('button', { name: 'Suspend account' }).click();
    await m
      .getByRole('alertdialog', { name: 'Suspend Sam Spammer?' })
      .getByRole('button', { name: 'Suspend account' })
      .click();
    await expectToast(m, 'Account suspended');
    await expect(m.getByText('No open reports.')).toBeVisible();

    // The suspended driver's session is over at once, and signing in again is refused with the reason.
    await d.goto('/dashboard');
    await expect(d).toHaveURL(/\/auth/);
    await d.getByLabel('Email').fill(driver.email);
    await d.getByLabel('Password').fill(PASSWORD);
    await d.getByRole('button', { name: 'Sign In' }).click();
    await expect(d.getByText('This account is suspended. Contact support.').first()).toBeVisible();

    // The moderator finds the account under 'Suspended accounts' and lifts the suspension (say it was a mistake):
    // the driver can sign in again.
    const suspended = m.getByRole('listitem').filter({ hasText: 'Sam Spammer' });
    await expect(suspended).toContainText('Suspended');
    await expectNoAxeViolations(m);
    await suspended.getByRole('button', { name: 'Lift suspension of Sam Spammer' }).click();
    await m
      .getByRole('alertdialog', { name: 'Lift the suspension of Sam Spammer?' })
      .getByRole('button', { name: 'Lift suspension' })
      .click();
    await expectToast(m, 'Suspension lifted');
    await expect(m.getByText('No suspended accounts.')).toBeVisible();
    await d.getByLabel('Password').fill(PASSWORD);
    await d.getByRole('button', { name: 'Sign In' }).click();
    await expect(d).toHaveURL(/\/dashboard/);

    for (const p of [requester, driver, moderator]) await p.context.close();
  } finally {
    await own.close();
  }
});
