import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import type { RunningSandbox } from '@/sandbox/src/server';
import { demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';
import { answerConsent } from './support/sandbox';
import { controlOf } from './support/soak';
import {
  type AppInstance,
  deploymentSecrets,
  extraPort,
  setUpConnectedManager,
  startApp,
  startOwnSandbox,
} from './support/stack';

/**
 * The building table: searched, filtered, sorted and paged by the server, kept in the address
 * (with and without JavaScript), exported as CSV, selected for a bulk change; at fleet size (200
 * rows, on a stack of its own with the fleet fixture) in natural order, in pages, under a sticky
 * header, through an outage and an ended connection; and the status page's history chart.
 *
 * On the shared stack it only reads "Lakeshore Lofts" (comfort-settings.spec.ts changes its
 * comfort settings, never its units).
 */
const TABLE = { name: 'Thermostats and their live status' } as const;

/** The unit labels of the rows shown, in order. */
const labelsOf = (table: Locator) => table.locator('tbody th[scope=row] a').allTextContents();

/** A column's cells (1-based among the data columns after the unit), as numbers where they are. */
async function temperaturesOf(table: Locator): Promise<number[]> {
  const cells = await table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => row.querySelector('th')?.nextElementSibling?.textContent ?? ''),
    );
  return cells.map((text) => Number.parseFloat(text)).filter((value) => !Number.isNaN(value));
}

const natural = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

async function noJavaScript(browser: Browser, signedIn: Page, baseURL?: string) {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await signedIn.context().storageState(),
    ...(baseURL ? { baseURL } : {}),
  });
  return { context, page: await context.newPage() };
}

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
    await expect(page.getByText(`${units} thermostats`)).toContainText('showing 2');
    // A filter by the stored status: every row left has that mode.
    const mode = (await table.locator('tbody tr').first().locator('td').nth(3).textContent()) ?? '';
    await page.getByLabel('Mode', { exact: true }).selectOption(mode.trim());
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(new RegExp(`mode=${mode.trim()}`));
    for (const cell of await table.locator('tbody tr td:nth-child(5)').allTextContents()) {
      expect(cell.startsWith(mode.trim())).toBe(true);
    }
    // The address alone brings the view back.
    const address = page.url();
    await page.goto(path);
    await page.goto(address);
    await expect(page.getByLabel('Search')).toHaveValue('Unit 3');
    await expect(page.getByLabel('Mode', { exact: true })).toHaveValue(mode.trim());
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

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

test.describe('at fleet size, on a stack of its own', () => {
  // One stack, set up once; the tests follow each other (the last two end the connection and
  // break the service).
  test.describe.configure({ mode: 'serial', timeout: 90_000 });
  const appOrigin = `http://127.0.0.1:${extraPort(8)}`;
  let sandbox: RunningSandbox;
  let app: AppInstance;
  let control: ReturnType<typeof controlOf>;
  let tower = '';
  let labels: string[] = [];
  let signedIn: Page;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(240_000);
    sandbox = await startOwnSandbox(appOrigin, { fixture: 'fleet' });
    control = controlOf(sandbox.url);
    app = await startApp({
      port: extraPort(8),
      publicUrl: appOrigin,
      serviceUrl: sandbox.url,
      // Rows stay fresh for an hour: views read the store; "Refresh statuses" reads again.
      env: { ...deploymentSecrets(), READINGS_TARGET_MINUTES: '60' },
    });
    const portfolio = await control<{
      buildings: { buildingId: string; name: string }[];
      thermostats: { thermostatId: string; name: string; buildingId: string }[];
    }>('GET', '/portfolio?user=demo');
    const building = portfolio.buildings.find((b) => b.name === 'Portfolio Tower A');
    if (!building) throw new Error('no Portfolio Tower A in the fleet fixture');
    tower = `/buildings/${building.buildingId}`;
    const units = portfolio.thermostats.filter((t) => t.buildingId === building.buildingId);
    labels = units.map((t) => t.name);
    signedIn = await (await browser.newContext({ baseURL: appOrigin })).newPage();
    await setUpConnectedManager(signedIn);
    await signedIn.goto('/portfolio/add');
    await signedIn
      .getByLabel('Thermostat ids')
      .fill(units.map((t) => `${t.thermostatId}, ${t.name}`).join('\n'));
    await signedIn.getByRole('button', { name: 'Add thermostats' }).click();
    await expect(signedIn.getByText(/^200 added/)).toBeVisible({ timeout: 180_000 });
  });

  test.afterAll(async () => {
    await signedIn?.context().close();
    await app?.stop();
    await sandbox?.close();
  });

  test('200 thermostats in natural order, in pages kept in the address, under a sticky header', async ({
    browser,
  }) => {
    const page = signedIn;
    expect(labels.length).toBe(200);
    const ordered = [...labels].sort(natural.compare);
    expect(ordered.indexOf('Unit 101')).toBeLessThan(ordered.indexOf('Unit 1001'));

    await page.goto(tower);
    const table = page.getByRole('table', TABLE);
    await expect(table.locator('tbody tr')).toHaveCount(200);
    await expect(page.getByText('200 thermostats')).toBeVisible();
    // Every row from the store at once, each with its age.
    await expect(table.locator('tbody tr[data-state=read]')).toHaveCount(200);
    await expect(table.locator('tbody time').first()).toHaveText(/just now|min ago/);
    expect(await labelsOf(table)).toEqual(ordered);

    // The header stays in view as the table scrolls in its window.
    const region = page.getByRole('region', TABLE);
    const header = table.getByRole('columnheader', { name: 'Temperature' });
    await region.evaluate((element) => element.scrollIntoView({ block: 'end' }));
    const top = (await region.boundingBox())?.y ?? 0;
    await region.evaluate((element) => element.scrollTo(0, element.scrollHeight));
    const last = ordered.at(-1) ?? '';
    await expect(table.getByRole('row', { name: new RegExp(`${last}\\b`) })).toBeInViewport();
    await expect(header).toBeInViewport();
    expect(Math.abs(((await header.boundingBox())?.y ?? -99) - top)).toBeLessThan(3);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    // Pages of 50, linked by address, without JavaScript too.
    const plain = await noJavaScript(browser, page, appOrigin);
    try {
      await plain.page.goto(`${tower}?per=50`);
      const plainTable = plain.page.getByRole('table', TABLE);
      await expect(plain.page.getByText('showing 1–50 of 200')).toBeVisible();
      expect(await labelsOf(plainTable)).toEqual(ordered.slice(0, 50));
      const pages = plain.page.getByRole('navigation', { name: 'Pages of thermostats' });
      await pages.getByRole('link', { name: 'Next' }).click();
      await expect(plain.page).toHaveURL(new RegExp(`${tower}\\?per=50&page=2$`));
      expect(await labelsOf(plainTable)).toEqual(ordered.slice(50, 100));
      await pages.getByRole('link', { name: 'Page 4' }).click();
      expect(await labelsOf(plainTable)).toEqual(ordered.slice(150, 200));
      await expect(pages.locator('[aria-current=page]')).toHaveText('Page 4');
      // Sorting goes back to the first page and keeps the page size.
      await plainTable.getByRole('link', { name: 'Unit', exact: true }).click();
      await expect(plain.page).toHaveURL(new RegExp(`${tower}\\?dir=desc&per=50$`));
      expect(await labelsOf(plainTable)).toEqual([...ordered].reverse().slice(0, 50));
    } finally {
      await plain.context.close();
    }
  });

  test('the CSV holds every row that matches, not only the page shown', async () => {
    const page = signedIn;
    await page.goto(`${tower}?q=Unit&sort=temperature&dir=desc&per=50`);
    const status = page.getByText('200 thermostats');
    const matching = Number((await status.textContent())?.match(/of (\d+)/)?.[1]);
    expect(matching).toBeGreaterThan(50);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /Download CSV/ }).click(),
    ]);
    const [, ...rows] = parse(readFileSync((await download.path()) ?? ''), {
      bom: true,
    }) as string[][];
    expect(rows.length).toBe(matching);
    expect(rows.slice(0, 50).map((row) => row[0])).toEqual(
      await labelsOf(page.getByRole('table', TABLE)),
    );
    const temperatures = rows.map((row) => Number(row[2]));
    expect(temperatures).toEqual([...temperatures].sort((a, b) => b - a));
  });

  test('the status page charts the stored history, 24 hours or 7 days by address', async () => {
    const page = signedIn;
    await page.goto(tower);
    await page.getByRole('link', { name: 'Unit 102', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Unit 102', level: 1 })).toBeVisible();
    const thermostat = new URL(page.url()).pathname;
    // A few more readings: each view of the status page reads it.
    for (let i = 0; i < 3; i += 1) await page.reload();
    const history = page.getByRole('region', { name: 'History' });
    await expect(
      history.getByText(/^\d+ readings over the last 24 hours; temperature between/),
    ).toBeVisible();
    await expect(history.getByRole('img', { name: /^Temperature and setpoints/ })).toBeVisible();
    await expect(history.getByRole('img', { name: /^Humidity/ })).toBeVisible();
    await expect(history.locator('path[data-series=temperature]').first()).toHaveAttribute(
      'd',
      /^M[\d.]+ [\d.]+/,
    );
    await history.getByText('The history as a table').click();
    const rows = history.getByRole('table').locator('tbody tr');
    await expect(rows.first()).toContainText('°F');
    await expect(history.getByRole('link', { name: '24 hours' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await history.getByRole('link', { name: '7 days' }).click();
    await expect(page).toHaveURL(new RegExp(`${thermostat}\\?range=7d$`));
    await expect(history.getByText(/over the last 7 days/)).toBeVisible();
    await expect(history.getByRole('link', { name: '7 days' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    // The chart in the dark too (the page's header above it is not this spec's).
    await page.emulateMedia({ colorScheme: 'dark' });
    const chart = new AxeBuilder({ page }).include('section[aria-labelledby=history-title]');
    expect((await chart.analyze()).violations).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  test('with the connection ended, the page says so once and offers to reconnect', async () => {
    const page = signedIn;
    // A month on at the service: the refresh token has expired.
    await control('POST', '/clock/advance', { seconds: 31 * 86_400 });
    await page.goto(tower);
    await page.getByRole('button', { name: 'Refresh statuses' }).click();
    const notice = page.getByText(/until the service connection is reconnected/);
    await expect(notice).toHaveCount(1);
    await page.reload();
    await expect(notice).toHaveCount(1);
    const banner = page.getByRole('status').filter({ hasText: 'you will come back to this page' });
    await expect(banner.getByRole('button', { name: 'Reconnect' })).toBeVisible();
    const table = page.getByRole('table', TABLE);
    // Every row as last known, with its age; no error in any row.
    await expect(table.locator('tbody tr')).toHaveCount(200);
    await expect(table.locator('tbody tr').filter({ hasText: '°F' })).toHaveCount(200);
    await expect(table.getByText('Not refreshed')).toHaveCount(0);
    await expect(table.getByText('connection ended')).toHaveCount(0);

    await banner.getByRole('button', { name: 'Reconnect' }).click();
    await answerConsent(page, 'Accept');
    await expect(page).toHaveURL(new RegExp(`${tower}$`));
    await expect(banner).toHaveCount(0);
  });

  test('in an outage every row shows what it last knew and how old it is; the page says so once', async () => {
    const page = signedIn;
    await control('PUT', '/faults', {
      faults: [{ endpoint: 'GET /api/v2/thermostats/:id/status', kind: 503 }],
    });
    try {
      await page.goto(tower);
      await page.getByRole('button', { name: 'Refresh statuses' }).click();
      const table = page.getByRole('table', TABLE);
      // Every read failed; each row keeps its last reading and says how old it is.
      await expect(table.locator('tbody tr[data-state=failed]')).toHaveCount(200, {
        timeout: 60_000,
      });
      await expect(page.getByText(/not responding right now/)).toHaveCount(1);
      await expect(table.locator('tbody tr').filter({ hasText: '°F' })).toHaveCount(200);
      for (const age of await table.locator('tbody time').allTextContents()) {
        expect(age).toMatch(/^(just now|\d+ min ago)$/);
      }
      await expect(table.getByText('Not refreshed')).toHaveCount(0);
      // The store says so on the next view at once, before any read.
      await page.goto(`${tower}?connection=unread&per=50`);
      await expect(page.getByText(/not responding right now/)).toHaveCount(1);
      await expect(page.getByText('showing 1–50 of 200')).toBeVisible();
    } finally {
      await control('DELETE', '/faults');
    }
  });
});
