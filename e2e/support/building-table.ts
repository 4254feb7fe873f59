import type { Browser, Locator, Page } from '@playwright/test';

/** What the building-table specs (shared stack and fleet) share. */
export const TABLE = { name: 'Thermostats and their live status' } as const;

/** The unit labels of the rows shown, in order. */
export const labelsOf = (table: Locator) =>
  table.locator('tbody th[scope=row] a').allTextContents();

/** A column's cells (1-based among the data columns after the unit), as numbers where they are. */
export async function temperaturesOf(table: Locator): Promise<number[]> {
  const cells = await table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => row.querySelector('th')?.nextElementSibling?.textContent ?? ''),
    );
  return cells.map((text) => Number.parseFloat(text)).filter((value) => !Number.isNaN(value));
}

export const natural = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export async function noJavaScript(browser: Browser, signedIn: Page, baseURL?: string) {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await signedIn.context().storageState(),
    ...(baseURL ? { baseURL } : {}),
  });
  return { context, page: await context.newPage() };
}
