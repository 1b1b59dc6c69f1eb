import { test as base, expect, type Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { contactMessages } from '../src/server/db/schema';
import { expectNoAxeViolations, expectToast } from './fixtures';
import { startAppServer, type AppServer } from './public-app-server';
import { openPage } from './public-helpers';

const SUPPORT = { SUPPORT_EMAIL: 'help@valley-route.example', SUPPORT_PHONE: '+1 (555) 010-2000' };

// One app per worker, configured with its own support e-mail and phone, whose database the test can read.
const test = base.extend<object, { app: AppServer }>({
  app: [
    // eslint-disable-next-line no-empty-pattern -- Playwright requires the fixtures argument to be destructured.
    async ({}, use) => {
      const app = await startAppServer(SUPPORT);
      await use(app);
      await app.close();
    },
    { scope: 'worker' },
  ],
});

async function fillForm(page: Page, values: { name: string; email: string; subject: string; message: string }) {
  const form = page.getByRole('form', { name: 'Send us a message' });
  await form.getByLabel('Name').fill(values.name);
  await form.getByLabel('Email').fill(values.email);
  await form.getByLabel('Subject').fill(values.subject);
  await form.getByLabel('Message').fill(values.message);
  return form;
}

test('shows the configured support e-mail and phone, and the location', async ({ page, app }) => {
  await openPage(page, `${app.url}/contact`);
  await expect(page.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeVisible();
  const email = page.getByRole('link', { name: SUPPORT.SUPPORT_EMAIL });
  await expect(email).toHaveAttribute('href', `mailto:${SUPPORT.SUPPORT_EMAIL}`);
  await expect(page.getByRole('link', { name: SUPPORT.SUPPORT_PHONE })).toHaveAttribute('href', 'tel:+15550102000');
  await expect(page.getByRole('heading', { name: 'Location' })).toBeVisible();
  await expect(page.getByText('Rural America')).toBeVisible();
  // The privacy policy names the same address.
  await openPage(page, `${app.url}/privacy`);
  await expect(page.getByRole('link', { name: SUPPORT.SUPPORT_EMAIL }).first()).toBeVisible();
});

test('a message sent through the form is stored, confirmed with a toast, and the form is cleared', async ({
  page,
  app,
}) => {
  const subject = `Feed store run ${Date.now()}`;
  await openPage(page, `${app.url}/contact`);
  const form = await fillForm(page, {
    name: '  June Barley ',
    email: 'june.barley@example.com',
    subject,
    message: 'Could someone bring two sacks of chicken feed out to Miller Road on Saturday?',
  });
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expectToast(page, 'Message sent!', "Thanks for getting in touch. We'll reply by e-mail as soon as we can.");
  for (const label of ['Name', 'Email', 'Subject', 'Message']) await expect(form.getByLabel(label)).toHaveValue('');

  const rows = await app.db.select().from(contactMessages).where(eq(contactMessages.subject, subject));
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    name: 'June Barley',
    email: 'june.barley@example.com',
    message: 'Could someone bring two sacks of chicken feed out to Miller Road on Saturday?',
  });
});

test('bad input is refused with the schema message, in the browser and by the server', async ({ page, app }) => {
  const before = (await app.db.select().from(contactMessages)).length;
  await openPage(page, `${app.url}/contact`);
  const form = page.getByRole('form', { name: 'Send us a message' });
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expectToast(page, 'Validation Error', 'Name is required');
  await expect(form.getByText('Name is required')).toBeVisible();
  await expect(form.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');

  await fillForm(page, { name: 'Tom', email: 'tom@', subject: 'Hi', message: 'Hello' });
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expectToast(page, 'Validation Error', 'Invalid email address');
  await expect(form.getByText('Invalid email address')).toBeVisible();
  await expect(form.getByText('Name is required')).toHaveCount(0);

  // Whitespace only passes `required` in HTML but not the shared schema, on either side.
  const res = await page.request.post(`${app.url}/api/contact`, {
    data: { name: 'Tom', email: 'tom@example.com', subject: '   ', message: 'Hello' },
    headers: { origin: app.url },
  });
  expect(res.status()).toBe(400);
  expect(await res.json()).toEqual({ code: 'validation_error', message: 'Subject is required' });
  expect((await app.db.select().from(contactMessages)).length).toBe(before);
});

test('a failed send shows an Error toast and keeps what was typed', async ({ page, app }) => {
  await openPage(page, `${app.url}/contact`);
  await page.route('**/api/contact', (route) => route.abort('internetdisconnected'));
  const form = await fillForm(page, {
    name: 'Ray Ford',
    email: 'ray@example.com',
    subject: 'Lost signal',
    message: 'Testing on one bar.',
  });
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expectToast(page, 'Error', 'No connection. Please try again.');
  await expect(form.getByLabel('Message')).toHaveValue('Testing on one bar.');
});

test('too many messages from one address get the Error toast with the wait', async ({ page }) => {
  // It starts a server of its own (a fresh database): 13 to 24 s in CI, near the default 30.
  test.setTimeout(60_000);
  const strict = await startAppServer({ CONTACT_PER_IP_MAX: '1' });
  try {
    await openPage(page, `${strict.url}/contact`);
    const values = { name: 'Ivy Lane', email: 'ivy@example.com', subject: 'One', message: 'First message.' };
    const form = await fillForm(page, values);
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expectToast(page, 'Message sent!');
    await fillForm(page, { ...values, subject: 'Two' });
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expectToast(page, 'Error', 'You have sent several messages already. Please wait 60 minutes and try again.');
    expect(await strict.db.select().from(contactMessages)).toHaveLength(1);
  } finally {
    await strict.close();
  }
});

test('the contact page passes axe, at desktop width and at 390px', async ({ page, app }) => {
  await openPage(page, `${app.url}/contact`);
  await expectNoAxeViolations(page);
  await page.getByRole('form', { name: 'Send us a message' }).getByRole('button', { name: 'Send Message' }).click();
  await expectToast(page, 'Validation Error');
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expectNoAxeViolations(page);
});
