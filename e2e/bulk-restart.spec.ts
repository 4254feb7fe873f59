import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import type { RunningSandbox } from '@/sandbox/src/server';
import { demoServiceToken } from './support/sandbox';
import { control } from './support/scale-out';
import {
  type AppInstance,
  cookieHeader,
  deploymentSecrets,
  extraPort,
  setUpConnectedManager,
  startApp,
  startOwnSandbox,
} from './support/stack';

/**
 * A bulk run is a durable job (docs/architecture.md, "Work in the background"): killed mid-run
 * (SIGKILL, no goodbye), the app comes back on the same embedded database and finishes the run,
 * sending only what was still pending, plus once more the requests that were in flight when it died
 * (their answers never reached it; a configuration write sets the same values again). Every
 * thermostat ends with exactly one result, the service holds the change on every one, and the run
 * is one activity entry.
 */

const PORT = extraPort(5);
const APP_URL = `http://127.0.0.1:${PORT}`;
const BULK_ENDPOINT = 'PATCH /api/v2/thermostats/settings';
/** A demo building, filled up to 125 thermostats: 5 requests, 3 in flight at a time. */
const BUILDING = 'Harbor View Apartments';
const REQUESTS = 5;
/** Each bulk request takes this long at the service: the run is surely in flight when killed. */
const LATENCY_MS = 2500;

type Progress = {
  state: string;
  finished: boolean;
  counts: Record<'pending' | 'applied' | 'failed' | 'not_sent' | 'cancelled' | 'total', number>;
};

test.describe.configure({ mode: 'serial', timeout: 150_000 });

test.describe('a bulk run across a crash of the app', () => {
  let sandbox: RunningSandbox | undefined;
  let app: AppInstance | undefined;
  let context: BrowserContext | undefined;
  let page: Page;

  test.afterAll(async () => {
    const steps = [() => context?.close(), () => app?.stop(), () => sandbox?.close()];
    const failures: unknown[] = [];
    for (const step of steps) {
      try {
        await step();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length) throw failures[0];
  });

  test('killed mid-run and restarted, the run finishes with every thermostat’s result once', async ({
    browser,
  }) => {
    const timings: Record<string, number> = {};
    const started = Date.now();
    const mark = (what: string) => {
      timings[what] = Date.now() - started;
      console.log(`bulk restart: ${what} at ${timings[what]} ms`);
    };

    sandbox = await startOwnSandbox(APP_URL);
    const own = sandbox;
    // One deployment across both lives of the app: the same data folder and secrets.
    const env = deploymentSecrets();
    const start = () => startApp({ port: PORT, publicUrl: APP_URL, serviceUrl: own.url, env });
    app = await start();
    mark('app up');
    context = await browser.newContext({ baseURL: APP_URL });
    page = await context.newPage();
    await setUpConnectedManager(page);
    mark('connected');
    await page.goto('/portfolio/add');
    await page.getByRole('button', { name: 'Import the sandbox demo portfolio' }).click();
    await expect(page.getByText(/^\d+ added/)).toBeVisible({ timeout: 60_000 });

    // More thermostats at the service in one of the demo's buildings, added by paste, for a
    // selection of more requests than are in flight at once.
    const token = await demoServiceToken(own.url, APP_URL);
    const portfolio = await control<{
      buildings: { buildingId: string; name: string }[];
      thermostats: { thermostatId: string; buildingId: string }[];
    }>(own, 'GET', '/portfolio?user=demo');
    const building = portfolio.buildings.find((b) => b.name === BUILDING);
    if (!building) throw new Error(`no ${BUILDING} in the demo fixture`);
    const present = portfolio.thermostats.filter((t) => t.buildingId === building.buildingId);
    const created: string[] = [];
    for (let n = 1; created.length + present.length < REQUESTS * 25; n += 1) {
      const response = await fetch(
        `${own.url}/api/v2/thermostats/${building.buildingId}/thermostats`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ isResidentMode: true, name: `Crash ${n}` }),
        },
      );
      expect(response.ok, 'create a thermostat').toBe(true);
      created.push((await response.json()).data.id);
    }
    await page.goto('/portfolio/add');
    await page
      .getByLabel('Thermostat ids')
      .fill(created.map((id, i) => `${id}, Crash ${i + 1}, ${building.name}`).join('\n'));
    await page.getByRole('button', { name: 'Add thermostats' }).click();
    await expect(page.getByText(`${created.length} added.`)).toBeVisible({ timeout: 60_000 });
    mark('set up');

    const selection = [...present.map((t) => t.thermostatId), ...created];
    expect(selection).toHaveLength(REQUESTS * 25);
    const offline = new Set<string>();
    for (const id of selection) {
      const record = await control<{ connected: boolean }>(own, 'GET', `/thermostats/${id}`);
      if (!record.connected) offline.add(id);
    }
    // An offline thermostat fails in the run and keeps what it had.
    const fanBefore = new Map<string, number>();
    for (const id of offline) {
      const response = await fetch(`${own.url}/api/v2/thermostats/${id}/settings`, {
        headers: { authorization: `Bearer ${token}` },
      });
      fanBefore.set(id, (await response.json()).data.fanMinimumOnTime);
    }
    await control(own, 'PUT', '/latency', { endpoints: { [BULK_ENDPOINT]: LATENCY_MS } });
    await control(own, 'DELETE', '/calls');

    // Asked first, then started.
    await page.goto('/bulk');
    await page.getByLabel(new RegExp(`^Select all in ${BUILDING}`)).check();
    await page.getByLabel('Fan minimum on-time (minutes per hour)').fill('45');
    await page.getByRole('button', { name: `Apply to ${selection.length} thermostats…` }).click();
    await expect(
      page.getByRole('heading', { name: `Apply to ${selection.length} thermostats?` }),
    ).toBeVisible();
    await page
      .getByRole('button', { name: `Apply to ${selection.length} thermostats`, exact: true })
      .click();
    await expect(page).toHaveURL(/\/bulk\/runs\/[0-9a-f-]{36}$/);
    const runUrl = page.url();
    const cookie = await cookieHeader(page);
    const progress = async (): Promise<Progress> => {
      const response = await fetch(`${runUrl}/progress`, { headers: { cookie } });
      expect(response.status, 'progress').toBe(200);
      return (await response.json()) as Progress;
    };
    mark('run started');

    // The first requests have answered, the next are in flight: kill it there.
    let before: Progress;
    for (;;) {
      before = await progress();
      if (before.counts.total - before.counts.pending >= 25) break;
      expect(Date.now() - started, 'first results in time').toBeLessThan(120_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await app.kill();
    mark('killed');
    expect(before.finished).toBe(false);
    expect(before.counts.pending).toBeGreaterThan(0);
    const bulkCallsAtKill = (await control<{ calls: Record<string, number> }>(own, 'GET', '/calls'))
      .calls[BULK_ENDPOINT];
    // Some were in flight then: sent, their answers still to come.
    expect(bulkCallsAtKill, 'requests sent before the kill').toBeLessThanOrEqual(REQUESTS);

    app = await start();
    mark('restarted');
    await page.goto(runUrl);
    const expected =
      offline.size === 0
        ? 'Done'
        : `Done with ${offline.size} failure${offline.size === 1 ? '' : 's'}`;
    await expect(page.getByRole('heading', { name: expected, exact: true })).toBeVisible({
      timeout: 90_000,
    });
    mark('finished');
    await expect(
      page.getByText(
        `${selection.length - offline.size} done, ${offline.size} failed, 0 not sent (of ${selection.length}).`,
      ),
    ).toBeVisible();
    const after = await progress();
    expect(after.counts).toMatchObject({ pending: 0, total: selection.length, not_sent: 0 });

    // A result for every thermostat, each exactly once, in the run's order over two pages (so
    // request k holds rows 25k..25k+24); the ones a request carried when the app died say they
    // were sent twice.
    const rows: string[] = [];
    for (const pageNumber of [1, 2]) {
      await page.goto(pageNumber === 1 ? runUrl : `${runUrl}?page=2`);
      await expect(page.getByText(`Page ${pageNumber}`)).toBeVisible();
      rows.push(...(await page.locator('tbody tr').allInnerTexts()));
    }
    const ids = rows.map((row) => /\b\d{12}\b/.exec(row)?.[0]);
    expect(ids).toHaveLength(selection.length);
    expect(new Set(ids).size).toBe(selection.length);
    expect([...ids].sort()).toEqual([...selection].sort());
    const sentTwice = rows.flatMap((row, position) => (/Sent 2 times/.test(row) ? [position] : []));
    const resent = new Set(sentTwice.map((position) => Math.floor(position / 25)));
    expect(rows.filter((row) => /Sent [3-9] times/.test(row))).toEqual([]);
    // At most the requests in flight (three at a time), each whole.
    expect(resent.size).toBeLessThanOrEqual(3);
    expect(sentTwice.length).toBe(resent.size * 25);

    // The service: one request per 25, plus once more each request in flight at the kill; and
    // the change on every thermostat that is online.
    const { calls } = await control<{ calls: Record<string, number> }>(own, 'GET', '/calls');
    expect(calls[BULK_ENDPOINT]).toBe(REQUESTS + resent.size);
    for (const id of selection) {
      const response = await fetch(`${own.url}/api/v2/thermostats/${id}/settings`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const settings = (await response.json()).data as { fanMinimumOnTime: number };
      expect(settings.fanMinimumOnTime, `fan minimum on-time of ${id}`).toBe(
        fanBefore.get(id) ?? 45,
      );
    }

    // One activity entry for the whole run, with its outcome.
    await page.goto('/activity');
    const entries = page.getByRole('row', {
      name: new RegExp(`Bulk configuration of ${selection.length} thermostats`),
    });
    await expect(entries).toHaveCount(1);
    await expect(entries).toContainText(expected);
    mark('checked');
    const summary = JSON.stringify({ ...timings, resentRequests: resent.size, bulkCallsAtKill });
    console.log(`bulk restart: ${summary}`);
    test.info().annotations.push({ type: 'timings (ms since start)', description: summary });
    expect(app.log()).not.toMatch(/bulk run .* (failed|not resumed)/i);
  });
});
