import { expect, type Page } from '@playwright/test';

/**
 * Opens a page and waits until React has taken it over. Prerendered pages show their HTML first and start their
 * scripts after the first paint; until hydration their buttons (menu, FAQ, forms) do nothing.
 */
export async function openPage(page: Page, url: string) {
  const res = await page.goto(url);
  await expect(page.locator('html[data-ready="true"]')).toHaveCount(1);
  return res;
}
