import type { Page } from '@playwright/test';
import { SANDBOX_URL } from '../playwright.config';
import { expectNoAxeViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';
import { demoServiceToken } from './support/sandbox';

/**
 * The activity log on a newcomer's first day (issue 35, items 5 and 10): a one-off run's entry
 * offers "Undo this run…" where it is listed, as the run's own page does (and the undo's entry in
 * turn), never to a viewer; an alert-settings change reads in the alerts page's words, and a
 * template's weekly schedule as ranges of the week, never as its half-hour blocks. Each test
 * works on thermostats it creates at the sandbox, so no other spec's state is touched.
 */

const PHONE = { width: 390, height: 844 };
// Where portfolio.spec.ts makes thermostats too (building-table.spec.ts counts Lakeshore Lofts'
// units); named by id in the import, as portfolio.spec.ts renames it for a moment.
const BUILDING = 'Front Range Offices';

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

/** A thermostat made at the sandbox (its default week and alerts) and added to the portfolio. */
async function freshThermostat(page: Page, label: string): Promise<{ id: string; token: string }> {
  const token = await demoServiceToken();
  const { building } = await demoThermostatsIn(BUILDING);
  const record = await service(token, 'POST', `/${building.buildingId}/thermostats`, {
    isResidentMode: true,
    name: label,
  });
  await page.goto('/portfolio/add');
  await page.getByLabel('Thermostat ids').fill(`${record.id}, ${label}, ${building.buildingId}`);
  await page.getByRole('button', { name: 'Add thermostats' }).click();
  await expect(page.getByText('1 added.')).toBeVisible({ timeout: 60_000 });
  return { id: record.id as string, token };
}

/** Applies the plan on its page and waits for the run to finish. */
async function applyPlan(page: Page) {
  await expect(
    page.getByRole('heading', { name: 'The plan: nothing has been sent yet' }),
  ).toBeVisible({ timeout: 120_000 });
  await page.getByRole('link', { name: /^Apply to \d+ thermostats?…$/ }).click();
  await page.getByRole('button', { name: 'Yes, apply it' }).click();
  await expect(page.getByRole('heading', { name: 'Done', exact: true })).toBeVisible({
    timeout: 120_000,
  });
}

test('a one-off run’s entry offers Undo this run in the activity log, and so does its undo’s; a viewer’s does not', async ({
  page,
  viewerPage,
}) => {
  test.setTimeout(300_000);
  await signInWithDemoPortfolio(page);
  const label = `Undo log ${Date.now().toString(36)}`;
  const { id, token } = await freshThermostat(page, label);
  const before = (await service(token, 'GET', `/${id}/alertSettings`)).lowTemperatureAlert;

  // A one-off change of its low temperature alert, planned and applied.
  await page.goto('/bulk/change');
  const form = page.getByRole('form', { name: 'One-off change' });
  await form.getByLabel('Include alert settings').check();
  await form.getByLabel('Low temperature alert').check();
  await form.getByLabel('Low temperature (°F)').fill('50');
  await form.getByLabel('High temperature alert').check();
  await form.getByLabel('Filter').fill(label);
  await form.getByRole('button', { name: 'Select all shown' }).click();
  await expect(form.getByText('1 selected')).toBeVisible();
  await form.getByRole('button', { name: 'Plan on the selected thermostats' }).click();
  await applyPlan(page);
  expect((await service(token, 'GET', `/${id}/alertSettings`)).lowTemperatureAlert).toMatchObject({
    enabled: true,
    value: 50,
  });

  // Its entry in the activity log offers the undo, as the run's page does.
  await page.goto('/activity?action=template.apply');
  const entry = page
    .getByRole('row')
    .filter({ hasText: 'One-off: alert settings on 1 thermostat' })
    .first();
  await expect(entry.getByRole('link', { name: 'Result for each thermostat' })).toBeVisible();
  await expect(entry.getByRole('link', { name: 'Undo this run…' })).toBeVisible();
  await expectNoAxeViolations(page);

  // A viewer reads the same entry, and is offered no undo (the plan would refuse them too).
  await viewerPage.goto('/activity?action=template.apply');
  const seen = viewerPage
    .getByRole('row')
    .filter({ hasText: 'One-off: alert settings on 1 thermostat' })
    .first();
  await expect(seen.getByRole('link', { name: 'Result for each thermostat' })).toBeVisible();
  await expect(seen.getByRole('link', { name: 'Undo this run…' })).toHaveCount(0);

  // Where runs are listed, on the bulk page, it offers the same step; again, not to a viewer.
  await page.goto('/bulk');
  const listed = page.getByRole('link', {
    name: 'Undo this run: One-off: alert settings on 1 thermostat',
  });
  await expect(listed.first()).toBeVisible();
  await expect(listed.first()).toHaveAttribute('href', /\?confirm=undo$/);
  await viewerPage.goto('/bulk');
  await expect(viewerPage.getByRole('link', { name: /^Undo this run/ })).toHaveCount(0);

  // From the entry: the run page's own step says what an undo does, then plans it.
  await page.goto('/activity?action=template.apply');
  await entry.getByRole('link', { name: 'Undo this run…' }).click();
  await expect(page.getByText(/^Plan an undo\?/)).toBeVisible();
  await page.getByRole('button', { name: 'Plan the undo' }).click();
  await applyPlan(page);
  expect((await service(token, 'GET', `/${id}/alertSettings`)).lowTemperatureAlert).toEqual(before);

  // The undo is a run with an entry of its own, which offers Undo in turn, on a phone too.
  await page.setViewportSize(PHONE);
  await page.goto('/activity?action=change.undo');
  const undone = page
    .getByRole('row')
    .filter({ hasText: /Undo of one-off: alert settings/ })
    .first();
  await expect(undone.getByRole('link', { name: 'Undo this run…' })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('an alert-settings change and a template’s weekly schedule read in words in the activity log', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInWithDemoPortfolio(page);
  const stamp = Date.now().toString(36);
  const label = `Words ${stamp}`;
  const { id } = await freshThermostat(page, label);

  // The last maintenance date, changed on the thermostat's alerts page.
  await page.goto(`/thermostats/${id}/alerts`);
  await page.getByLabel('Last maintenance').fill('2025-03-01');
  await page.getByRole('button', { name: 'Save alert settings' }).click();
  await expect(page.getByText(/Alert settings saved/)).toBeVisible();

  await page.goto(`/activity?action=alert_settings.update&thermostat=${id}`);
  const alerts = page.getByRole('row').filter({ hasText: 'Changed alert settings of' }).first();
  await expect(alerts).toContainText(`Changed alert settings of ${label} (maintenance reminder)`);
  await alerts.getByText('Details').click();
  await expect(alerts.getByText('Maintenance reminder', { exact: true })).toBeVisible();
  await expect(alerts.getByText(/last done 2025-03-01/)).toBeVisible();
  await expect(alerts).not.toContainText('hvacMaintenanceReminder');
  await expect(alerts).not.toContainText('maintenanceIntervalUnits');

  // A template of the thermostat's weekly schedule (the sandbox's residential week).
  const name = `Residential week ${stamp}`;
  await page.goto('/templates/new');
  await page.getByLabel('Thermostat').selectOption(id);
  await page.getByRole('button', { name: 'Start from this thermostat' }).click();
  await expect(page.getByText(/^Filled in from /)).toBeVisible();
  const form = page.getByRole('form', { name: 'New template' });
  await form.getByLabel('Template name').fill(name);
  await form.getByLabel('Include the weekly schedule').check();
  await form.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();

  await page.goto('/activity?action=template.create');
  const created = page.getByRole('row').filter({ hasText: `Created the template “${name}”` });
  await created.getByText('Details').click();
  await expect(created.getByText('Weekly schedule', { exact: true })).toBeVisible();
  await expect(
    created.getByText(
      'Mon–Fri 06:30–08:30 Home, 08:30–17:30 Away, 17:30–22:30 Home, 22:30–06:30 Sleep; Sat–Sun 08:00–23:00 Home, 23:00–08:00 Sleep',
    ),
  ).toBeVisible();
  // Never the week's 336 half-hour blocks one by one.
  await expect(created).not.toContainText('Sleep, Sleep');
  await expectNoAxeViolations(page);

  // The CSV export reads its details in the same words.
  const csv = await (await page.request.get('/activity/export?action=template.create')).text();
  const row = csv.split('\n').find((line) => line.includes(name)) ?? '';
  expect(row).toContain('Weekly schedule: Mon–Fri 06:30–08:30 Home');
});
