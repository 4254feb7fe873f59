import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { TEAM } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { authFile, expect, test } from './support/fixtures';
import { noticeKeyOf } from './support/notice';
import { demoThermostatsIn } from './support/portfolio';
import { sandboxControl } from './support/sandbox';

/**
 * Groups on the shared stack: an admin makes a hand-picked group and a saved-filter group, uses
 * a group on the bulk page (with and without JavaScript), renames and deletes one; a building
 * manager sees only their buildings' thermostats of a group; a viewer sees groups but is offered
 * no way to change them. Names carry a random suffix: the stack is shared between runs.
 */

const suffix = () => randomBytes(3).toString('hex');

/** The online thermostats of a demo building (a bulk review names only what it could send). */
async function onlineIn(building: string) {
  const { thermostats } = await demoThermostatsIn(building);
  const online: { thermostatId: string }[] = [];
  for (const t of thermostats) {
    if ((await sandboxControl('GET', `/thermostats/${t.thermostatId}`)).connected !== false) {
      online.push(t);
    }
  }
  return online;
}

/** A thermostat's box in a picker: names repeat across buildings, the box's name carries the id. */
const box = (scope: Page | ReturnType<Page['getByRole']>, thermostatId: string) =>
  scope.getByRole('checkbox', { name: new RegExp(`\\(${thermostatId}\\)`) });

test('an admin makes a hand-picked and a filter group, uses one for a bulk change, renames and deletes it', async ({
  adminPage: page,
}) => {
  test.setTimeout(120_000);
  const [first, second] = (await onlineIn(TEAM.buildingManager.building)) as [
    { thermostatId: string },
    { thermostatId: string },
  ];
  const cascade = await demoThermostatsIn(TEAM.buildingManager.building);
  const picked = `Picked ${suffix()}`;

  await page.goto('/groups');
  await expect(page.getByRole('heading', { name: 'Groups', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Groups' })).toBeVisible();
  await expectNoAxeViolations(page);

  // A hand-picked group of two thermostats.
  const form = page.getByRole('form', { name: 'New group' });
  await form.getByLabel('Name').fill(picked);
  await form.getByRole('radio', { name: 'Hand-picked thermostats' }).check();
  await box(form, first.thermostatId).check();
  await box(form, second.thermostatId).check();
  await form.getByRole('button', { name: 'Create group' }).click();
  await expect(page).toHaveURL(/\/groups\/[0-9a-f-]{36}\?notice=[\w-]+\.[\w-]+$/);
  expect(noticeKeyOf(page.url())).toBe('groupCreated');
  await expect(page.getByText(`Created the group “${picked}”.`)).toBeVisible();
  await expect(page.getByRole('heading', { name: '2 thermostats' })).toBeVisible();
  const table = page.getByRole('table', { name: `Thermostats of ${picked}` });
  await expect(table.getByRole('row')).toHaveCount(3);
  const pickedUrl = page.url().replace(/\?.*$/, '');
  await expectNoAxeViolations(page);

  // Names are unique ignoring case: the error sits under the name.
  await page.goto('/groups');
  await form.getByLabel('Name').fill(picked.toUpperCase());
  await box(form, first.thermostatId).check();
  await form.getByRole('button', { name: 'Create group' }).click();
  await expect(form.getByText('Another group has this name; choose another.')).toBeVisible();
  await expect(form.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');

  // A saved filter: every thermostat of the building manager's building.
  const filtered = `Cascade ${suffix()}`;
  await form.getByLabel('Name').fill(filtered);
  await form.getByRole('radio', { name: 'A saved filter' }).check();
  await form
    .getByRole('group', { name: 'Filter' })
    .getByRole('checkbox', { name: TEAM.buildingManager.building, exact: true })
    .check();
  await form.getByRole('button', { name: 'Create group' }).click();
  await expect(page.getByText(`Created the group “${filtered}”.`)).toBeVisible();
  await expect(page.getByText(/Saved filter: In Cascade Commons\./)).toBeVisible();
  const all = cascade.thermostats.length;
  await expect(
    page.getByRole('heading', { name: `${all} thermostat${all === 1 ? '' : 's'}` }),
  ).toBeVisible();
  await page.goto('/groups');
  await expect(page.getByRole('link', { name: filtered })).toBeVisible();

  // On the bulk page, ticking the group ticks its thermostats.
  await page.goto('/bulk');
  await page.getByRole('checkbox', { name: `${picked} (2)` }).check();
  await expect(page.getByText('2 selected')).toBeVisible();
  await expect(box(page, first.thermostatId)).toBeChecked();
  await page.getByLabel('Fan minimum on-time (minutes per hour)').fill('12');
  await page.getByRole('button', { name: 'Apply to 2 thermostats…' }).click();
  await expect(page.getByRole('heading', { name: 'Apply to 2 thermostats?' })).toBeVisible();

  // The group's page leads to a bulk change with its thermostats ticked.
  await page.goto(pickedUrl);
  await page.getByRole('link', { name: 'Use in a bulk change' }).click();
  await expect(page.getByText('2 selected')).toBeVisible();

  // Renamed, one thermostat fewer; then deleted behind its confirmation.
  await page.goto(pickedUrl);
  const renamed = `${picked} renamed`;
  const change = page.getByRole('form', { name: `Change ${picked}` });
  await change.getByLabel('Name').fill(renamed);
  await box(change, second.thermostatId).uncheck();
  await change.getByRole('button', { name: 'Save changes' }).click();
  await expect(change.getByText(`Saved “${renamed}”: 1 thermostat now.`)).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: renamed, level: 1 })).toBeVisible();
  await page.getByText('Delete group…').click();
  await page.getByRole('button', { name: `Delete ${renamed}` }).click();
  await expect(page).toHaveURL(/\/groups\?notice=/);
  expect(noticeKeyOf(page.url())).toBe('groupDeleted');
  await expect(page.getByText(`Deleted the group “${renamed}”.`)).toBeVisible();
  await expect(page.getByRole('link', { name: renamed })).toHaveCount(0);

  // The activity log has all of it.
  await page.goto('/activity');
  await expect(page.getByText(`Deleted the group “${renamed}”`)).toBeVisible();
  await expect(page.getByText(new RegExp(`Created the group “${filtered}”`))).toBeVisible();
});

test('a building manager sees only their buildings’ thermostats of a group; a viewer cannot change groups', async ({
  adminPage,
  buildingManagerPage,
  viewerPage,
}) => {
  const cascade = await demoThermostatsIn(TEAM.buildingManager.building);
  const elsewhere = (await demoThermostatsIn('Harbor View Apartments')).thermostats[0];
  const mine = cascade.thermostats[0];
  if (!mine || !elsewhere) throw new Error('the demo portfolio changed');
  const name = `Mixed ${suffix()}`;
  await adminPage.goto('/groups');
  const form = adminPage.getByRole('form', { name: 'New group' });
  await form.getByLabel('Name').fill(name);
  await box(form, mine.thermostatId).check();
  await box(form, elsewhere.thermostatId).check();
  await form.getByRole('button', { name: 'Create group' }).click();
  await expect(adminPage.getByRole('heading', { name: '2 thermostats' })).toBeVisible();
  const url = adminPage.url().replace(/\?.*$/, '');

  await buildingManagerPage.goto(url);
  await expect(
    buildingManagerPage.getByRole('heading', { name: '1 thermostat in your buildings' }),
  ).toBeVisible();
  await expect(buildingManagerPage.getByRole('heading', { name: 'Change the group' })).toHaveCount(
    0,
  );
  await buildingManagerPage.goto('/bulk');
  await expect(buildingManagerPage.getByRole('checkbox', { name: `${name} (1)` })).toBeVisible();

  await viewerPage.goto('/groups');
  await expect(viewerPage.getByRole('link', { name })).toBeVisible();
  await expect(viewerPage.getByRole('form', { name: 'New group' })).toHaveCount(0);
  await expect(
    viewerPage.getByText(/cannot create, change or delete groups; ask an owner or admin/),
  ).toBeVisible();
  await viewerPage.goto(url);
  await expect(viewerPage.getByRole('heading', { name: '2 thermostats' })).toBeVisible();
  await expect(viewerPage.getByText('Delete group…')).toHaveCount(0);
  await expectNoAxeViolations(viewerPage);
});

test('groups work without JavaScript: a whole building picked, then chosen on the bulk page', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({
    baseURL,
    storageState: authFile('admin'),
    javaScriptEnabled: false,
  });
  try {
    const page = await context.newPage();
    const online = await onlineIn('Harbor View Apartments');
    const name = `Harbor ${suffix()}`;
    await page.goto('/groups');
    const form = page.getByRole('form', { name: 'New group' });
    await form.getByLabel('Name').fill(name);
    await form.getByRole('radio', { name: 'Hand-picked thermostats' }).check();
    for (const t of online) await box(form, t.thermostatId).check();
    await form.getByRole('button', { name: 'Create group' }).click();
    await expect(page.getByText(`Created the group “${name}”.`)).toBeVisible();

    await page.goto('/bulk');
    await page.getByRole('checkbox', { name: `${name} (${online.length})` }).check();
    await page.getByLabel('Fan minimum on-time (minutes per hour)').fill('12');
    await page.getByRole('button', { name: 'Review the change…' }).click();
    const count = `${online.length} thermostat${online.length === 1 ? '' : 's'}`;
    await expect(page.getByRole('heading', { name: `Apply to ${count}?` })).toBeVisible();
  } finally {
    await context.close();
  }
});
