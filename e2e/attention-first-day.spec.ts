import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import type { RunningSandbox } from '@/sandbox/src/server';
import { signIn } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { noJavaScript } from './support/building-table';
import { acceptInvitation, invite } from './support/members';
import { noticeKeyOf } from './support/notice';
import { control } from './support/scale-out';
import {
  type AppInstance,
  deploymentSecrets,
  extraPort,
  setUpConnectedManager,
  startApp,
  startOwnSandbox,
  tearDown,
} from './support/stack';

/**
 * A manager's first day, on a stack of its own with background reading on: the demo portfolio is
 * imported, and while the maintenance reminders are still being read (a few a minute), the
 * overview and Needs attention say how many are checked, until all are. Then maintenance is dealt
 * with through Setpoint, and its item goes at once: recorded in place on Needs attention (without
 * JavaScript), or through the thermostat's Alerts page. A viewer is not offered to record it.
 */

const PORT = extraPort(31);
const APP_URL = `http://127.0.0.1:${PORT}`;
const PASSWORD = 'lantern orbit meadow 4107';
const VIEWER = 'vera.viewer@example.com';
/**
 * The service's hourly limit for this stack: the reminders take 2 % of the background share of
 * it, 9 a minute, so the demo's 35 thermostats are read in four rounds, a minute apart.
 */
const RATE_LIMIT = { perSecond: 50, perMinute: 5000, perHour: 30_000 };
/** Four rounds of reminders, a minute apart, and room for a slow machine. */
const ALL_CHECKED = 420_000;

type Thermostat = { thermostatId: string; name: string; buildingId: string };

test.describe.configure({ mode: 'serial', timeout: 600_000 });

test.describe('a first day without doubt', () => {
  let sandbox: RunningSandbox | undefined;
  let app: AppInstance | undefined;
  const contexts: BrowserContext[] = [];
  let owner: Page;
  let demo: Thermostat[];

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(300_000);
    sandbox = await startOwnSandbox(APP_URL);
    app = await startApp({
      port: PORT,
      publicUrl: APP_URL,
      serviceUrl: sandbox.url,
      env: {
        ...deploymentSecrets(),
        READINGS_TARGET_MINUTES: '1',
        SERVICE_RATE_LIMIT: JSON.stringify(RATE_LIMIT),
      },
    });
    const context = await browser.newContext({ baseURL: APP_URL });
    contexts.push(context);
    owner = await context.newPage();
    await setUpConnectedManager(owner);
    demo = (
      (await control(sandbox, 'GET', '/portfolio?user=demo')) as { thermostats: Thermostat[] }
    ).thermostats;
  });

  test.afterAll(() =>
    tearDown([
      ...contexts.map((context) => () => context.close()),
      () => app?.stop(),
      () => sandbox?.close(),
    ]),
  );

  const items = (page: Page) => page.getByRole('list', { name: 'Items needing attention' });
  /**
   * The maintenance items of thermostats that are online (the demo's offline one takes no
   * change: the service refuses it until it reconnects).
   */
  const reachable = (page: Page) =>
    items(page)
      .getByRole('listitem')
      .filter({ hasNot: page.getByRole('link', { name: /\(offline\)$/ }) });
  const itemOf = (page: Page, name: string) =>
    items(page)
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name, exact: true }) })
      .filter({ hasText: /Maintenance (overdue|due)/ });
  const fleetStatus = (page: Page) => page.getByRole('region', { name: 'Fleet status' });
  const checking = /Still checking: maintenance dates read for (\d+) of (\d+) thermostats/;

  test('the counts say what is not yet checked, until every reminder has been read once', async () => {
    await owner.goto('/portfolio/add');
    await owner.getByRole('button', { name: 'Import the sandbox demo portfolio' }).click();
    await expect(owner.getByText(/^\d+ added/)).toBeVisible({ timeout: 60_000 });

    // Straight after the import at most a round has run: the overview says how far it has come.
    await owner.goto('/');
    await expect(fleetStatus(owner)).toContainText(checking);
    const line = (await fleetStatus(owner).textContent()) ?? '';
    const [, checked, total] = line.match(checking) ?? [];
    expect(Number(total)).toBe(demo.length);
    expect(Number(checked)).toBeLessThan(demo.length);
    await expect(fleetStatus(owner)).toContainText('More items may appear as the rest are read');
    // Needs attention says the same, under its count.
    await owner.goto('/attention');
    await expect(owner.getByRole('status').filter({ hasText: checking })).toBeVisible();
    await expectNoAxeViolations(owner);

    // Once every reminder has been read, neither says it any more.
    await expect(async () => {
      await owner.goto('/');
      await expect(fleetStatus(owner)).not.toContainText('Still checking', { timeout: 1_000 });
    }).toPass({ timeout: ALL_CHECKED, intervals: [10_000] });
    await owner.goto('/attention');
    await expect(owner.getByText('Still checking')).toHaveCount(0);
    await expect(owner.getByRole('heading', { name: 'Needs attention', level: 1 })).toBeVisible();
  });

  test('maintenance recorded in place, without JavaScript, clears its item at once', async ({
    browser,
  }) => {
    await owner.goto('/attention?kind=maintenance');
    // The demo has maintenance due or overdue (its reminders were all read in the test before):
    // one is recorded here, another on its Alerts page in the next test.
    expect(await reachable(owner).count()).toBeGreaterThanOrEqual(2);
    await expectNoAxeViolations(owner);

    const plain = await noJavaScript(browser, owner, APP_URL);
    contexts.push(plain.context);
    const page = plain.page;
    await page.goto('/attention?kind=maintenance');
    const first = reachable(page).first();
    const name = ((await first.getByRole('link').first().textContent()) ?? '').trim();
    const href = (await first.getByRole('link').first().getAttribute('href')) ?? '';
    const thermostatId = /^\/thermostats\/(\d{12})$/.exec(href)?.[1] ?? '';
    expect(thermostatId, href).not.toBe('');
    const form = first.getByRole('form', { name: `Record maintenance done for ${name}` });
    // Today in the building's zone, unless the manager says otherwise.
    const day = await form.getByLabel('Day it was done').inputValue();
    expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await form.getByRole('button', { name: `Record maintenance done for ${name}` }).click();

    // Back on the same filtered list: the item has gone, and the page says what was recorded.
    await expect(page).toHaveURL(/\/attention\?kind=maintenance&notice=[\w-]+\.[\w-]+$/);
    expect(noticeKeyOf(page.url())).toBe('maintenanceRecorded');
    await expect(page.getByText(`Maintenance recorded for ${name}.`)).toBeVisible();
    await expect(itemOf(page, name)).toHaveCount(0);
    // The thermostat itself has it.
    await owner.goto(`/thermostats/${thermostatId}/alerts`);
    await expect(owner.getByLabel('Last maintenance')).toHaveValue(day);

    // A day after today is refused where it was typed, and nothing changes.
    await page.goto('/attention?kind=maintenance');
    const next = reachable(page).first();
    const nextName = ((await next.getByRole('link').first().textContent()) ?? '').trim();
    const nextForm = next.getByRole('form', { name: `Record maintenance done for ${nextName}` });
    const nextDay = await nextForm.getByLabel('Day it was done').inputValue();
    const tomorrow = new Date(Date.parse(`${nextDay}T00:00:00Z`) + 86_400_000)
      .toISOString()
      .slice(0, 10);
    await nextForm.getByLabel('Day it was done').fill(tomorrow);
    await nextForm.getByRole('button', { name: /^Record maintenance done/ }).click();
    const refused = items(page)
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: nextName, exact: true }) });
    await expect(
      refused.getByText('Maintenance cannot be recorded for a day after today.'),
    ).toBeVisible();
    await expect(refused.getByLabel('Day it was done')).toHaveAttribute('aria-invalid', 'true');
    await expect(itemOf(page, nextName)).toHaveCount(1);

    // On a phone the form fits beside its item, and the page does not scroll sideways.
    await owner.setViewportSize({ width: 390, height: 844 });
    await owner.goto('/attention?kind=maintenance');
    const button = reachable(owner)
      .first()
      .getByRole('button', { name: /^Record maintenance/ });
    await button.scrollIntoViewIfNeeded();
    const box = await button.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    expect(
      await owner.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
    await owner.setViewportSize({ width: 1280, height: 720 });
  });

  test('last maintenance set on the Alerts page clears its item at once', async () => {
    await owner.goto('/attention?kind=maintenance');
    const first = reachable(owner).first();
    const name = ((await first.getByRole('link').first().textContent()) ?? '').trim();
    // Today in its building's zone, as the item's own form has it.
    const day = await first.getByLabel('Day it was done').inputValue();
    const href = await first.getByRole('link', { name, exact: true }).getAttribute('href');
    expect(href).toMatch(/^\/thermostats\/\d{12}$/);

    await owner.goto(`${href}/alerts`);
    await owner.getByLabel('Last maintenance').fill(day);
    await owner.getByRole('button', { name: 'Save alert settings' }).click();
    await expect(owner.getByText('Alert settings saved.')).toBeVisible();

    // No wait for the next day's read: the list no longer has it.
    await owner.goto('/attention?kind=maintenance');
    await expect(owner.getByRole('heading', { name: 'Needs attention', level: 1 })).toBeVisible();
    await expect(itemOf(owner, name)).toHaveCount(0);
  });

  test('a viewer sees maintenance items but is not offered to record them', async ({ browser }) => {
    const link = await invite(owner, VIEWER, 'Viewer');
    const context = await browser.newContext({ baseURL: APP_URL });
    contexts.push(context);
    const viewer = await context.newPage();
    await acceptInvitation(viewer, link, 'Vera Viewer', PASSWORD);
    await signIn(viewer, VIEWER, PASSWORD);
    await expect(viewer.getByRole('heading', { name: 'Overview' })).toBeVisible();

    await viewer.goto('/attention?kind=maintenance');
    await expect(items(viewer).getByRole('listitem').first()).toBeVisible();
    await expect(viewer.getByRole('button', { name: /Record maintenance done/ })).toHaveCount(0);
    await expect(viewer.getByLabel('Day it was done')).toHaveCount(0);
  });
});
