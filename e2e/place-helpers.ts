import { expect, type Locator, type Page } from '@playwright/test';

/** The hint under a location field whose text is not a chosen place. */
export const PICK_SUGGESTION_HINT = 'Pick a suggestion to be matched by distance.';

/**
 * Types into the focused place combobox, then ArrowDown until the active option starts with `label` ('Decatur, IL'
 * followed by its ZIP), then Enter: a suggestion chosen with the keyboard only.
 */
export async function chooseByKeyboard(page: Page, combobox: Locator, typed: string, label: string) {
  await expect(combobox).toBeFocused();
  await page.keyboard.type(typed);
  await expect(combobox).toHaveAttribute('aria-expanded', 'true');
  const active = async () => {
    const id = await combobox.getAttribute('aria-activedescendant');
    return id ? page.locator(`[id="${id}"]`).innerText() : '';
  };
  for (let i = 0; i < 8 && !(await active()).startsWith(label); i++) await page.keyboard.press('ArrowDown');
  expect(await active()).toMatch(new RegExp(`^${label}\\s+\\d{5}$`));
  await page.keyboard.press('Enter');
  await expect(combobox).toHaveValue(label);
  await expect(combobox).toHaveAttribute('aria-expanded', 'false');
}
