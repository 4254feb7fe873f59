import type { Page } from '@playwright/test';
import { SANDBOX_URL } from '../playwright.config';
import { expectNoAxeViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { actionFormsOf, type Fields, formWhere, postAction } from './support/forms';
import { demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';
import { demoServiceToken, sandboxControl } from './support/sandbox';

/**
 * Templates planned, applied and undone through the pages, against the sandbox: a template on
 * 60 thermostats in 3 buildings, with a fault injected on two of them; planned again (the two
 * changes left), applied in exactly the calls the plan said, and planned once more to no change;
 * the first run undone, warned where a thermostat changed since; one activity entry undone; a
 * building manager refused outside their buildings.
 */

const PER_BUILDING = 20;
const BUILDINGS = ['Desert Palms Residences', 'Cascade Commons', 'Lakeshore Lofts'];
const WRITES = /^(PATCH|POST|PUT|DELETE) /;

async function service(token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${SANDBOX_URL}/api/v2/thermostats${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(response.ok, `${method} ${path}`).toBe(true);
  return (await response.json()).data;
}

/** The service's write calls since the last `DELETE /calls`. */
async function writesCounted(): Promise<number> {
  const { calls } = (await sandboxControl('GET', '/calls')) as { calls: Record<string, number> };
  return Object.entries(calls)
    .filter(([key]) => WRITES.test(key))
    .reduce((sum, [, n]) => sum + n, 0);
}

const cookieOf = async (page: Page) =>
  (await page.context().cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');

/** Plans the template on the thermostats whose label starts "Tpl", and waits for the plan. */
async function planOnTpl(page: Page, templatePath: string) {
  await page.goto(`${templatePath}/plan`);
  await page.getByLabel('Filter').fill('Tpl ');
  await page.getByRole('button', { name: 'Select all shown' }).click();
  await expect(page.getByText(`${BUILDINGS.length * PER_BUILDING} selected`)).toBeVisible();
  await page.getByRole('button', { name: 'Plan on the selected thermostats' }).click();
  await expect(
    page.getByRole('heading', { name: 'The plan: nothing has been sent yet' }),
  ).toBeVisible({ timeout: 120_000 });
}

/** The plan's figure under a label ("Change", "Already match", "Service calls"). */
async function figure(page: Page, label: string): Promise<number> {
  const term = page.locator('dt', { hasText: new RegExp(`^${label}$`) });
  return Number(
    ((await term.locator('xpath=following-sibling::dd').textContent()) ?? '').replace(/,/g, ''),
  );
}

async function applyPlan(page: Page, passcode?: string) {
  await page.getByRole('link', { name: /^Apply to \d+ thermostats?…$/ }).click();
  if (passcode) {
    await page.getByLabel('New passcode for the thermostats it locks (optional)').fill(passcode);
  }
  await page.getByRole('button', { name: 'Yes, apply it' }).click();
  await expect(
    page.getByRole('heading', { name: /^(Done|Failed|Done with \d+ failures?)$/ }),
  ).toBeVisible({ timeout: 120_000 });
}

test('a template on 60 thermostats in 3 buildings: planned, applied with faults, planned again to no change, undone', async ({
  page,
}) => {
  test.setTimeout(480_000);
  await signInWithDemoPortfolio(page);
  const token = await demoServiceToken();

  // 20 new thermostats at the service in each of three buildings, added by paste.
  const created: string[] = [];
  const buildingOf = new Map<string, string>();
  for (const name of BUILDINGS) {
    const { building } = await demoThermostatsIn(name);
    for (let n = 1; n <= PER_BUILDING; n += 1) {
      const record = await service(token, 'POST', `/${building.buildingId}/thermostats`, {
        isResidentMode: true,
        name: `Tpl ${created.length + 1}`,
      });
      created.push(record.id);
      buildingOf.set(record.id, building.name);
    }
  }
  const label = (index: number) => `Tpl ${String(index + 1).padStart(2, '0')}`;
  await page.goto('/portfolio/add');
  await page
    .getByLabel('Thermostat ids')
    .fill(created.map((id, i) => `${id}, ${label(i)}, ${buildingOf.get(id)}`).join('\n'));
  await page.getByRole('button', { name: 'Add thermostats' }).click();
  await expect(page.getByText(`${created.length} added.`)).toBeVisible({ timeout: 60_000 });
  // What the undo must put back on the first thermostat: its fan time before the template.
  const fanBefore = (await service(token, 'GET', `/${created[0]}/settings`)).fanMinimumOnTime;
  expect(fanBefore).not.toBe(20);

  // The template: a comfort setting to create, a fan time, and the temperature locked.
  const name = `Vacant unit ${Date.now()}`;
  await page.goto('/templates/new');
  const form = page.getByRole('form', { name: 'New template' });
  await form.getByLabel('Template name').fill(name);
  await form.getByLabel('Include comfort settings').check();
  const row = form.getByRole('group', { name: 'Comfort setting 1' });
  await row.getByLabel('Name of setting 1').fill('Vacant');
  await row.getByLabel('Heat (°F)').fill('58');
  await row.getByLabel('Cool (°F)').fill('84');
  await form.getByLabel('Include configuration').check();
  await form.getByLabel('Fan minimum on-time (minutes per hour)').fill('20');
  await form.getByLabel('Include access control').check();
  await form.getByRole('radio', { name: 'On' }).check();
  await form.getByLabel('Lock temperature').check();
  await form.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  const templatePath = new URL(page.url()).pathname;

  // Two thermostats refuse one of their changes.
  const refusesComfort = created[4] as string;
  const refusesLocks = created[45] as string;
  await sandboxControl('PUT', '/faults', {
    faults: [
      {
        endpoint: 'POST /api/v2/thermostats/:id/comfortSettings',
        kind: 422,
        thermostatId: refusesComfort,
      },
      {
        endpoint: 'PATCH /api/v2/thermostats/:id/accessControl',
        kind: 422,
        thermostatId: refusesLocks,
      },
    ],
  });

  try {
    await sandboxControl('DELETE', '/calls');
    await planOnTpl(page, templatePath);
    // Planning only reads.
    expect(await writesCounted()).toBe(0);
    expect(await figure(page, 'Change')).toBe(60);
    expect(await figure(page, 'Already match')).toBe(0);
    // A comfort setting, the locks and one batched configuration change per 25: 60 + 60 + 3.
    expect(await figure(page, 'Service calls')).toBe(123);
    await page
      .getByRole('listitem')
      .filter({ hasText: label(0) })
      .getByText('Comfort settings, Configuration, Access control')
      .click();
    await expect(page.getByText('Fan minimum on-time').first()).toBeVisible();
    await expectNoAxeViolations(page);
    const firstRun = new URL(page.url()).pathname;

    // A passcode for the thermostats it locks, for this run only (never stored, never shown).
    await applyPlan(page, '4821');
    await expect(page.getByRole('heading', { name: 'Done with 2 failures' })).toBeVisible();
    expect((await service(token, 'GET', `/${created[0]}/settings`)).fanMinimumOnTime).toBe(20);
    // Not in any field, nor as a number of its own in what the page says (thermostat ids are
    // digits too, so not a substring test).
    await expect(page.locator('input[value="4821"]')).toHaveCount(0);
    expect(await page.getByRole('main').textContent()).not.toMatch(/(?<!\d)4821(?!\d)/);
    await page.getByRole('link', { name: 'Failed or not sent' }).click();
    await expect(page.getByRole('row')).toHaveCount(3);
    await expect(page.getByRole('row').filter({ hasText: label(4) })).toContainText(/Failed/);
    await expect(page.getByRole('row').filter({ hasText: label(45) })).toContainText(
      /Failed after 2 of 3 changes/,
    );
    expect(await writesCounted()).toBeLessThanOrEqual(123);
    await expectNoAxeViolations(page);

    // The faults gone, planning again finds only the two left, applied in the calls it says.
    await sandboxControl('DELETE', '/faults');
    await planOnTpl(page, templatePath);
    expect(await figure(page, 'Change')).toBe(2);
    expect(await figure(page, 'Already match')).toBe(58);
    const calls = await figure(page, 'Service calls');
    await sandboxControl('DELETE', '/calls');
    await applyPlan(page);
    await expect(page.getByRole('heading', { name: 'Done' })).toBeVisible();
    expect(await writesCounted()).toBe(calls);

    // And once more: nothing to change anywhere.
    await planOnTpl(page, templatePath);
    expect(await figure(page, 'Change')).toBe(0);
    expect(await figure(page, 'Already match')).toBe(60);
    await expect(
      page.getByText('Nothing to change: every thermostat already matches.'),
    ).toBeVisible();
    // Discarding is asked first, like every other step that ends something.
    await page.getByRole('link', { name: 'Discard the plan…' }).click();
    await expect(page.getByText('Discard this plan? Nothing has been sent')).toBeVisible();
    await page.getByRole('button', { name: 'Discard the plan' }).click();
    await expect(page.getByRole('link', { name: 'Discard the plan…' })).toHaveCount(0);

    // Someone changes unit 2 at the device; the undo of the first run warns about it there.
    const changedSince = created[1] as string;
    await service(token, 'PATCH', `/${changedSince}/settings`, { fanMinimumOnTime: 35 });
    await page.goto(firstRun);
    await page.getByRole('link', { name: 'Undo this run…' }).click();
    await page.getByRole('button', { name: 'Plan the undo' }).click();
    await expect(
      page.getByRole('heading', { name: 'The plan: nothing has been sent yet' }),
    ).toBeVisible({ timeout: 120_000 });
    await expect(page.getByText('1 thermostat has changed since', { exact: false })).toBeVisible();
    await expect(
      page
        .getByRole('listitem')
        .filter({ hasText: label(1) })
        .getByText(/changed since/),
    ).toBeVisible();
    await expect(page.getByText(/comfort setting it created is kept/).first()).toBeVisible();
    await applyPlan(page);
    const settings = await service(token, 'GET', `/${created[0]}/settings`);
    expect(settings.fanMinimumOnTime).toBe(fanBefore);
    const comfort = await service(token, 'GET', `/${created[0]}/comfortSettings`);
    expect(comfort.some((setting: { name: string }) => setting.name === 'Vacant')).toBe(true);
  } finally {
    await sandboxControl('DELETE', '/faults');
  }
});

test('one activity entry undone: planned from what it replaced, then applied', async ({ page }) => {
  test.setTimeout(120_000);
  await signInWithDemoPortfolio(page);
  const { thermostats } = await demoThermostatsIn('Desert Palms Residences');
  const token = await demoServiceToken();
  let unit: string | null = null;
  for (const t of thermostats) {
    const record = await sandboxControl('GET', `/thermostats/${t.thermostatId}`);
    if (record.connected !== false) {
      unit = t.thermostatId;
      break;
    }
  }
  if (!unit) throw new Error('no connected thermostat in Desert Palms');
  const before = (await service(token, 'GET', `/${unit}/settings`)).fanMinimumOnTime as number;
  const next = before === 25 ? 30 : 25;

  await page.goto(`/thermostats/${unit}/configuration`);
  await page.getByLabel('Fan minimum on-time (minutes per hour)').fill(String(next));
  await page.getByRole('button', { name: 'Save configuration' }).click();
  await expect(page.getByText('Configuration saved.')).toBeVisible();

  await page.goto(`/activity?thermostat=${unit}`);
  const entry = page.getByRole('row').filter({ hasText: 'Changed configuration of' }).first();
  await entry.getByRole('button', { name: 'Undo…' }).click();
  await expect(
    page.getByRole('heading', { name: 'The plan: nothing has been sent yet' }),
  ).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(`Fan minimum on-time`).first()).toBeVisible();
  await applyPlan(page);
  await expect(page.getByRole('heading', { name: 'Done' })).toBeVisible();
  expect((await service(token, 'GET', `/${unit}/settings`)).fanMinimumOnTime).toBe(before);
  await expectNoAxeViolations(page);
});

test('a building manager plans only in their buildings; a forged plan elsewhere is refused', async ({
  page,
  buildingManagerPage,
  baseURL,
}) => {
  await signInWithDemoPortfolio(page);
  const name = `Lobby ${Date.now()}`;
  await page.goto('/templates/new');
  const form = page.getByRole('form', { name: 'New template' });
  await form.getByLabel('Template name').fill(name);
  await form.getByLabel('Include configuration').check();
  await form.getByLabel('Fan minimum on-time (minutes per hour)').fill('5');
  await form.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  const planPath = `${new URL(page.url()).pathname}/plan`;

  await buildingManagerPage.goto(planPath);
  // Only their building is offered.
  await expect(buildingManagerPage.getByRole('group', { name: 'Cascade Commons' })).toBeVisible();
  await expect(
    buildingManagerPage.getByRole('group', { name: 'Desert Palms Residences' }),
  ).toHaveCount(0);

  const html = await (
    await fetch(`${baseURL}${planPath}`, {
      headers: { cookie: await cookieOf(buildingManagerPage) },
    })
  ).text();
  const plan = formWhere(actionFormsOf(html), (f) => f.fields.includes('thermostatIds'));
  const elsewhere = (await demoThermostatsIn('Desert Palms Residences')).thermostats[0];
  if (!elsewhere) throw new Error('Desert Palms has no thermostat');
  const fields: Fields = [['thermostatIds', elsewhere.thermostatId]];
  const answer = await postAction(`${baseURL}${planPath}`, plan, fields, {
    via: 'fetch',
    cookie: await cookieOf(buildingManagerPage),
  });
  expect(answer.result?.status).toBe('error');
  expect(String(answer.result?.message)).toMatch(/not in your portfolio/);
});
