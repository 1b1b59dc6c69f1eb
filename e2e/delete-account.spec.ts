import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  ACCOUNT_DELETED_TOAST,
  DELETE_CONFIRM_MESSAGE,
  DELETED_USER_NAME,
  DOWNLOAD_DATA_LABEL,
  EXPORT_SECTIONS,
} from '../src/shared/account';
import { expectNoAxeViolations, expectToast, PASSWORD } from './fixtures';
import { dateInDays, goTo, tag } from './marketplace-helpers';
import { bookingBetween, personOn } from './own-server';
import { openPage } from './public-helpers';

/**
 * 'Your data' and 'Delete account' in two real browsers: a driver with a ride, a request of their own and a confirmed
 * booking (with messages) downloads their data, then deletes the account; they land on the home page, cannot sign in again, and the other
 * person's booking is cancelled ('Account deleted') with the driver shown as 'Deleted user'.
 */

const message = (text: string) => ({ body: text, client_id: crypto.randomUUID() });
const conversation = (page: Page) => page.getByRole('list', { name: 'Messages' });

/** Every page of a browse list (other tests add rows meanwhile): whether any row has `id`. */
async function browseHas(person: Awaited<ReturnType<typeof personOn>>, path: string, id: string) {
  let cursor: string | null = null;
  for (let i = 0; i < 50; i += 1) {
    const query: string = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
    const page = await person.api<{ items: { id: string }[]; next_cursor: string | null }>('GET', `${path}${query}`);
    if (page.items.some((item) => item.id === id)) return true;
    cursor = page.next_cursor;
    if (!cursor) return false;
  }
  throw new Error(`${path}: too many pages`);
}

test('delete account: DELETE and the password, home with the toast, no more sign-in, others see "Deleted user"', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const base = baseURL!;
  const rita = await personOn(browser, base, 'Rita Requester');
  const dora = await personOn(browser, base, 'Dora Deleter');
  const title = `Feed to the farm ${tag()}`;

  // Dora: a ride, a request of her own, an offer on Rita's request that Rita chose, and a few messages.
  const ride = await dora.api<{ id: string }>('POST', '/api/rides', {
    origin: `Millbrook ${tag()}`,
    destination: 'Oakville',
    departure_date: dateInDays(3),
  });
  await dora.api('POST', '/api/requests', {
    title: `Parcel pick-up ${tag()}`,
    description: 'A small box',
    pickup_location: 'Post office',
    delivery_location: 'Hill Cottage',
  });
  const bookingId = await bookingBetween(rita, dora, title);
  await rita.api('POST', `/api/bookings/${bookingId}/choose`, {});
  await dora.api('POST', `/api/bookings/${bookingId}/messages`, message('I can bring it on Thursday.'));
  await rita.api('POST', `/api/bookings/${bookingId}/messages`, message('Thursday is perfect, thank you.'));
  expect(await browseHas(rita, '/api/rides/browse', ride.id)).toBe(true);

  // 'Your data' first: one JSON file with every section (just signed in, so no re-check).
  const d = dora.page;
  await goTo(d, 'Settings', 'Settings');
  const yourData = d.getByRole('region', { name: 'Your data' });
  const [download] = await Promise.all([
    d.waitForEvent('download'),
    yourData.getByRole('button', { name: DOWNLOAD_DATA_LABEL }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^ruralroute-data-\d{4}-\d{2}-\d{2}\.json$/);
  const exported = JSON.parse(readFileSync((await download.path())!, 'utf8')) as Record<string, unknown>;
  expect(Object.keys(exported)).toEqual(expect.arrayContaining([...EXPORT_SECTIONS]));
  expect(JSON.stringify(exported)).toContain('I can bring it on Thursday.');
  await expect(yourData.getByRole('status')).toHaveText(`Saved ${download.suggestedFilename()} to your downloads.`);

  // Dora deletes her account from Settings.
  const section = d.getByRole('region', { name: 'Delete account' });
  await expect(section.getByText(/cannot be undone/).first()).toBeVisible();
  await section.getByRole('button', { name: 'Delete account' }).click();
  const dialog = d.getByRole('alertdialog', { name: 'Delete your account?' });
  const confirm = dialog.getByLabel(DELETE_CONFIRM_MESSAGE);
  await expect(confirm).toBeFocused();
  const submit = dialog.getByRole('button', { name: 'Delete account' });
  await expect(submit).toBeDisabled();
  await expectNoAxeViolations(d);
  // By keyboard: DELETE, Tab to the password, Enter.
  await d.keyboard.type('DELETE');
  await d.keyboard.press('Tab');
  await expect(dialog.getByLabel('Password')).toBeFocused();
  await expect(submit).toBeEnabled();
  await d.keyboard.type('Not-My-Password-1');
  await d.keyboard.press('Enter');
  // A wrong password is refused on its field; nothing is deleted.
  await expect(dialog.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(d);
  await dialog.getByLabel('Password').fill(PASSWORD);
  await d.keyboard.press('Enter');

  // Home, with the toast; signed out.
  await expect(d).toHaveURL(new RegExp(`^${base}/?$`));
  await expectToast(d, ACCOUNT_DELETED_TOAST);
  expect(((await (await d.request.get('/api/auth/session')).json()) as { user: unknown }).user).toBeNull();

  // The old e-mail and password no longer sign in.
  await openPage(d, '/auth');
  await d.getByLabel('Email').fill(dora.email);
  await d.getByLabel('Password').fill(PASSWORD);
  await d.getByRole('button', { name: 'Sign In' }).click();
  await expectToast(d, 'Error', 'Invalid email or password.');
  await expect(d).toHaveURL(/\/auth/);

  // Rita: the booking is cancelled for 'Account deleted', the driver is 'Deleted user', the messages stay.
  const r = rita.page;
  await r.goto(`/dashboard/bookings/${bookingId}`);
  await expect(r.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(r.getByText('Cancelled').first()).toBeVisible();
  await expect(r.getByText(/Account deleted/).first()).toBeVisible();
  await expect(r.getByText(DELETED_USER_NAME).first()).toBeVisible();
  await expect(r.getByText('Dora Deleter')).toHaveCount(0);
  await expect(conversation(r)).toContainText('I can bring it on Thursday.');
  await expect(conversation(r)).toContainText('Thursday is perfect, thank you.');
  await expectNoAxeViolations(r);
  // Her ride is gone from Browse.
  expect(await browseHas(rita, '/api/rides/browse', ride.id)).toBe(false);

  await rita.context.close();
  await dora.context.close();
});
