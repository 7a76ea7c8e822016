import type { Locator, Page } from 'playwright-core';

/** Opens the '⋯' menu of a row or card ('Actions for {label}') and returns its item of that name. */
export async function rowActionItem(page: Page, label: string, item: string): Promise<Locator> {
  await page.getByRole('button', { name: `Actions for ${label}`, exact: true }).click();
  return page.getByRole('menu').getByRole('menuitem', { name: item, exact: true });
}

/** Chooses one action of a row's '⋯' menu. */
export async function chooseRowAction(page: Page, label: string, item: string): Promise<void> {
  await (await rowActionItem(page, label, item)).click();
}
