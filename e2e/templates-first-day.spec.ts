import { expectNoAxeViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';
import { sandboxControl } from './support/sandbox';

/**
 * A template meant to change one thing changes only that (issue 35, item 12): "Start from this
 * thermostat" fills in every section but ticks none, the member ticks the one they mean, and the
 * plan opens with one line per section ("Configuration: changes on 2 of 2"), each thermostat's
 * detail folded below it.
 */

/** Two thermostats of a demo building that the sandbox has connected, to read and plan on. */
async function twoConnected(building: string) {
  const { thermostats } = await demoThermostatsIn(building);
  const connected: string[] = [];
  for (const t of thermostats) {
    const record = await sandboxControl('GET', `/thermostats/${t.thermostatId}`);
    if (record.connected !== false) connected.push(t.thermostatId);
    if (connected.length === 2) return connected as [string, string];
  }
  throw new Error(`${building} has fewer than two connected thermostats`);
}

test('started from a thermostat, a template ticks no section, and sets only the one ticked', async ({
  page,
  adminPage,
}) => {
  test.setTimeout(180_000);
  await signInWithDemoPortfolio(page);
  const [source, other] = await twoConnected('Harbor View Apartments');
  const name = `Fan only ${Date.now()}`;

  await adminPage.goto('/templates/new');
  await adminPage.getByLabel('Thermostat').selectOption(source);
  await adminPage.getByRole('button', { name: 'Start from this thermostat' }).click();
  await expect(adminPage.getByText(/^Filled in from .*Tick the sections/)).toBeVisible();
  const form = adminPage.getByRole('form', { name: 'New template' });

  // Every section filled in from the thermostat, none ticked.
  for (const section of [
    'Include comfort settings',
    'Include the weekly schedule',
    'Include configuration',
    'Include alert settings',
    'Include access control',
  ]) {
    await expect(form.getByLabel(section), section).not.toBeChecked();
  }
  await expect(form.getByLabel('Name of setting 1')).not.toHaveValue('');
  await expect(form.getByLabel('Heat minimum (°F)')).not.toHaveValue('');
  await expect(form.getByLabel('Fan minimum on-time (minutes per hour)')).not.toHaveValue('');
  await expectNoAxeViolations(adminPage);

  // Saved as it came, it would set nothing: the member is asked to choose.
  await form.getByLabel('Template name').fill(name);
  await form.getByRole('button', { name: 'Save template' }).click();
  await expect(form.getByText('Add at least one section.')).toBeVisible();

  // Only the configuration, and of it only the fan on-time: a blank field is left as each
  // thermostat has it.
  await form.getByLabel('Include configuration').check();
  for (const range of ['Heat minimum', 'Heat maximum', 'Cool minimum', 'Cool maximum']) {
    await form.getByLabel(`${range} (°F)`).fill('');
  }
  await form.getByLabel('Hold action').selectOption('');
  await form.getByLabel('Fan minimum on-time (minutes per hour)').fill('37');
  await form.getByRole('button', { name: 'Save template' }).click();
  await expect(adminPage.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(adminPage.getByRole('term')).toHaveText(['Configuration']);
  await expect(adminPage.getByText('Fan minimum on-time 37 minutes per hour')).toBeVisible();
  const templatePath = new URL(adminPage.url()).pathname;

  // The plan page says what it sets, one line per section.
  await adminPage.goto(`${templatePath}/plan?ids=${source}&ids=${other}`);
  await expect(adminPage.getByText('2 selected')).toBeVisible();
  await expect(
    adminPage.getByText('Configuration: Fan minimum on-time 37 minutes per hour'),
  ).toBeVisible();
  await expectNoAxeViolations(adminPage);

  // The plan opens with a line per section: the configuration only, on both thermostats (the
  // fan on-time differs on each); no comfort settings, schedule or alerts are touched.
  await adminPage.getByRole('button', { name: 'Plan on the selected thermostats' }).click();
  await expect(
    adminPage.getByRole('heading', { name: 'The plan: nothing has been sent yet' }),
  ).toBeVisible({ timeout: 120_000 });
  const bySection = adminPage.getByRole('list', { name: 'By section' });
  await expect(bySection.getByRole('listitem')).toHaveText(['Configuration: changes on 2 of 2']);
  // Each thermostat's detail stays folded below, a click away.
  const fanLine = adminPage.getByText(/^Fan minimum on-time:/).first();
  await expect(fanLine).toBeHidden();
  await adminPage.getByText('Configuration', { exact: true }).first().click();
  await expect(fanLine).toBeVisible();
  await expectNoAxeViolations(adminPage);
});
