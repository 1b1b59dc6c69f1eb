import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './fixtures';
import { openPage } from './public-helpers';

interface PublicPage {
  path: string;
  h1: string;
  title: string;
  texts: string[];
}

const PAGES: PublicPage[] = [
  {
    path: '/',
    h1: 'Share the Road, Share the Load',
    title: 'RuralRoute — Share the Road, Share the Load',
    texts: [
      'Post Your Route',
      'Connect & Coordinate',
      'Exchange & Deliver',
      'Review & Build Trust',
      'Save Money',
      'Save Time',
      'Build Community',
      'Travel Greener',
      'Trusted Neighbours',
      'On Your Schedule',
      'Ready to Share the Road?',
    ],
  },
  {
    path: '/how-it-works',
    h1: 'How It Works',
    title: 'How It Works — RuralRoute',
    texts: [
      'Post Your Route',
      'Connect & Coordinate',
      'Exchange & Deliver',
      'Review & Build Trust',
      'For Drivers',
      'For Senders',
      'Safe & Trusted',
      'Community First',
    ],
  },
  {
    path: '/pricing',
    h1: 'Simple, Honest Pricing',
    title: 'Pricing — RuralRoute',
    texts: ['$0', 'forever', '$4.99', 'per month', '$49.99', 'per year', '17% saving'],
  },
  {
    path: '/about',
    h1: 'About RuralRoute',
    title: 'About Us — RuralRoute',
    texts: ['Our Mission', 'Our Values', 'Our Community', 'Our Story'],
  },
  {
    path: '/faq',
    h1: 'Frequently Asked Questions',
    title: 'Frequently Asked Questions — RuralRoute',
    texts: ['How does RuralRoute work?', 'How do I become a driver?'],
  },
  {
    path: '/contact',
    h1: 'Contact Us',
    title: 'Contact Us — RuralRoute',
    texts: ['Email', 'Phone', 'Location', 'Rural America', 'Send Us a Message'],
  },
  {
    path: '/privacy',
    h1: 'Privacy Policy',
    title: 'Privacy Policy — RuralRoute',
    texts: ['Your account:', 'Your profile:', 'Contact messages:', 'Sessions:', 'Your rights'],
  },
  {
    path: '/terms',
    h1: 'Terms of Service',
    title: 'Terms of Service — RuralRoute',
    texts: ['Who can use RuralRoute', 'Prohibited items', 'Cancellations and disputes'],
  },
];

const FAQ_QUESTIONS = [
  'How does RuralRoute work?',
  'How much does it cost?',
  'How do payments work?',
  'What if something goes wrong with a delivery?',
  'How are members verified?',
  'Can I cancel a request or a ride?',
  'What items can be delivered?',
  'How do I become a driver?',
];

/** 'November 21, 2026' for the browser's today, as the spec's long format. */
async function browserTodayLong(page: Page) {
  return page.evaluate(() =>
    new Date().toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' }),
  );
}

for (const p of PAGES) {
  test(`${p.path} has its content, title and description, with no console errors`, async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    const res = await openPage(page, p.path);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.h1);
    await expect(page).toHaveTitle(p.title);
    await expect(page.locator('head title')).toHaveCount(1);
    await expect(page.locator('meta[name="description"]')).toHaveCount(1);
    expect((await page.locator('meta[name="description"]').getAttribute('content'))?.length).toBeGreaterThan(50);
    const main = page.getByRole('main');
    for (const text of p.texts) await expect(main.getByText(text, { exact: true }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
  });
}

test('the pages are readable before any script runs (prerendered HTML)', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  for (const p of PAGES) {
    await page.goto(p.path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.h1);
    await expect(page).toHaveTitle(p.title);
  }
  await context.close();
});

test('privacy and terms were last updated today, in long date format', async ({ page }) => {
  for (const path of ['/privacy', '/terms']) {
    await openPage(page, path);
    await expect(page.getByText(`Last updated: ${await browserTodayLong(page)}`)).toBeVisible();
  }
});

test('the privacy policy covers what is stored and the right to access, correct and delete', async ({ page }) => {
  await openPage(page, '/privacy');
  const main = page.getByRole('main');
  for (const stored of ['Your account:', 'Your profile:', 'Rides you post:', 'Delivery requests you post:']) {
    await expect(main.getByText(stored)).toBeVisible();
  }
  for (const stored of ['Bookings:', 'Contact messages:', 'Sessions:'])
    await expect(main.getByText(stored)).toBeVisible();
  await expect(main.getByText('session cookie', { exact: false }).first()).toBeVisible();
  for (const right of ['access', 'correct', 'delete']) {
    await expect(main.locator('strong', { hasText: new RegExp(`^${right}$`) })).toBeVisible();
  }
});

test('the top navigation and the footer reach every public page', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openPage(page, '/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [label, path, h1] of [
    ['How It Works', '/how-it-works', 'How It Works'],
    ['Pricing', '/pricing', 'Simple, Honest Pricing'],
    ['About', '/about', 'About RuralRoute'],
    ['FAQ', '/faq', 'Frequently Asked Questions'],
    ['Contact', '/contact', 'Contact Us'],
    ['Home', '/', 'Share the Road, Share the Load'],
  ] as const) {
    await nav.getByRole('link', { name: label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(h1);
    await expect(nav.getByRole('link', { name: label, exact: true })).toHaveAttribute('aria-current', 'page');
  }
  const footer = page.getByRole('contentinfo');
  for (const [label, path, h1] of [
    ['Privacy Policy', '/privacy', 'Privacy Policy'],
    ['Terms of Service', '/terms', 'Terms of Service'],
    ['How It Works', '/how-it-works', 'How It Works'],
    ['Pricing', '/pricing', 'Simple, Honest Pricing'],
    ['FAQ', '/faq', 'Frequently Asked Questions'],
    ['About', '/about', 'About RuralRoute'],
    ['Contact', '/contact', 'Contact Us'],
  ] as const) {
    await footer.getByRole('link', { name: label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(h1);
  }
  await nav.getByRole('link', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
});

test('each plan button opens sign-up on /auth; a paid plan comes back to its page in Settings', async ({ page }) => {
  for (const [action, next] of [
    ['Start with Free', ''],
    ['Choose Plus', '&next=%2Fdashboard%2Fsettings%2Fplan%3Fplan%3Dplus'],
    ['Choose Community', '&next=%2Fdashboard%2Fsettings%2Fplan%3Fplan%3Dcommunity'],
  ]) {
    await openPage(page, '/pricing');
    await page.getByRole('link', { name: action }).click();
    await expect(page).toHaveURL(new RegExp(`/auth\\?tab=signup${next}$`));
    await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  }
});

test('the pricing plans list their contents from the spec', async ({ page }) => {
  await openPage(page, '/pricing');
  const plans = {
    Free: [
      'Unlimited ride requests',
      'Browse rides',
      'Verified profiles',
      'Basic messaging',
      'Standard support',
      'Delivery Guarantee up to $50',
    ],
    Plus: [
      'Priority listing',
      'Advanced route planning',
      'Delivery Guarantee up to $250',
      'Premium support',
      'No service fees',
    ],
    Community: ['Everything in Plus', 'Rewards', 'Early access', 'Dedicated support', 'Ambassador badge'],
  };
  for (const [plan, items] of Object.entries(plans)) {
    const list = page.getByRole('list', { name: `${plan} plan includes` });
    await expect(list.getByRole('listitem')).toHaveText(items);
  }
});

/** A FAQ item (`<details name="faq">`, decision 027), its question (the `<summary>`) and whether it is open. */
function faq(page: Page) {
  const item = (name: string) => page.locator('details').filter({ has: page.getByRole('heading', { name }) });
  return { item, q: (name: string) => item(name).locator('summary'), open: page.locator('main details[open]') };
}

test('the FAQ opens one answer at a time, by mouse', async ({ page }) => {
  await openPage(page, '/faq');
  const { item, q, open } = faq(page);
  await expect(page.getByRole('main').locator('summary')).toHaveText(FAQ_QUESTIONS);
  await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveText(FAQ_QUESTIONS);
  await expect(open).toHaveCount(0);

  await q('What items can be delivered?').click();
  await expect(item('What items can be delivered?')).toHaveAttribute('open', '');
  const answer = page.getByRole('region', { name: 'What items can be delivered?' });
  for (const entry of ['alcohol', 'tobacco', 'prescription medications', 'weapons', 'anything illegal']) {
    await expect(answer.getByRole('listitem').filter({ hasText: new RegExp(`^${entry}$`) })).toBeVisible();
  }

  await q('Can I cancel a request or a ride?').click();
  await expect(item('Can I cancel a request or a ride?')).toHaveAttribute('open', '');
  await expect(item('What items can be delivered?')).not.toHaveAttribute('open');
  await expect(page.getByText('You can cancel a booking until the delivery is complete.')).toBeVisible();
  await expect(page.getByText('alcohol')).toBeHidden();
  await expect(open).toHaveCount(1);

  // Clicking the open question closes it.
  await q('Can I cancel a request or a ride?').click();
  await expect(open).toHaveCount(0);
});

test('the FAQ works by keyboard alone', async ({ page }) => {
  await openPage(page, '/faq');
  const { item, q, open } = faq(page);
  await q(FAQ_QUESTIONS[0]!).focus();
  await page.keyboard.press('Enter');
  await expect(item(FAQ_QUESTIONS[0]!)).toHaveAttribute('open', '');
  // Arrow keys move between questions; Space opens the focused one and closes the other.
  await page.keyboard.press('ArrowDown');
  await expect(q(FAQ_QUESTIONS[1]!)).toBeFocused();
  await page.keyboard.press('Space');
  await expect(item(FAQ_QUESTIONS[1]!)).toHaveAttribute('open', '');
  await expect(item(FAQ_QUESTIONS[0]!)).not.toHaveAttribute('open');
  await page.keyboard.press('End');
  await expect(q(FAQ_QUESTIONS[7]!)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Any member aged 18 or older can drive.')).toBeVisible();
  await expect(open).toHaveCount(1);
  // Tab reaches the link inside the open answer; Enter follows it.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Create your account' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/auth\?tab=signup$/);
});

test('below 768px the navigation is a menu behind a toggle', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPage(page, '/');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  // A <details> (decision 027): its <summary> is the toggle, its label follows its state.
  const details = page.locator('header details');
  const toggle = details.locator('summary');
  await expect(toggle).toHaveAccessibleName('Open menu');
  await expect(details).not.toHaveAttribute('open');
  await toggle.click();
  const menu = page.getByRole('navigation', { name: 'Mobile' });
  await expect(details).toHaveAttribute('open', '');
  await expect(toggle).toHaveAccessibleName('Close menu');
  for (const label of ['Home', 'How It Works', 'Pricing', 'About', 'FAQ', 'Contact', 'Get Started']) {
    await expect(menu.getByRole('link', { name: label, exact: true })).toBeVisible();
  }
  await expectNoAxeViolations(page);
  await menu.getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(menu).toBeHidden();
  // The new page shown (its code may arrive after the address changed, on a busy machine): the header it renders
  // with is the one the keyboard uses next.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Simple, Honest Pricing');

  // By keyboard: open with Enter, close with Escape (focus goes back to the toggle).
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(menu).toBeVisible();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(toggle).toBeFocused();

  // At 768px and wider the links are back in the bar.
  await page.setViewportSize({ width: 768, height: 900 });
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(toggle).toBeHidden();
});

test('a first visit to a public page loads no dashboard, query or toast code', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
  for (const path of ['/', '/how-it-works', '/pricing', '/about', '/faq', '/privacy', '/terms']) {
    scripts.length = 0;
    await openPage(page, path);
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((s) => /dashboard|sidebar|session|query|toast|sonner/.test(s))).toEqual([]);
  }
  scripts.length = 0;
  await openPage(page, '/contact');
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((s) => /dashboard|sidebar/.test(s))).toEqual([]);
});

test('/auth starts without the query cache, zod or a form library; a first focus on a field brings them', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
  const formCode = () => scripts.filter((s) => /dashboard|query|schemas|zod|index\.esm|auth-engine/.test(s));
  await openPage(page, '/auth');
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  expect(formCode()).toEqual([]);
  await page.getByLabel('Email').focus();
  await expect.poll(() => formCode().some((s) => s.includes('auth-engine'))).toBe(true);
  expect(formCode().filter((s) => s.includes('dashboard'))).toEqual([]);
});

test('a new page opens at its top; Back returns to where the last one was left, and a reload keeps the place', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 700 });
  await openPage(page, '/');
  const bottom = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Privacy');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(bottom - 50);
  await page.evaluate(() => window.scrollTo(0, 300));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(300);
  await page.reload();
  await expect(page.locator('html[data-ready="true"]')).toHaveCount(1);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(300);
  // Another page opened afresh in the same tab starts at its top, not at the place kept for this one.
  await openPage(page, '/faq');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test('an unknown path shows the 404 page with a 404 status and logs the path', async ({ page }) => {
  const messages: string[] = [];
  page.on('console', (m) => messages.push(m.text()));
  const res = await openPage(page, '/pricing/nothing-here');
  expect(res?.status()).toBe(404);
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  await expect.poll(() => messages.some((m) => m.includes('/pricing/nothing-here'))).toBe(true);
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Share the Road, Share the Load');
});

for (const width of [1280, 390]) {
  test(`every public page passes axe at ${width}px`, async ({ page }) => {
    // Ten axe runs in one test: on a busy 2-core machine that outlasts the default 30 s.
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    for (const p of [...PAGES.map((x) => x.path), '/auth']) {
      await openPage(page, p);
      await page.waitForLoadState('networkidle');
      await expectNoAxeViolations(page);
    }
    await openPage(page, '/faq');
    await faq(page).q(FAQ_QUESTIONS[6]!).click();
    await expectNoAxeViolations(page);
  });
}
