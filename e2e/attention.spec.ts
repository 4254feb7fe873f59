import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import type { RunningSandbox } from '@/sandbox/src/server';
import { signIn } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { acceptInvitation, invite } from './support/members';
import { addBuilding } from './support/portfolio';
import { control } from './support/scale-out';
import {
  type AppInstance,
  createOrganizationWithCli,
  deploymentSecrets,
  extraPort,
  setUpConnectedManager,
  startApp,
  startOwnSandbox,
  tearDown,
} from './support/stack';

/**
 * Needs attention on a stack of its own with the poller on (readings kept within a minute): the
 * sandbox's device simulation takes one thermostat offline and makes another freeze, the poller
 * reads them, and the page and the overview's count show them, to the members whose scope holds
 * them only (not another organisation's owner, not a building manager of another building).
 * Then the devices recover, the poller reads them again, and the items clear.
 */

const PORT = extraPort(9);
const APP_URL = `http://127.0.0.1:${PORT}`;
const PASSWORD = 'correct horse battery staple';
const NORTHWIND = { name: 'Northwind Property', owner: 'north@example.com' };
const MANAGER = 'keeper@example.com';
/** The poller runs each minute and reads what is over a minute old: two rounds at most. */
const POLLED = 200_000;

type Thermostat = { thermostatId: string; name: string; buildingId: string };

test.describe.configure({ mode: 'serial', timeout: 600_000 });

test.describe('needs attention, from the device to the page', () => {
  let sandbox: RunningSandbox | undefined;
  let app: AppInstance | undefined;
  const contexts: BrowserContext[] = [];
  let owner: Page;
  let northwind: Page;
  let keeper: Page;
  let offline: Thermostat;
  let frozen: Thermostat;
  let northwindFrozen: Thermostat;
  let keptBuilding: { buildingId: string; name: string };
  let frozenBuilding: { buildingId: string; name: string };

  const device = (thermostatId: string, change: Record<string, unknown>) =>
    control(sandbox as RunningSandbox, 'PATCH', `/thermostats/${thermostatId}`, change);

  async function newPage(browser: Browser) {
    const context = await browser.newContext({ baseURL: APP_URL });
    contexts.push(context);
    return context.newPage();
  }

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(300_000);
    sandbox = await startOwnSandbox(APP_URL);
    const deployment = {
      publicUrl: APP_URL,
      serviceUrl: sandbox.url,
      env: { ...deploymentSecrets(), READINGS_TARGET_MINUTES: '1' },
    };
    // A second organisation, made as an operator makes one, before the app opens the database.
    const invitation = await createOrganizationWithCli(deployment, NORTHWIND);
    app = await startApp({ port: PORT, ...deployment });

    // The first organisation: the demo account's portfolio.
    owner = await newPage(browser);
    await setUpConnectedManager(owner);
    await owner.goto('/portfolio/add');
    await owner.getByRole('button', { name: 'Import the sandbox demo portfolio' }).click();
    await expect(owner.getByText(/^\d+ added/)).toBeVisible({ timeout: 60_000 });

    const demo = (await control(sandbox, 'GET', '/portfolio?user=demo')) as {
      buildings: { buildingId: string; name: string }[];
      thermostats: Thermostat[];
    };
    const online = demo.thermostats.filter((t) => !t.name.endsWith('(offline)'));
    const [first, second] = demo.buildings;
    if (!first || !second) throw new Error('the demo has too few buildings');
    keptBuilding = first;
    frozenBuilding = second;
    const inBuilding = (b: { buildingId: string }) =>
      online.filter((t) => t.buildingId === b.buildingId);
    offline = inBuilding(keptBuilding)[0] as Thermostat;
    frozen = inBuilding(frozenBuilding)[0] as Thermostat;
    expect(offline && frozen).toBeTruthy();

    // A building manager of the offline thermostat's building only.
    const managerLink = await invite(owner, MANAGER, 'Building manager', keptBuilding.name);
    keeper = await newPage(browser);
    await join(keeper, managerLink, 'Kim Keeper', MANAGER);

    // The second organisation's owner connects the other account and adds its thermostats.
    northwind = await newPage(browser);
    await join(northwind, invitation, 'Nadia North', NORTHWIND.owner);
    await northwind.goto('/connection');
    await northwind.getByRole('button', { name: 'Connect service account' }).click();
    await expect(northwind.getByRole('heading', { name: 'Sign in to allow access' })).toBeVisible();
    await northwind.getByLabel('Email').fill('other@sandbox.test');
    await northwind.getByLabel('Password').fill('other-password');
    await northwind.getByRole('button', { name: 'Accept' }).click();
    await expect(northwind.getByRole('heading', { name: 'Connected', exact: true })).toBeVisible();
    const other = (await control(sandbox, 'GET', '/portfolio?user=other')) as {
      buildings: { buildingId: string; name: string; timeZone: string }[];
      thermostats: Thermostat[];
    };
    northwindFrozen = other.thermostats[0] as Thermostat;
    // Its one building first: the service does not say which building a thermostat is in.
    for (const building of other.buildings) await addBuilding(northwind, building);
    await northwind.goto('/portfolio/add');
    await northwind
      .getByLabel('Thermostat ids')
      .fill(other.thermostats.map((t) => t.thermostatId).join('\n'));
    await northwind.getByRole('button', { name: 'Add thermostats' }).click();
    await expect(northwind.getByText(`${other.thermostats.length} added`)).toBeVisible({
      timeout: 30_000,
    });
  });

  test.afterAll(() =>
    tearDown([
      ...contexts.map((context) => () => context.close()),
      () => app?.stop(),
      () => sandbox?.close(),
    ]),
  );

  async function join(page: Page, link: string, name: string, email: string) {
    await acceptInvitation(page, link, name, PASSWORD);
    await signIn(page, email, PASSWORD);
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  }

  const items = (page: Page) => page.getByRole('list', { name: 'Items needing attention' });
  /** The item of this kind about this thermostat (by the link to it). */
  const item = (page: Page, thermostat: Thermostat, title: string) =>
    items(page)
      .getByRole('listitem')
      .filter({ has: page.locator(`a[href="/thermostats/${thermostat.thermostatId}"]`) })
      .filter({ hasText: title });
  const linksTo = (page: Page, thermostat: Thermostat) =>
    page.locator(`main a[href="/thermostats/${thermostat.thermostatId}"]`);

  /** Reloads the page until `check` passes: the poller's rounds are a minute apart. */
  async function untilPolled(page: Page, url: string, check: () => Promise<void>) {
    await expect(async () => {
      await page.goto(url);
      await check();
    }).toPass({ timeout: POLLED, intervals: [5_000] });
  }

  /** The overview's count, and the page's own total, read together until they agree. */
  async function countsAgree(page: Page) {
    let count = -1;
    await expect(async () => {
      await page.goto('/');
      const link = page.getByRole('region', { name: 'Fleet status' }).getByRole('link');
      await expect(link).toHaveAttribute('href', '/attention');
      const text = (await link.textContent()) ?? '';
      count = /^Nothing/.test(text) ? 0 : Number(text.replace(/,/g, '').match(/^\d+/)?.[0]);
      await page.goto('/attention');
      const summary =
        (await page.getByRole('main').getByRole('paragraph').first().textContent()) ?? '';
      const total = /^Nothing/.test(summary)
        ? 0
        : Number(summary.replace(/,/g, '').match(/^(\d+) items?/)?.[1]);
      // Both read as numbers (NaN would equal NaN and prove nothing).
      expect(Number.isInteger(count), `dashboard count in “${text}”`).toBe(true);
      expect(Number.isInteger(total), `page total in “${summary}”`).toBe(true);
      expect(total).toBe(count);
    }).toPass({ timeout: 30_000 });
    return count;
  }

  test('a thermostat offline and another freezing show up for the members who look after them', async () => {
    const started = Date.now();
    await expect(owner.getByRole('link', { name: 'Needs attention', exact: true })).toBeVisible();
    // Before: read once by the poller at start-up, neither is listed.
    await owner.goto('/attention');
    await expect(owner.getByRole('heading', { name: 'Needs attention', level: 1 })).toBeVisible();
    await expect(item(owner, offline, 'Offline')).toHaveCount(0);
    const before = await countsAgree(owner);

    await device(offline.thermostatId, { connected: false });
    await device(frozen.thermostatId, { temperature: 38 });
    await device(northwindFrozen.thermostatId, { temperature: 38 });

    await untilPolled(owner, '/attention', async () => {
      await expect(item(owner, offline, 'Offline')).toHaveCount(1);
      await expect(item(owner, frozen, 'Freeze risk')).toHaveCount(1);
    });
    test.info().annotations.push({
      type: 'timing',
      description: `device change to both items on the page: ${Math.round((Date.now() - started) / 1000)} s`,
    });
    await expect(item(owner, frozen, 'Freeze risk')).toContainText('38 °F, below 45 °F');
    await expect(item(owner, frozen, 'Freeze risk')).toContainText('Urgent');
    await expect(item(owner, offline, 'Offline')).toContainText(/Not heard from for/);
    await expect(item(owner, frozen, 'Freeze risk').getByRole('link')).toHaveText(frozen.name);
    // Not another organisation's, though the same thing happened there.
    await expect(linksTo(owner, northwindFrozen)).toHaveCount(0);
    // Freeze first: the most urgent item heads the list.
    await expect(items(owner).getByRole('listitem').first()).toContainText('Freeze risk');

    // The overview counts them, and leads to the page.
    const during = await countsAgree(owner);
    expect(during).toBeGreaterThanOrEqual(before + 2);
    await owner.goto('/');
    await expect(owner.getByRole('region', { name: 'Fleet status' })).toContainText(/\d+ urgent/);
    // Each building's card says how many of its items need attention.
    await expect(
      owner.getByRole('link', { name: new RegExp(`^${frozenBuilding.name}`) }),
    ).toContainText(/\d+ items? needs? attention/);
    await expect(owner.getByText('Readings are kept within 1 minute.')).toBeVisible();
    await owner.getByRole('region', { name: 'Fleet status' }).getByRole('link').click();
    await expect(owner).toHaveURL(/\/attention$/);

    // Filters live in the address: offline only, then one building's.
    await owner.getByLabel('Kind').selectOption('offline');
    await owner.getByRole('button', { name: 'Filter' }).click();
    await expect(owner).toHaveURL(/kind=offline/);
    await expect(item(owner, offline, 'Offline')).toHaveCount(1);
    await expect(linksTo(owner, frozen)).toHaveCount(0);
    await owner.goto(`/attention?building=${frozenBuilding.buildingId}`);
    await expect(owner.getByLabel('Building')).toHaveValue(frozenBuilding.buildingId);
    await expect(item(owner, frozen, 'Freeze risk')).toHaveCount(1);
    await expect(linksTo(owner, offline)).toHaveCount(0);
    await owner.goto(`/attention?kind=connection&building=${frozenBuilding.buildingId}`);
    await expect(
      owner.getByRole('heading', { name: 'Nothing matches these filters' }),
    ).toBeVisible();

    // Accessible in light and dark, the list and the overview's count alike.
    for (const url of ['/attention', '/']) {
      await owner.goto(url);
      await expectNoAxeViolations(owner);
    }

    // The item leads to its thermostat.
    await owner.goto('/attention');
    await item(owner, frozen, 'Freeze risk').getByRole('link').click();
    await expect(owner).toHaveURL(new RegExp(`/thermostats/${frozen.thermostatId}$`));

    // The building manager sees the offline one in their building, not the other building's.
    await keeper.goto('/attention');
    await expect(item(keeper, offline, 'Offline')).toHaveCount(1);
    await expect(linksTo(keeper, frozen)).toHaveCount(0);
    await expect(linksTo(keeper, northwindFrozen)).toHaveCount(0);
    expect(await countsAgree(keeper)).toBeLessThan(during);

    // The other organisation's owner sees their own freeze only, without JavaScript too.
    const plain = await northwind
      .context()
      .browser()
      ?.newContext({
        baseURL: APP_URL,
        javaScriptEnabled: false,
        storageState: await northwind.context().storageState(),
      });
    if (!plain) throw new Error('no browser');
    contexts.push(plain);
    const noScript = await plain.newPage();
    await untilPolled(noScript, '/attention', async () => {
      await expect(item(noScript, northwindFrozen, 'Freeze risk')).toHaveCount(1);
    });
    await expect(linksTo(noScript, offline)).toHaveCount(0);
    await expect(linksTo(noScript, frozen)).toHaveCount(0);
    await noScript.getByLabel('Kind').selectOption('offline');
    await noScript.getByRole('button', { name: 'Filter' }).click();
    await expect(noScript).toHaveURL(/kind=offline/);
    await expect(
      noScript.getByRole('heading', { name: 'Nothing matches these filters' }),
    ).toBeVisible();
    expect(await countsAgree(northwind)).toBeGreaterThanOrEqual(1);
  });

  test('when the devices recover, the items clear', async () => {
    const started = Date.now();
    await device(offline.thermostatId, { connected: true });
    await device(frozen.thermostatId, { temperature: 70 });
    await device(northwindFrozen.thermostatId, { temperature: 70 });

    await untilPolled(owner, '/attention', async () => {
      await expect(item(owner, offline, 'Offline')).toHaveCount(0);
      await expect(item(owner, frozen, 'Freeze risk')).toHaveCount(0);
    });
    test.info().annotations.push({
      type: 'timing',
      description: `device recovery to both items gone: ${Math.round((Date.now() - started) / 1000)} s`,
    });
    await untilPolled(northwind, '/attention', async () => {
      await expect(item(northwind, northwindFrozen, 'Freeze risk')).toHaveCount(0);
    });
    await keeper.goto('/attention');
    await expect(item(keeper, offline, 'Offline')).toHaveCount(0);
    await countsAgree(owner);
    await countsAgree(keeper);
  });
});
