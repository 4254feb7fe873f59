import { SANDBOX_URL } from '../playwright.config';
import { expectNoAxeViolations } from './support/axe';
import { authFile, expect, test } from './support/fixtures';
import { demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';
import { demoServiceToken } from './support/sandbox';
import { TEAM } from './support/accounts';

/**
 * Units and occupancy (issue 36), through the pages: a building manager finds a unit of their
 * building, records the resident's notice and the move-out, and reads them on its timeline; the
 * make-ready is recorded without JavaScript; a viewer reads the unit and is offered no form; a
 * building manager marks a unit vacant and follows its turnover run to done; a building manager
 * adds and changes units by CSV, and edits a unit's label on its page.
 */

test('a building manager records notice and the move-out of a unit, then make-ready without JavaScript', async ({
  buildingManagerPage: page,
  viewerPage,
  browser,
  baseURL,
}) => {
  const { building, thermostats } = await demoThermostatsIn(TEAM.buildingManager.building);
  // A demo unit no other spec uses (the building's list also holds what other specs add to it).
  const thermostat = thermostats.find((each) => each.name === 'Community Room');
  if (!thermostat) throw new Error('no Community Room in the building');
  await page.goto(`/buildings/${building.buildingId}`);
  await page.getByRole('link', { name: 'Units and occupancy' }).click();
  await expect(
    page.getByRole('heading', { name: `Units of ${building.name}`, level: 1 }),
  ).toBeVisible();
  const units = page.getByRole('table', { name: `Units of ${building.name}` });
  // Every thermostat of the building is a unit (other specs add to it meanwhile: no count).
  for (const each of thermostats.slice(0, 3)) {
    await expect(units.getByRole('link', { name: each.name, exact: true })).toBeVisible();
  }
  await units.getByRole('link', { name: thermostat.name, exact: true }).click();
  await expect(page.getByRole('heading', { name: thermostat.name, level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Occupied', level: 2 })).toBeVisible();
  await expectNoAxeViolations(page);

  const form = page.getByRole('form', { name: `Record what happened to ${thermostat.name}` });
  await form.getByLabel('Notice given (set the move-out date)').check();
  await form.getByLabel('Move-out day').fill('2027-01-31');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Saved: ${thermostat.name} is notice given.`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Notice given', level: 2 })).toBeVisible();
  await expect(page.getByText('Moves out Sun, Jan 31, 2027')).toBeVisible();

  // A move-in cannot be scheduled for an occupied unit: the form offers only what fits.
  await expect(form.getByLabel('Schedule a move-in')).toHaveCount(0);
  await form.getByLabel('Moved out: vacant').check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Vacant', level: 2 })).toBeVisible();
  const timeline = page.getByRole('table', { name: `Occupancy of ${thermostat.name}` });
  await expect(timeline.getByRole('row')).toHaveCount(3);
  await expect(timeline.getByRole('row').nth(1)).toContainText('Notice given → Vacant');
  await expect(timeline.getByRole('row').nth(1)).toContainText(TEAM.buildingManager.name);
  await expect(timeline.getByRole('row').nth(2)).toContainText('Move-out Sun, Jan 31, 2027');

  // Without JavaScript: the same form posts, and the page comes back with the answer.
  const context = await browser.newContext({
    baseURL,
    storageState: authFile('buildingManager'),
    javaScriptEnabled: false,
    viewport: { width: 390, height: 844 },
  });
  try {
    const plain = await context.newPage();
    await plain.goto(page.url());
    const plainForm = plain.getByRole('form', {
      name: `Record what happened to ${thermostat.name}`,
    });
    await plainForm.getByLabel('Make-ready started').check();
    await plainForm.getByRole('button', { name: 'Save' }).click();
    await expect(plain.getByText(`Saved: ${thermostat.name} is make-ready.`)).toBeVisible();
    await expect(plain.getByRole('heading', { name: 'Make-ready', level: 2 })).toBeVisible();
  } finally {
    await context.close();
  }

  // The activity log says who made each change; a viewer reads the unit, with no form.
  await page.goto('/activity');
  await expect(
    page
      .getByRole('table', { name: 'Activity log' })
      .getByText(`${thermostat.name}: make-ready (was vacant)`),
  ).toBeVisible();
  await viewerPage.goto(`/buildings/${building.buildingId}/units`);
  await viewerPage.getByRole('link', { name: thermostat.name, exact: true }).click();
  await expect(viewerPage.getByRole('heading', { name: 'Make-ready', level: 2 })).toBeVisible();
  await expect(viewerPage.getByRole('form')).toHaveCount(0);
});

/** A new thermostat at the service, in a building of the demo account. */
async function createAtService(token: string, buildingId: string, name: string): Promise<string> {
  const response = await fetch(`${SANDBOX_URL}/api/v2/thermostats/${buildingId}/thermostats`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ isResidentMode: true, name }),
  });
  expect(response.ok).toBe(true);
  return (await response.json()).data.id;
}

test('an owner replaces a unit’s thermostat: the unit keeps its occupancy and timeline, the old one leaves', async ({
  page,
}) => {
  await signInWithDemoPortfolio(page);
  const token = await demoServiceToken();
  // Where the specs make thermostats (building-table.spec.ts counts Lakeshore Lofts', bulk.spec.ts
  // Desert Palms'); named by id in the import, as portfolio.spec.ts renames it for a moment.
  const { building } = await demoThermostatsIn('Front Range Offices');
  const stamp = Date.now().toString(36);
  const label = `Swap ${stamp}`;
  const first = await createAtService(token, building.buildingId, label);
  const second = await createAtService(token, building.buildingId, `${label} new`);
  await page.goto('/portfolio/add');
  await page.getByLabel('Thermostat ids').fill(`${first}, ${label}, ${building.buildingId}`);
  await page.getByRole('button', { name: 'Add thermostats' }).click();
  await expect(page.getByText('1 added.')).toBeVisible({ timeout: 60_000 });

  await page.goto(`/buildings/${building.buildingId}/units`);
  await page.getByRole('link', { name: label, exact: true }).click();
  const record = page.getByRole('form', { name: `Record what happened to ${label}` });
  await record.getByLabel('Moved out: vacant').check();
  await record.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Vacant', level: 2 })).toBeVisible();
  // A thermostat is replaced once the run putting it in the vacant settings has ended.
  await expect(async () => {
    await page.reload();
    await expect(page.getByText('Matches its vacant settings')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 60_000 });

  await page.getByText('Replace the thermostat…').click();
  const replace = page.getByRole('form', { name: `Replace the thermostat of ${label}` });
  await expect(replace.getByText(`Thermostat ${first} leaves the portfolio.`)).toBeVisible();
  // An id the service does not know is refused under the field, and nothing changes.
  await replace.getByLabel('New thermostat id').fill('999999999999');
  await replace.getByRole('button', { name: 'Replace thermostat' }).click();
  await expect(
    replace.getByText('The service does not know this thermostat, or your account may not see it.'),
  ).toBeVisible();
  await replace.getByLabel('New thermostat id').fill(second);
  await replace.getByRole('button', { name: 'Replace thermostat' }).click();
  await expect(
    page.getByText(`Replaced: ${second} is in ${label}, and ${first} has left the portfolio.`),
  ).toBeVisible({ timeout: 30_000 });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Vacant', level: 2 })).toBeVisible();
  // The unit's thermostats: the old one, then the new one, in it now.
  const held = page.getByRole('table', { name: `Thermostats of ${label}` });
  await expect(held.getByRole('row').nth(1)).toContainText(first);
  await expect(held.getByRole('row').nth(2)).toContainText('Now');
  await expect(held.getByRole('link', { name: second })).toBeVisible();
  await expect(
    page.getByRole('table', { name: `Occupancy of ${label}` }).getByText('Occupied → Vacant'),
  ).toBeVisible();

  // The old thermostat is no longer in the portfolio: a link to it (an old email's) leads to
  // its unit. The new one is, under the unit's label.
  await page.goto(`/thermostats/${first}`);
  await expect(page).toHaveURL(/\/units\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Needs attention history' })).toBeVisible();
  await page.goto(`/thermostats/${second}`);
  await expect(page.getByRole('heading', { name: label, level: 1 })).toBeVisible();
  await expect(page.getByText(`${label}: vacant since`)).toBeVisible();
  await page.goto('/activity');
  await expect(
    page
      .getByRole('table', { name: 'Activity log' })
      .getByText(`Replaced the thermostat of ${label}: ${first} by ${second}`),
  ).toBeVisible();
});

test('a building manager marks a unit vacant and follows its turnover to done; the unit matches its vacant settings, and without JavaScript too', async ({
  page,
  buildingManagerPage: manager,
  browser,
  baseURL,
}) => {
  // Two homes of this test's own (resident mode on) in the manager's building: a turnover resets.
  await signInWithDemoPortfolio(page);
  const token = await demoServiceToken();
  const { building } = await demoThermostatsIn(TEAM.buildingManager.building);
  const stamp = Date.now().toString(36);
  const [label, plainLabel] = [`Turnover ${stamp}`, `Turnover ${stamp} B`];
  const lines = [];
  for (const each of [label, plainLabel]) {
    lines.push(
      `${await createAtService(token, building.buildingId, each)}, ${each}, ${building.buildingId}`,
    );
  }
  await page.goto('/portfolio/add');
  await page.getByLabel('Thermostat ids').fill(lines.join('\n'));
  await page.getByRole('button', { name: 'Add thermostats' }).click();
  await expect(page.getByText('2 added.')).toBeVisible({ timeout: 60_000 });

  await manager.goto(`/buildings/${building.buildingId}/units`);
  await manager.getByRole('link', { name: label, exact: true }).click();
  const record = manager.getByRole('form', { name: `Record what happened to ${label}` });
  await record.getByLabel('Moved out: vacant').check();
  await record.getByRole('button', { name: 'Save' }).click();
  await expect(manager.getByText(`Saved: ${label} is vacant.`)).toBeVisible();
  await manager
    .getByRole('link', { name: /^(Follow the run|The run)$/ })
    .first()
    .click();
  await expect(
    manager.getByRole('heading', { name: `${label}: vacant settings`, level: 1 }),
  ).toBeVisible();
  // The page follows the run by itself until it is done.
  await expect(manager.getByRole('heading', { name: 'Done', level: 2 })).toBeVisible({
    timeout: 60_000,
  });
  // Snapshot, resident mode off, the wait, the template (where the organisation has a vacant
  // template: another spec may make one meanwhile) and the read back: each done.
  const steps = manager
    .getByRole('list')
    .filter({ hasText: 'Keep a snapshot' })
    .getByRole('listitem');
  const count = await steps.count();
  expect(count).toBeGreaterThanOrEqual(4);
  await expect(steps.filter({ hasText: '— Done' })).toHaveCount(count);
  await expect(steps.first()).toContainText('resident mode on');
  await expect(steps.nth(2)).toContainText('The service shows resident mode off.');
  await expect(steps.last()).toContainText('Every section matches.');
  await expectNoAxeViolations(manager);
  await manager.getByRole('link', { name: `← ${label}` }).click();
  await expect(manager.getByText('Matches its vacant settings')).toBeVisible();
  await manager.goto(`/buildings/${building.buildingId}/units`);
  await expect(
    manager
      .getByRole('table', { name: `Units of ${building.name}` })
      .getByRole('row')
      .filter({ has: manager.getByRole('link', { name: label, exact: true }) }),
  ).toContainText('Matches its vacant settings');

  // Without JavaScript, at phone width: the other home's move-out, its run followed by reloading,
  // then its settings applied again, confirmed first.
  const context = await browser.newContext({
    baseURL,
    storageState: authFile('buildingManager'),
    javaScriptEnabled: false,
    viewport: { width: 390, height: 844 },
  });
  try {
    const plain = await context.newPage();
    await plain.goto(`/buildings/${building.buildingId}/units`);
    await plain.getByRole('link', { name: plainLabel, exact: true }).click();
    const plainRecord = plain.getByRole('form', { name: `Record what happened to ${plainLabel}` });
    await plainRecord.getByLabel('Moved out: vacant').check();
    await plainRecord.getByRole('button', { name: 'Save' }).click();
    await expect(plain.getByText(`Saved: ${plainLabel} is vacant.`)).toBeVisible();
    await plain
      .getByRole('link', { name: /^(Follow the run|The run)$/ })
      .first()
      .click();
    await expect(
      plain.getByRole('heading', { name: `${plainLabel}: vacant settings`, level: 1 }),
    ).toBeVisible();
    await expect(async () => {
      await plain.reload();
      await expect(plain.getByRole('heading', { name: 'Done', level: 2 })).toBeVisible({
        timeout: 1000,
      });
    }).toPass({ timeout: 60_000 });
    await plain.getByRole('link', { name: `← ${plainLabel}` }).click();
    await expect(plain.getByText('Matches its vacant settings')).toBeVisible();
    await plain.getByRole('link', { name: 'Apply the vacant settings again…' }).click();
    await expect(
      plain.getByText(`Put ${plainLabel}’s thermostat in its vacant settings again?`),
    ).toBeVisible();
    await plain.getByRole('button', { name: 'Apply the vacant settings' }).click();
    await expect(
      plain.getByRole('heading', { name: `${plainLabel}: vacant settings`, level: 1 }),
    ).toBeVisible();
  } finally {
    await context.close();
  }
});

test('a building manager adds and changes units of their building by pasting CSV, a result a line', async ({
  buildingManagerPage: page,
}) => {
  const { building } = await demoThermostatsIn(TEAM.buildingManager.building);
  // Units of this test's own, empty (no thermostat): the demo's units stay as other tests find them.
  const stamp = Date.now().toString(36);
  const [first, second] = [`CSV ${stamp} A`, `CSV ${stamp} B`];
  const externalId = `PM-${stamp}`;
  await page.goto(`/buildings/${building.buildingId}/units`);
  const form = page.getByRole('form', { name: 'Units by CSV' });
  const results = form.getByRole('table', { name: 'Result for each line' });
  const paste = async (...lines: string[]) => {
    await form
      .getByLabel('Units as CSV')
      .fill(['label,external id,thermostat id,state', ...lines].join('\n'));
    await form.getByRole('button', { name: 'Import units' }).click();
  };

  await paste(
    `${first},,,vacant`,
    `${second},${externalId},,`,
    `Elsewhere ${stamp},,999999999999,`,
  );
  await expect(form.getByText('2 changed, 0 unchanged, 1 refused (see below).')).toBeVisible();
  await expect(results.getByRole('row')).toHaveCount(4);
  await expect(results.getByRole('row').filter({ hasText: first })).toContainText(
    'Added, with no thermostat; now vacant (was occupied).',
  );
  await expect(results.getByRole('row').filter({ hasText: second })).toContainText(
    `Added, with no thermostat, external id ${externalId}.`,
  );
  await expect(results.getByRole('row').filter({ hasText: `Elsewhere ${stamp}` })).toContainText(
    'Thermostat 999999999999 is not in this building’s portfolio: add it on the Add thermostats page first. Nothing was changed.',
  );
  await expectNoAxeViolations(page);

  // Again: the second unit matched by its external id and relabelled, the first made ready.
  await paste(`${first},,,make-ready`, `${second} renamed,${externalId},,occupied`);
  await expect(form.getByText('2 changed, 0 unchanged.')).toBeVisible();
  await expect(results.getByRole('row').filter({ hasText: first })).toContainText(
    'Now make-ready (was vacant).',
  );
  await expect(results.getByRole('row').filter({ hasText: `${second} renamed` })).toContainText(
    `Relabelled from ${second}.`,
  );

  await page.reload();
  const units = page.getByRole('table', { name: `Units of ${building.name}` });
  await expect(units.getByRole('row').filter({ hasText: first })).toContainText('Make-ready');
  await expect(units.getByRole('row').filter({ hasText: `${second} renamed` })).toContainText(
    'Occupied',
  );

  // On the unit's page: its external id, and its label changed by its own form.
  await units.getByRole('link', { name: `${second} renamed`, exact: true }).click();
  await expect(page.getByRole('heading', { name: `${second} renamed`, level: 1 })).toBeVisible();
  const edit = page.getByRole('form', { name: `Label and external id of ${second} renamed` });
  await expect(edit.getByLabel('External id')).toHaveValue(externalId);
  await edit.getByLabel('Label', { exact: true }).fill(`${second} final`);
  await edit.getByRole('button', { name: 'Save unit' }).click();
  await expect(page.getByText(`Saved: ${second} final.`)).toBeVisible();
  await expect(page.getByRole('heading', { name: `${second} final`, level: 1 })).toBeVisible();
});
