import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect, type Browser } from '@playwright/test';
import { eq, sql } from 'drizzle-orm';
import { SUPPORT_REPLY_SENT_TOAST, SUPPORT_TEXT } from '../src/shared/support';
import { users } from '../src/server/db/schema';
import { expectNoAxeViolations, expectToast, PASSWORD, uniqueEmail } from './fixtures';
import { mailsWithSubject } from './mail-helpers';
import { startAppServer, type AppServer } from './public-app-server';
import { openPage } from './public-helpers';

/**
 * The support inbox (issue 38) in a real browser, on an app this spec holds the database of (a member's plan and the
 * admin role are set there directly: subscribing is another part of the issue). A Plus member and a visitor write
 * through /contact; the admin finds the member's message first and marked 'Plus', answers it by keyboard, and the
 * answer arrives by e-mail (DATA_DIR/mail/*.eml) with the message quoted.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'rr-e2e-support-'));
const test = base.extend<object, { app: AppServer }>({
  app: [
    // eslint-disable-next-line no-empty-pattern -- Playwright requires the fixtures argument to be destructured.
    async ({}, use) => {
      const app = await startAppServer({ DATA_DIR: dataDir, JOBS_POLL_MS: '200' });
      await use(app);
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
});

/** An account made through the API, then `prepare`d in the database, then signed in through /auth. */
async function person(browser: Browser, app: AppServer, name: string, prepare?: (userId: string) => Promise<unknown>) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = uniqueEmail('support');
  const up = await page.request.post(`${app.url}/api/auth/sign-up`, {
    data: { email, password: PASSWORD, full_name: name, age_confirmed: true },
    headers: { origin: app.url },
  });
  expect(up.status()).toBe(201);
  const { user } = (await up.json()) as { user: { id: string } };
  await prepare?.(user.id);
  await openPage(page, `${app.url}/auth`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return { context, page, email };
}

test("a Plus member's message comes first, marked; the admin answers it by keyboard and the answer is e-mailed", async ({
  browser,
  app,
}) => {
  test.setTimeout(90_000);
  const t = Date.now();
  const memberSubject = `Stops on my ride ${t}`;
  const visitorSubject = `Feed store run ${t}`;

  // A visitor writes first (older), then a Plus member.
  const visitor = await browser.newPage();
  await openPage(visitor, `${app.url}/contact`);
  let form = visitor.getByRole('form', { name: 'Send us a message' });
  await form.getByLabel('Name').fill('June Barley');
  await form.getByLabel('Email').fill(`june.${t}@example.com`);
  await form.getByLabel('Subject').fill(visitorSubject);
  await form.getByLabel('Message').fill('Could someone bring feed out to Miller Road?');
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expectToast(visitor, 'Message sent!');

  const member = await person(browser, app, `Pia Plus ${t}`, (id) =>
    app.db.execute(sql`update profiles set plan = 'plus' where user_id = ${id}`),
  );
  await openPage(member.page, `${app.url}/contact`);
  form = member.page.getByRole('form', { name: 'Send us a message' });
  await form.getByLabel('Name').fill(`Pia Plus ${t}`);
  await form.getByLabel('Email').fill(member.email);
  await form.getByLabel('Subject').fill(memberSubject);
  await form.getByLabel('Message').fill('Can I add a stop?\nIt is on the way.');
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expectToast(member.page, 'Message sent!');

  // The admin's inbox: 'Support' in the navigation; the member's message first, marked 'Plus'.
  const admin = await person(browser, app, `Ina Box ${t}`, (id) =>
    app.db.update(users).set({ role: 'admin' }).where(eq(users.id, id)),
  );
  const a = admin.page;
  await a.getByRole('complementary', { name: 'Dashboard navigation' }).getByRole('link', { name: 'Support' }).click();
  await expect(a).toHaveURL(/\/dashboard\/admin\/support$/);
  await expect(a.getByRole('heading', { level: 1, name: SUPPORT_TEXT.title })).toBeVisible();
  const mine = a.getByRole('article', { name: memberSubject });
  const theirs = a.getByRole('article', { name: visitorSubject });
  await expect(mine.getByText('Plus', { exact: true })).toBeVisible();
  await expect(theirs).toBeVisible();
  await expect(theirs.getByText('Plus', { exact: true })).toHaveCount(0);
  const subjects = await a.getByRole('article').getByRole('heading').allTextContents();
  expect(subjects.indexOf(memberSubject)).toBeLessThan(subjects.indexOf(visitorSubject));
  await expectNoAxeViolations(a);

  // 'Reply' by keyboard: the dialog opens on 'Your answer'; Tab reaches 'Send reply'.
  await mine.getByRole('button', { name: SUPPORT_TEXT.reply }).focus();
  await a.keyboard.press('Enter');
  const dialog = a.getByRole('dialog', { name: `Reply to Pia Plus ${t}` });
  const answer = dialog.getByRole('textbox', { name: SUPPORT_TEXT.answerLabel });
  await expect(answer).toBeFocused();
  await a.keyboard.type('Yes: with Plus a ride may have up to three stops.');
  await expectNoAxeViolations(a);
  await a.keyboard.press('Tab');
  await a.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: SUPPORT_TEXT.send })).toBeFocused();
  await a.keyboard.press('Enter');
  await expectToast(a, SUPPORT_REPLY_SENT_TOAST, `Your answer was e-mailed to ${member.email}.`);
  await expect(dialog).toHaveCount(0);
  await expect(mine.getByText(SUPPORT_TEXT.answered, { exact: true })).toBeVisible();
  await expect(mine.getByText('Yes: with Plus a ride may have up to three stops.')).toBeVisible();
  await expect(mine.getByRole('button', { name: SUPPORT_TEXT.reply })).toHaveCount(0);
  await expectNoAxeViolations(a);

  // The e-mail: 'Re: ' and the subject, the answer, the message quoted.
  await expect(async () => {
    const [mail] = mailsWithSubject(dataDir, member.email, `Re: ${memberSubject}`);
    expect(mail?.text).toContain('Yes: with Plus a ride may have up to three stops.');
    expect(mail?.text.replace(/\r\n/g, '\n')).toContain('> Can I add a stop?\n> It is on the way.');
  }).toPass({ timeout: 20_000 });

  // 'Answered' keeps it; the open list no longer has it.
  await a.getByRole('tab', { name: SUPPORT_TEXT.answered }).click();
  await expect(a.getByRole('article', { name: memberSubject })).toBeVisible();
  await a.getByRole('tab', { name: SUPPORT_TEXT.open }).click();
  await expect(a.getByRole('article', { name: visitorSubject })).toBeVisible();
  await expect(a.getByRole('article', { name: memberSubject })).toHaveCount(0);

  await member.context.close();
  await admin.context.close();
});
