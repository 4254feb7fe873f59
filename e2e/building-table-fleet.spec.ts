import { readFileSync } from 'node:fs';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import type { RunningSandbox } from '@/sandbox/src/server';
import { expectNoAxeViolations } from './support/axe';
import { labelsOf, natural, noJavaScript, TABLE } from './support/building-table';
import { addBuilding } from './support/portfolio';
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
 * The building table at fleet size, on a stack of its own with the fleet fixture (200 rows in a
 * building): natural order, pages kept in the address, a sticky header, the CSV of every match,
 * the status page's history chart, an ended connection and an outage. The shared stack's views
 * are in building-table.spec.ts.
 */
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
      buildings: { buildingId: string; name: string; timeZone: string }[];
      thermostats: { thermostatId: string; name: string; buildingId: string }[];
    }>('GET', '/portfolio?user=demo');
    const building = portfolio.buildings.find((b) => b.name === 'Portfolio Tower A');
    if (!building) throw new Error('no Portfolio Tower A in the fleet fixture');
    tower = `/buildings/${building.buildingId}`;
    const units = portfolio.thermostats.filter((t) => t.buildingId === building.buildingId);
    labels = units.map((t) => t.name);
    signedIn = await (await browser.newContext({ baseURL: appOrigin })).newPage();
    await setUpConnectedManager(signedIn);
    await addBuilding(signedIn, building);
    await signedIn.goto('/portfolio/add');
    await signedIn
      .getByLabel('Thermostat ids')
      .fill(units.map((t) => `${t.thermostatId}, ${t.name}, ${building.buildingId}`).join('\n'));
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
    await expectNoAxeViolations(page);

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
      // The labels are read once, so only after the fourth page has arrived.
      await expect(pages.locator('[aria-current=page]')).toHaveText('Page 4');
      expect(await labelsOf(plainTable)).toEqual(ordered.slice(150, 200));
      // Sorting goes back to the first page and keeps the page size.
      await plainTable.getByRole('link', { name: 'Unit', exact: true }).click();
      await expect(plain.page).toHaveURL(new RegExp(`${tower}\\?dir=desc&per=50$`));
      expect(await labelsOf(plainTable)).toEqual([...ordered].reverse().slice(0, 50));
    } finally {
      await plain.context.close();
    }
  });

  test('on a phone, every row lines up under the headings and the unit column stays in view', async () => {
    // The rows are grid rows that skip their layout out of sight: they must still read as columns.
    const page = signedIn;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(tower);
      const table = page.getByRole('table', TABLE);
      const region = page.getByRole('region', TABLE);
      const edges = (row: Locator) =>
        row.locator('th, td').evaluateAll((cells) =>
          cells.map((cell) => {
            const box = cell.getBoundingClientRect();
            return [Math.round(box.left), Math.round(box.width)];
          }),
        );
      const headings = await edges(table.locator('thead tr'));
      expect(headings).toHaveLength(10);
      expect(await edges(table.locator('tbody tr').first())).toEqual(headings);
      const last = table.locator('tbody tr').last();
      await region.evaluate((element) => {
        element.scrollIntoView({ block: 'end' });
        element.scrollTo(0, element.scrollHeight);
      });
      await expect(last).toBeInViewport();
      expect(await edges(last)).toEqual(headings);

      // Sideways, the unit column stays at the window's left edge while the last column comes in.
      await region.evaluate((element) =>
        element.scrollTo(element.scrollWidth, element.scrollHeight),
      );
      const left = (await region.boundingBox())?.x ?? -99;
      expect(
        Math.abs(((await last.getByRole('rowheader').boundingBox())?.x ?? 99) - left),
      ).toBeLessThan(3);
      await expect(table.getByRole('columnheader', { name: 'Last read' })).toBeInViewport();
      await expect(last.locator('td').last()).toBeInViewport();
    } finally {
      await page.setViewportSize({ width: 1280, height: 720 });
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
    // Added today: its history starts then, and says so.
    await expect(
      history.getByText(/^\d+ readings since it was added; temperature between/),
    ).toBeVisible();
    await expect(
      history.getByText(/^Its history starts when it was added to Setpoint, today/),
    ).toBeVisible();
    await expect(history.getByRole('img', { name: /^Temperature and setpoints/ })).toBeVisible();
    await expect(history.getByRole('img', { name: /^Humidity/ })).toBeVisible();
    const line = history.locator('path[data-series=temperature]').first();
    await expect(line).toHaveAttribute('d', /^M[\d.]+ [\d.]+/);
    // Drawn from when it was added: its first reading near the left edge (of 1000), not the right.
    const firstX = Number((await line.getAttribute('d'))?.match(/^M([\d.]+)/)?.[1]);
    expect(firstX).toBeLessThan(150);
    await history.getByText('The history as a table').click();
    const rows = history.getByRole('table').locator('tbody tr');
    await expect(rows.first()).toContainText('°F');
    await expect(history.getByRole('link', { name: '24 hours' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await history.getByRole('link', { name: '7 days' }).click();
    await expect(page).toHaveURL(new RegExp(`${thermostat}\\?range=7d$`));
    await expect(history.getByText(/readings since it was added/)).toBeVisible();
    await expect(history.getByRole('link', { name: '7 days' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expectNoAxeViolations(page);
  });

  test('a row ticked while it is read again keeps its tick when the new reading streams in', async () => {
    const page = signedIn;
    await page.goto(`${tower}?per=25`);
    const table = page.getByRole('table', TABLE);
    await expect(
      table.getByRole('checkbox', { name: 'Select every thermostat on this page' }),
    ).toBeEnabled();
    // Each thermostat takes 3 s to answer: meanwhile the rows show what was known.
    await control('PUT', '/latency', {
      endpoints: { 'GET /api/v2/thermostats/:id/status': 3000 },
    });
    try {
      await page.getByRole('button', { name: 'Refresh statuses' }).click();
      const row = table.locator('tbody tr').first();
      await expect(row).toHaveAttribute('aria-busy', 'true');
      await row.getByRole('checkbox').check();
      await expect(page.getByText('1 selected', { exact: true })).toBeVisible();
      await expect(row).not.toHaveAttribute('aria-busy', 'true', { timeout: 30_000 });
      await expect(row).toHaveAttribute('data-state', 'read');
      await expect(row.getByRole('checkbox')).toBeChecked();
      await expect(page.getByText('1 selected', { exact: true })).toBeVisible();
    } finally {
      await control('PUT', '/latency', { endpoints: {} });
    }
  });

  test('with the connection ended, the page says so once and offers to reconnect', async () => {
    const page = signedIn;
    // A month on at the service: the refresh token has expired.
    await control('POST', '/clock/advance', { seconds: 31 * 86_400 });
    await page.goto(tower);
    await page.getByRole('button', { name: 'Refresh statuses' }).click();
    // Said once, with the way back at once: one Reconnect button, before any reload.
    const notice = page.getByText(
      /Setpoint cannot read these thermostats\. The thermostat service/,
    );
    await expect(notice).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Reconnect' })).toHaveCount(1);
    await page.reload();
    await expect(notice).toHaveCount(1);
    const banner = page
      .getByRole('status')
      .filter({ hasText: 'Reconnect to keep managing thermostats' });
    await expect(banner.getByRole('button', { name: 'Reconnect' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reconnect' })).toHaveCount(1);
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
