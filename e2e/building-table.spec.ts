import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { expectNoAxeViolations } from './support/axe';
import { labelsOf, natural, noJavaScript, TABLE, temperaturesOf } from './support/building-table';
import { demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';

/**
 * The building table on the shared stack: searched, filtered, sorted and paged by the server,
 * kept in the address (with and without JavaScript), exported as CSV, selected for a bulk change.
 * It only reads "Lakeshore Lofts" (comfort-settings.spec.ts changes its comfort settings, never
 * its units). At fleet size: building-table-fleet.spec.ts.
 */
test.describe('on the shared stack', () => {
  let path = '';
  let units = 0;
  test.beforeEach(async ({ page }) => {
    // The first spec to run imports the demo portfolio; the views are round trips to the server.
    test.setTimeout(90_000);
    await signInWithDemoPortfolio(page);
    const lakeshore = await demoThermostatsIn('Lakeshore Lofts');
    path = `/buildings/${lakeshore.building.buildingId}`;
    units = lakeshore.thermostats.length;
  });

  test('sorts, searches and filters in the address, with JavaScript and without', async ({
    page,
    browser,
  }) => {
    await page.goto(path);
    const table = page.getByRole('table', TABLE);
    await expect(table.locator('tbody tr')).toHaveCount(units);
    expect(await labelsOf(table)).toEqual([...(await labelsOf(table))].sort(natural.compare));

    await table.getByRole('link', { name: 'Temperature' }).click();
    await expect(page).toHaveURL(new RegExp(`${path}\\?sort=temperature$`));
    await expect(table.getByRole('columnheader', { name: 'Temperature' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    const rising = await temperaturesOf(table);
    expect(rising).toEqual([...rising].sort((a, b) => a - b));
    await table.getByRole('link', { name: 'Temperature' }).click();
    await expect(page).toHaveURL(/sort=temperature&dir=desc$/);
    await expect(table.getByRole('columnheader', { name: 'Temperature' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    expect(await temperaturesOf(table)).toEqual([...rising].reverse());

    // A search keeps the order; the address is the clean form of the view.
    await page.getByLabel('Search').fill('Unit 3');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/\?q=Unit\+3&sort=temperature&dir=desc$/);
    await expect(table.locator('tbody tr')).toHaveCount(2);
    // By role, which leaves out the hidden copy a status line streams in while rows are read.
    await expect(
      page.getByRole('status').filter({ hasText: `${units} thermostats` }),
    ).toContainText('showing 2');
    // A filter by the stored status: every row left has that mode.
    // (Modes are shown in words, "Auto (heat or cool)"; the address keeps the service's code.)
    const mode = (
      (await table.locator('tbody tr').first().locator('td').nth(3).textContent()) ?? ''
    ).trim();
    const modeSelect = page.getByLabel('Mode', { exact: true });
    await modeSelect.selectOption({ label: mode });
    const code = await modeSelect.inputValue();
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(new RegExp(`mode=${code}`));
    for (const cell of await table.locator('tbody tr td:nth-child(5)').allTextContents()) {
      expect(cell.startsWith(mode)).toBe(true);
    }
    // The address alone brings the view back.
    const address = page.url();
    await page.goto(path);
    await page.goto(address);
    await expect(page.getByLabel('Search')).toHaveValue('Unit 3');
    await expect(page.getByLabel('Mode', { exact: true })).toHaveValue(code);
    await expectNoAxeViolations(page);

    // Without JavaScript: the same links and the same form.
    const plain = await noJavaScript(browser, page);
    try {
      await plain.page.goto(`${path}?sort=unit&dir=desc`);
      // The plain order's default is left out of the address.
      await expect(plain.page).toHaveURL(new RegExp(`${path}\\?dir=desc$`));
      const plainTable = plain.page.getByRole('table', TABLE);
      const descending = await labelsOf(plainTable);
      expect(descending).toEqual([...descending].sort(natural.compare).reverse());
      await plainTable.getByRole('link', { name: 'Humidity' }).click();
      await expect(plain.page).toHaveURL(/\?sort=humidity$/);
      await plain.page.getByLabel('Search').fill('Boiler');
      await plain.page.getByRole('button', { name: 'Apply' }).click();
      await expect(plain.page).toHaveURL(/\?q=Boiler&sort=humidity$/);
      await expect(plainTable.locator('tbody tr:visible')).toHaveCount(1);
      await plain.page.getByRole('link', { name: 'Clear filters' }).click();
      await expect(plain.page).toHaveURL(/\?sort=humidity$/);
      await expect(plainTable.locator('tbody tr:visible')).toHaveCount(units);
    } finally {
      await plain.context.close();
    }
  });

  test('downloads what is shown as CSV: the same rows in the same order', async ({ page }) => {
    await page.goto(`${path}?q=Unit&sort=temperature&dir=desc`);
    const table = page.getByRole('table', TABLE);
    const shown = await labelsOf(table);
    expect(shown.length).toBe(units - 1); // every unit but the boiler room
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /Download CSV/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Lakeshore-Lofts-\d{4}-\d{2}-\d{2}\.csv$/);
    const records = parse(readFileSync((await download.path()) ?? ''), { bom: true }) as string[][];
    const [header, ...rows] = records;
    expect(header?.slice(0, 3)).toEqual(['unit', 'thermostat id', 'temperature (°F)']);
    expect(rows.map((row) => row[0])).toEqual(shown);
    expect(rows.map((row) => Number(row[2]))).toEqual(await temperaturesOf(table));
  });

  test('selected rows start a bulk change with their ids, with JavaScript and without', async ({
    page,
    browser,
  }) => {
    await page.goto(path);
    const table = page.getByRole('table', TABLE);
    const selectAll = table.getByRole('checkbox', { name: 'Select every thermostat on this page' });
    await expect(selectAll).toBeEnabled();
    await selectAll.check();
    await expect(page.getByText(`${units} selected`)).toBeVisible();
    await table.getByRole('checkbox', { name: 'Select Boiler Room' }).uncheck();
    await expect(page.getByText(`${units - 1} selected`)).toBeVisible();
    await expect(selectAll).not.toBeChecked();
    const ids = await table
      .locator('tbody input[name=ids]:checked')
      .evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).value));
    await page.getByRole('button', { name: 'Change selected…' }).click();
    await expect(page).toHaveURL(/\/bulk\?.*#new-change$/);
    expect(new URL(page.url()).searchParams.getAll('ids')).toEqual(ids);
    // The bulk page's new change starts with exactly those chosen.
    await expect(page.getByText(`${ids.length} selected`, { exact: true })).toBeVisible();

    const plain = await noJavaScript(browser, page);
    try {
      await plain.page.goto(path);
      const plainTable = plain.page.getByRole('table', TABLE);
      await plainTable.getByRole('checkbox', { name: 'Select Boiler Room' }).check();
      await plain.page.getByRole('button', { name: 'Change selected…' }).click();
      await expect(plain.page).toHaveURL(/\/bulk\?ids=\d{12}#new-change$/);
      await expect(plain.page.getByText('1 selected', { exact: true })).toBeVisible();
    } finally {
      await plain.context.close();
    }
  });
});
