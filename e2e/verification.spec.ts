import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { ID_CONSENT, VERIFIED_BADGE_LABEL, VERIFIED_FILTER_LABEL } from '../src/shared/verification';
import { expectNoAxeViolations, expectToast } from './fixtures';
import { mailsWithSubject } from './mail-helpers';
import { dateInDays, tag } from './marketplace-helpers';
import { ownServer, personOn } from './own-server';

/**
 * Verified profiles (issue 37) in real browsers on a server of this spec's own (its DATA_DIR holds the mails and
 * SMS as files; the admin's role is granted on the command line): a new member confirms their e-mail from the .eml,
 * their phone from the SMS's .txt, sends photos of an ID; a moderator approves; another member then sees the
 * 'Verified' badge on Browse and on the profile, and 'Verified members only' keeps only theirs.
 */

const PHONE = '(201) 555-0123';
const E164 = '+12015550123';

/** The newest SMS code sent to `to` (DATA_DIR/sms/*.txt: 'To:' line, then 'Your RuralRoute code is 123456.'). */
function latestCode(dataDir: string, to: string): string | null {
  const dir = join(dataDir, 'sms');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.txt'));
  } catch {
    return null;
  }
  const texts = files
    .map((f) => ({ at: statSync(join(dir, f)).mtimeMs, text: readFileSync(join(dir, f), 'utf8') }))
    .filter(({ text }) => text.includes(`To: ${to}`))
    .sort((a, b) => b.at - a.at);
  return texts[0]?.text.match(/Your RuralRoute code is (\d{6})\./)?.[1] ?? null;
}

/** A small real image (the server decodes and re-encodes it). */
const photo = (name: string, background: string) =>
  sharp({ create: { width: 120, height: 80, channels: 3, background } })
    .png()
    .toBuffer()
    .then((buffer) => ({ name, mimeType: 'image/png', buffer }));

test('e-mail from the .eml, phone from the .txt, an ID approved: the Verified badge on Browse and the profile', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const own = await ownServer('verification');
  try {
    const t = tag();
    const admin = await personOn(browser, own.base, `Ada Admin ${t}`);
    await own.grantAdmin(admin.email);
    const name = `Vera Field ${t}`;
    const vera = await personOn(browser, own.base, name);
    const viewer = await personOn(browser, own.base, `Val Viewer ${t}`);
    const v = vera.page;

    // The dashboard asks to confirm the address; the link comes by e-mail.
    const banner = v.getByRole('region', { name: 'Confirm your email address' });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText(vera.email);
    await expectNoAxeViolations(v);
    let link = '';
    await expect(async () => {
      const [mail] = mailsWithSubject(own.dataDir, vera.email, 'Confirm your e-mail address for RuralRoute');
      link = mail?.text.match(/https?:\/\/\S+\/verify-email\?token=[\w-]+/)?.[0] ?? '';
      expect(link).not.toBe('');
    }).toPass({ timeout: 30_000 });
    await v.goto(link.replace(/^https?:\/\/[^/]+/, ''));
    await expect(v.getByRole('heading', { level: 1, name: 'Your email address is confirmed.' })).toBeVisible();
    await v.getByRole('link', { name: 'Go to your dashboard' }).click();
    await expect(v.getByRole('heading', { level: 1, name: 'Welcome back!' })).toBeVisible();
    await expect(banner).toHaveCount(0);

    // Settings > 'Verification': the phone by a code sent by SMS.
    await v.goto('/dashboard/settings');
    const checks = v.getByRole('region', { name: 'Verification' });
    await expect(checks).toContainText('Email verified');
    await checks.getByLabel('Phone number').fill(PHONE);
    await checks.getByRole('button', { name: 'Send code' }).click();
    let code: string | null = null;
    await expect(async () => {
      code = latestCode(own.dataDir, E164);
      expect(code).toMatch(/^\d{6}$/);
    }).toPass({ timeout: 30_000 });
    await checks.getByLabel('Code').fill(code!);
    await checks.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(checks).toContainText('Phone verified');

    // 'Verify your ID': two photos and the consent.
    await checks.getByRole('button', { name: 'Verify your ID' }).click();
    const dialog = v.getByRole('dialog', { name: 'Verify your ID' });
    await dialog.getByLabel('Photo of your ID (front)').setInputFiles(await photo('id-front.png', '#8899aa'));
    await dialog.getByLabel('A selfie').setInputFiles(await photo('selfie.png', '#aa9988'));
    await dialog.getByRole('checkbox', { name: ID_CONSENT }).check();
    await expectNoAxeViolations(v);
    await dialog.getByRole('button', { name: 'Send for checking' }).click();
    await expectToast(v, 'Thank you. A moderator will check your ID, usually within a day.');
    await expect(checks).toContainText('Waiting for a moderator');

    // Vera posts a ride; so does the admin (not verified).
    const headers = { origin: own.base };
    const ride = (route: string) => ({ origin: route, destination: 'Millbrook', departure_date: dateInDays(3) });
    expect((await v.request.post('/api/rides', { data: ride(`Verafield ${t}`), headers })).status()).toBe(201);
    expect((await admin.page.request.post('/api/rides', { data: ride(`Adaville ${t}`), headers })).status()).toBe(201);

    // The moderator's queue: the photos, and 'Approve'.
    const m = admin.page;
    await m.goto('/dashboard/admin/verifications');
    await expect(m.getByRole('heading', { level: 1, name: 'ID checks' })).toBeVisible();
    const item = m.getByRole('article', { name });
    await expect(item.getByRole('img', { name: `Photo of the ID sent by ${name}` })).toBeVisible();
    await expect(item.getByRole('img', { name: `Selfie sent by ${name}` })).toBeVisible();
    await expectNoAxeViolations(m);
    await item.getByRole('button', { name: 'Approve' }).click();
    await expectToast(m, 'ID check approved.');
    await expect(item).toHaveCount(0);

    await v.reload();
    await expect(checks).toContainText('ID checked');

    // Another member: the badge on Browse, the filter, and the profile.
    const w = viewer.page;
    await w.goto('/dashboard/browse-rides');
    const veraCard = w.getByRole('heading', { name: `Verafield ${t} → Millbrook` }).locator('xpath=../..');
    const adaCard = w.getByRole('heading', { name: `Adaville ${t} → Millbrook` }).locator('xpath=../..');
    await expect(veraCard.getByRole('img', { name: VERIFIED_BADGE_LABEL })).toBeVisible();
    await expect(adaCard).toBeVisible();
    await expect(adaCard.getByRole('img', { name: VERIFIED_BADGE_LABEL })).toHaveCount(0);
    await expectNoAxeViolations(w);
    await w.getByRole('checkbox', { name: VERIFIED_FILTER_LABEL }).first().check();
    await w.getByRole('button', { name: 'Apply filters' }).first().click();
    await expect(w).toHaveURL(/verified=1/);
    await expect(w.getByRole('heading', { name: `Adaville ${t} → Millbrook` })).toHaveCount(0);
    await expect(veraCard).toBeVisible();

    await veraCard.getByRole('link', { name }).click();
    await expect(w.getByRole('heading', { level: 1, name })).toBeVisible();
    const profileChecks = w.getByRole('region', { name: /^Verification/ });
    for (const label of ['Email verified', 'Phone verified', 'ID checked'])
      await expect(profileChecks).toContainText(label);
    await expect(profileChecks.getByRole('img', { name: VERIFIED_BADGE_LABEL })).toBeVisible();
    await expectNoAxeViolations(w);

    for (const p of [vera, viewer, admin]) await p.context.close();
  } finally {
    await own.close();
  }
});
