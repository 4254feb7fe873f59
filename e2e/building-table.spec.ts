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
    // Once the rows read again have streamed in: a notice they bring (another spec's outage on
    // this shared stack) moves the table down, and a click aimed before it would miss.
    await expect(page.getByRole('status').filter({ hasText: /reading \d+ again/ })).toHaveCount(0);
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
      await expect(plain.page).toHaveURL(/\/bulk\?from=building&ids=\d{12}#new-change$/);
      await expect(plain.page.getByText('1 selected', { exact: true })).toBeVisible();
    } finally {
      await plain.context.close();
    }
  });

  test('flags the units that need attention, and the overview’s card leads to them', async ({
    page,
    browser,
  }) => {
    // The demo's offline unit, in Cascade Commons: "Offline" on Needs attention once it is read.
    const cascade = await demoThermostatsIn('Cascade Commons');
    const down = cascade.thermostats.find((t) => t.name.endsWith('(offline)'));
    if (!down) throw new Error('the demo has no offline thermostat in Cascade Commons');
    const where = `/buildings/${cascade.building.buildingId}`;
    const table = page.getByRole('table', TABLE);
    const rowOf = (name: string) =>
      table.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
    // The flag's words ("Needs attention: Offline"), not its hidden lead-in alone.
    const flags = table.getByText(/^Needs attention: \S/);

    // Rows read for the first time are flagged once the store has their reading (a page later).
    await expect(async () => {
      await page.goto(where);
      await expect(rowOf(down.name).getByText(/^Needs attention: .*Offline/)).toBeVisible({
        timeout: 2_000,
      });
    }).toPass({ timeout: 30_000, intervals: [1_000, 2_000] });
    const flagged = await flags.count();
    expect(flagged).toBeGreaterThanOrEqual(1);
    const status = page
      .getByRole('status')
      .filter({ hasText: `${cascade.thermostats.length} thermostats` });
    await expect(status).toContainText(`${flagged} need${flagged === 1 ? 's' : ''} attention`);

    // The overview's card for the building leads to its units that need attention, and only those.
    await page.goto('/');
    await page
      .getByRole('link', { name: 'Show the units that need attention in Cascade Commons' })
      .click();
    await expect(page).toHaveURL(new RegExp(`${where}\\?attention=needs$`));
    await expect(page.getByLabel('Attention', { exact: true })).toHaveValue('needs');
    await expect(table.locator('tbody tr')).toHaveCount(flagged);
    await expect(flags).toHaveCount(flagged);
    await expect(rowOf(down.name)).toBeVisible();
    if (flagged < cascade.thermostats.length) {
      await expect(status).toContainText(`showing ${flagged}`);
    }
    // Each item in full is one link away.
    await page.getByRole('link', { name: 'Needs attention for Cascade Commons' }).click();
    await expect(page).toHaveURL(
      new RegExp(`/attention\\?building=${cascade.building.buildingId}$`),
    );
    await expect(
      page
        .getByRole('list', { name: 'Items needing attention' })
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: down.name, exact: true }) })
        .filter({ hasText: 'Offline' }),
    ).toHaveCount(1);

    // The filter is in the address and the form, without JavaScript too; clearing it shows all.
    const plain = await noJavaScript(browser, page);
    try {
      await plain.page.goto(where);
      await plain.page
        .getByLabel('Attention', { exact: true })
        .selectOption({ label: 'Needs attention' });
      await plain.page.getByRole('button', { name: 'Apply' }).click();
      await expect(plain.page).toHaveURL(new RegExp(`${where}\\?attention=needs$`));
      const plainTable = plain.page.getByRole('table', TABLE);
      await expect(plainTable.locator('tbody tr:visible')).toHaveCount(flagged);
      await expect(plainTable.getByText(/^Needs attention: \S/)).toHaveCount(flagged);
      await plain.page.getByRole('link', { name: 'Clear filters' }).click();
      await expect(plain.page).toHaveURL(new RegExp(`${where}$`));
      await expect(plainTable.locator('tbody tr:visible')).toHaveCount(cascade.thermostats.length);
    } finally {
      await plain.context.close();
    }
    await page.goto(`${where}?attention=needs`);
    await expectNoAxeViolations(page);
  });
});
