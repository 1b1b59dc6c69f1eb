import { expect, test, type Page } from '@playwright/test';
import type { Place } from '../src/shared/places';
import { SUPPORT_REPLY_SENT_TOAST, SUPPORT_TEXT } from '../src/shared/support';
import { expectNoAxeViolations, expectToast, PASSWORD, uniqueEmail } from './fixtures';
import { mailsWithSubject } from './mail-helpers';
import { card, dateInDays, goTo, newUser, offer, openRequest, postRequest, tag } from './marketplace-helpers';
import { ownServer, personOn } from './own-server';
import { chooseAndPay } from './payment-helpers';
import { chooseByKeyboard } from './place-helpers';
import { openPage } from './public-helpers';

/**
 * Plans in real browsers (issue 38), on the embedded test provider and a server of this spec's own (an admin answers
 * the support inbox, and the admin role is granted on the command line). A visitor chooses Plus on /pricing, signs in
 * and comes back to Settings > Plan with the plan's dialog open, pays with the test card; as a Plus member they pay
 * no service fee when choosing a driver, and their request shows 'Priority' to another member on Browse Requests;
 * they post a ride with two stops through the form and a request on the second leg (far off the straight line from
 * origin to destination) is listed along the route; their message through /contact comes first, marked 'Plus', in
 * the admins' inbox and is answered by e-mail; the plan's payment is on the 'Paid' tab with its receipt; they
 * cancel, and the page says when the plan ends. axe on each page.
 */
let server: Awaited<ReturnType<typeof ownServer>>;
test.beforeAll(async () => {
  server = await ownServer('plans');
});
test.afterAll(async () => {
  await server?.close();
});

/** The gazetteer's place for 'Town, ST' (GET /api/places, as the suggestions ask it). */
async function place(page: Page, label: string): Promise<Place> {
  const res = await page.request.get(`/api/places?q=${encodeURIComponent(label)}`);
  const { items } = (await res.json()) as { items: Place[] };
  const found = items.find((p) => p.label === label);
  expect(found, `no place '${label}'`).toBeDefined();
  return found!;
}

test("Plus end to end: pay, no fee, 'Priority', a ride with stops, premium support, the receipt, cancel", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const t = tag();
  const name = `Pat Plus ${t}`;
  const driverName = `Dee Driver ${t}`;
  const title = `Feed sacks ${t}`;
  const onLeg = `Seed corn ${t}`;
  const subject = `Stops on my ride ${t}`;

  // The admin who answers the support inbox: made first, as granting the role restarts the server.
  const admin = await personOn(browser, server.base, `Ada Admin ${t}`);
  await server.grantAdmin(admin.email);

  // A visitor on /pricing: 'Choose Plus' opens Sign Up, and comes back to the plan once signed in.
  const context = await browser.newContext({ baseURL: server.base });
  const page = await context.newPage();
  const email = uniqueEmail('plus');
  await openPage(page, '/pricing');
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: 'Choose Plus' }).click();
  await expect(page).toHaveURL(/\/auth\?tab=signup&next=/);
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  const created = await page.request.post('/api/auth/sign-up', {
    data: { email, password: PASSWORD, full_name: name, age_confirmed: true },
    headers: { origin: server.base },
  });
  expect(created.status()).toBe(201);
  await page.getByRole('tab', { name: 'Sign In' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings\/plan$/);

  // The dialog for Plus is open: the test card pays for the first month.
  const dialog = page.getByRole('dialog', { name: 'Upgrade to Plus' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('You pay $4.99 now');
  await expect(dialog).toContainText('Test mode: no real money moves.');
  await dialog.getByLabel('Card number').fill('4242 4242 4242 4242');
  await dialog.getByLabel('Expiry').fill('12/40');
  await dialog.getByLabel('CVC').fill('123');
  await dialog.getByLabel('ZIP').fill('05401');
  await dialog.getByRole('button', { name: 'Pay and subscribe' }).click();
  await expectToast(page, 'Welcome to Plus');
  const yourPlan = page.getByRole('region', { name: 'Your plan' });
  await expect(yourPlan).toContainText('You are on Plus.');
  await expect(yourPlan).toContainText('Card: Visa ending in 4242');
  await expectNoAxeViolations(page);

  // Their request shows 'Priority' to another member on Browse Requests; and a $15 delivery costs them $15.00.
  const driver = await newUser(browser, driverName, server.base);
  await postRequest(page, title);
  await goTo(driver.page, 'Browse Requests', 'Browse Delivery Requests');
  await expect(card(driver.page, title).getByRole('img', { name: /^Priority/ })).toBeVisible();
  await expectNoAxeViolations(driver.page);
  await offer(driver.page, title);
  await openRequest(page, title);
  await chooseAndPay(page, driverName, { youPay: '$15.00' });

  // A ride Springfield -> Peoria -> Bloomington -> Champaign, the stops chosen from the suggestions by keyboard.
  await goTo(page, 'My Rides', 'My Rides');
  await page.getByRole('button', { name: 'Post New Ride' }).click();
  await chooseByKeyboard(page, page.getByRole('combobox', { name: 'Origin' }), 'Springf', 'Springfield, IL');
  await page.keyboard.press('Tab');
  await chooseByKeyboard(page, page.getByRole('combobox', { name: 'Destination' }), 'Champai', 'Champaign, IL');
  for (const [i, typed, label] of [
    [1, 'Peori', 'Peoria, IL'],
    [2, 'Bloomingt', 'Bloomington, IL'],
  ] as const) {
    await page.getByRole('button', { name: 'Add a stop' }).click();
    await chooseByKeyboard(page, page.getByRole('combobox', { name: `Stop ${i}` }), typed, label);
  }
  await page.getByLabel('Departure Date').fill(dateInDays(3));
  await page.getByLabel('Available Space').fill(`Van ${t}`);
  await page.getByRole('button', { name: 'Post Ride' }).click();
  await expectToast(page, 'Ride posted successfully');

  // A request on the second leg (Peoria -> Bloomington), 50 miles off the straight line: listed along the route.
  const [from, to] = [await place(driver.page, 'Peoria, IL'), await place(driver.page, 'Normal, IL')];
  const posted = await driver.page.request.post('/api/requests', {
    data: {
      title: onLeg,
      description: 'Two sacks',
      pickup_location: 'Peoria, IL',
      delivery_location: 'Normal, IL',
      pickup_place_id: from.id,
      delivery_place_id: to.id,
    },
    headers: { origin: server.base },
  });
  expect(posted.status()).toBe(201);
  await page.reload();
  const ride = page.getByRole('listitem').filter({ hasText: `Available space: Van ${t}` });
  await ride.getByRole('link', { name: 'Requests along this route (1)' }).click();
  await expect(page.getByText(/^Springfield, IL → Peoria, IL → Bloomington, IL → Champaign, IL, /)).toBeVisible();
  const along = page.getByRole('list', { name: 'Requests along this route' });
  await expect(along.getByRole('heading', { name: onLeg })).toBeVisible();
  await expectNoAxeViolations(page);

  // Premium support: their message comes first in the admins' inbox, marked 'Plus', and is answered by e-mail.
  await openPage(page, '/contact');
  const form = page.getByRole('form', { name: 'Send us a message' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Subject').fill(subject);
  await form.getByLabel('Message').fill('Can I add a third stop?');
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expectToast(page, 'Message sent!');
  const a = admin.page;
  await a.reload();
  await a.getByRole('complementary', { name: 'Dashboard navigation' }).getByRole('link', { name: 'Support' }).click();
  const message = a.getByRole('article', { name: subject });
  await expect(message.getByText('Plus', { exact: true })).toBeVisible();
  await expect(a.getByRole('article').first()).toHaveAccessibleName(subject);
  await message.getByRole('button', { name: SUPPORT_TEXT.reply }).click();
  const reply = a.getByRole('dialog', { name: `Reply to ${name}` });
  await reply.getByRole('textbox', { name: SUPPORT_TEXT.answerLabel }).fill('Yes: up to three stops with Plus.');
  await reply.getByRole('button', { name: SUPPORT_TEXT.send }).click();
  await expectToast(a, SUPPORT_REPLY_SENT_TOAST, `Your answer was e-mailed to ${email}.`);
  await expect(message.getByText(SUPPORT_TEXT.answered, { exact: true })).toBeVisible();
  await expectNoAxeViolations(a);
  await expect(async () => {
    const [mail] = mailsWithSubject(server.dataDir, email, `Re: ${subject}`);
    expect(mail?.text).toContain('Yes: up to three stops with Plus.');
  }).toPass({ timeout: 20_000 });

  // The plan's payment on the 'Paid' tab, with its receipt.
  await openPage(page, '/dashboard/payments');
  const planPayments = page.getByRole('region', { name: 'Plan payments' });
  await expect(planPayments).toContainText('RuralRoute Plus');
  await planPayments.locator('summary').first().click();
  await expect(planPayments).toContainText('Visa ending in 4242');
  await expectNoAxeViolations(page);

  // Cancel plan: it runs to the end of the month.
  await openPage(page, '/dashboard/settings/plan');
  await page.getByRole('button', { name: 'Cancel plan' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Cancel Plus?' });
  await confirm.getByRole('button', { name: 'Cancel plan' }).click();
  await expect(yourPlan).toContainText(/Your Plus plan ends on \w+ \d+, \d{4}\./);
  await expect(yourPlan.getByRole('button', { name: 'Keep my plan' })).toBeVisible();
  await expectNoAxeViolations(page);

  // Signed in, a plan button on /pricing goes on through /auth to Settings > Plan.
  await openPage(page, '/pricing');
  await page.getByRole('link', { name: 'Choose Community' }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings\/plan(\?plan=community)?$/);
  await expect(yourPlan).toContainText('You are on Plus.');
  await driver.context.close();
  await admin.context.close();
  await context.close();
});
