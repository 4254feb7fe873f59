import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { demoPortfolio, demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';
import { sandboxControl } from './support/sandbox';

// Portfolio and live status. Uses the demo buildings "Harbor View Apartments" and "Front Range
// Offices" only: other specs own the others.
test.describe.configure({ mode: 'serial' });

async function removeFromPortfolio(page: Page, thermostatId: string) {
  await page.goto(`/thermostats/${thermostatId}`);
  if ((await page.getByRole('heading', { name: 'Page not found' }).count()) > 0) return;
  // Asked first, then said.
  await page.getByText('Remove from portfolio…').click();
  await page.getByRole('button', { name: 'Remove from portfolio', exact: true }).click();
  await expect(page).toHaveURL(/\/buildings\//);
  await expect(page.getByText(/was removed from the portfolio/)).toBeVisible();
}

test('adds thermostats from a pasted list, reporting every line', async ({ page }) => {
  await signInWithDemoPortfolio(page);
  const { thermostats } = await demoThermostatsIn('Harbor View Apartments');
  const [lobby] = thermostats;
  if (!lobby) throw new Error('demo building has no thermostats');
  const otherAccount = (await sandboxControl('GET', '/portfolio?user=other')).thermostats[0]
    .thermostatId;
  await removeFromPortfolio(page, lobby.thermostatId);

  await page.goto('/portfolio/add');
  // The service does not say which building a thermostat is in: the import says it.
  await page
    .locator('form')
    .filter({ has: page.getByLabel('Thermostat ids') })
    .getByLabel('Building')
    .selectOption({ label: 'Harbor View Apartments' });
  await page
    .getByLabel('Thermostat ids')
    .fill(`${lobby.thermostatId}, Main lobby\n12345\n${otherAccount}\n${lobby.thermostatId}`);
  await page.getByRole('button', { name: 'Add thermostats' }).click();

  const report = page.getByRole('table', { name: 'Result for each thermostat' });
  await expect(report).toBeVisible();
  await expect(page.getByText('1 added, 3 not added (see below).')).toBeVisible();
  // Each line says where the thermostat went.
  await expect(report.getByRole('row', { name: /Main lobby/ })).toContainText(
    'DoneAdded to Harbor View Apartments as Main lobby.',
  );
  await expect(report.getByRole('row', { name: /12345/ })).toContainText('Not a thermostat id');
  await expect(report.getByRole('row', { name: new RegExp(otherAccount) })).toContainText(
    'your account may not see it',
  );
  await expect(report.getByRole('row', { name: /Listed twice/ })).toContainText('Not sent');
});

test('a long import shows each line’s result as the service answers it, with a count', async ({
  page,
}) => {
  await signInWithDemoPortfolio(page);
  const { thermostats } = await demoThermostatsIn('Harbor View Apartments');
  const known = thermostats.slice(0, 3);
  const others = (await sandboxControl('GET', '/portfolio?user=other')).thermostats
    .slice(0, 3)
    .map((t: { thermostatId: string }) => t.thermostatId);
  // The service takes 3 s to answer for each thermostat Setpoint does not know yet.
  await sandboxControl('PUT', '/latency', {
    endpoints: { 'GET /api/v2/thermostats/:id/status': 3000 },
  });
  try {
    await page.goto('/portfolio/add');
    await page
      .locator('form')
      .filter({ has: page.getByLabel('Thermostat ids') })
      .getByLabel('Building')
      .selectOption({ label: 'Harbor View Apartments' });
    await page
      .getByLabel('Thermostat ids')
      .fill([...known.map((t) => t.thermostatId), ...others].join('\n'));
    await page.getByRole('button', { name: 'Add thermostats' }).click();

    // While the service is still asked, the lines already decided are shown, and counted.
    await expect(page.getByRole('status').filter({ hasText: 'Checked' })).toHaveText(
      'Checked 3 of 6 lines with the service…',
    );
    await expect(page.getByRole('progressbar', { name: 'Lines checked' })).toHaveAttribute(
      'value',
      '3',
    );
    const soFar = page.getByRole('table', { name: 'Result for each thermostat so far' });
    await expect(soFar.getByRole('row')).toHaveCount(4);
    await expect(
      soFar.getByRole('row', { name: new RegExp(known[0]?.thermostatId ?? '-') }),
    ).toContainText('Already in the portfolio, in Harbor View Apartments.');
    await expect(page.getByRole('button', { name: 'Checking with the service…' })).toBeDisabled();

    // Then every line, and the summary.
    await expect(page.getByText('0 added, 3 not added (see below).')).toBeVisible();
    const report = page.getByRole('table', { name: 'Result for each thermostat' });
    await expect(report.getByRole('row')).toHaveCount(7);
    await expect(report.getByRole('row', { name: new RegExp(others[2]) })).toContainText(
      'your account may not see it',
    );
    await expect(page.getByRole('progressbar')).toHaveCount(0);
  } finally {
    await sandboxControl('PUT', '/latency', { endpoints: {} });
  }
});

test('imports a CSV file with a result for each row, bad rows included', async ({ page }) => {
  await signInWithDemoPortfolio(page);
  const { thermostats } = await demoThermostatsIn('Harbor View Apartments');
  const target = thermostats[1];
  if (!target) throw new Error('demo building too small');
  await removeFromPortfolio(page, target.thermostatId);

  await page.goto('/portfolio/add');
  await page.getByLabel('CSV file').setInputFiles({
    name: 'units.csv',
    mimeType: 'text/csv',
    // Each row names its building (by name or by id), as the service does not say it.
    buffer: Buffer.from(
      `unitLabel,thermostatId,building\n"Unit 101, east",${target.thermostatId},harbor view apartments\nBroken,abc,\n`,
    ),
  });
  await page.getByRole('button', { name: 'Import file' }).click();
  const report = page.getByRole('table', { name: 'Result for each thermostat' });
  await expect(report.getByRole('row', { name: /Unit 101, east/ })).toContainText(
    'Added to Harbor View Apartments as Unit 101, east.',
  );
  await expect(report.getByRole('row', { name: /abc/ })).toContainText('Not a thermostat id');

  // A file without the id column is refused as a whole, under the field.
  await page.getByLabel('CSV file').setInputFiles({
    name: 'bad.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('name\nUnit 1\n'),
  });
  await page.getByRole('button', { name: 'Import file' }).click();
  await expect(
    page.getByText('The first row must name the columns, including thermostatId.'),
  ).toBeVisible();
});

test('a building overview shows every thermostat; one the service cannot read shows what it last said, in its own row', async ({
  page,
}) => {
  await signInWithDemoPortfolio(page);
  const { building, thermostats } = await demoThermostatsIn('Harbor View Apartments');
  const failing = thermostats[2];
  if (!failing) throw new Error('demo building too small');
  await sandboxControl('PUT', '/faults', {
    faults: [
      {
        endpoint: 'GET /api/v2/thermostats/:id/status',
        kind: 500,
        thermostatId: failing.thermostatId,
      },
    ],
  });
  try {
    await page.goto(`/buildings/${building.buildingId}`);
    await page.getByRole('button', { name: 'Refresh statuses' }).click();
    const table = page.getByRole('table', { name: 'Thermostats and their live status' });
    await expect(page.getByText(/could not be read/)).toBeVisible();
    const failedRow = table.getByRole('row', { name: new RegExp(failing.thermostatId) });
    await expect(failedRow).toContainText('not responding');
    // It still shows its last reading (from the import), with when that was.
    await expect(failedRow).toContainText('°F');
    await expect(failedRow).toHaveAttribute('data-state', 'failed');
    // Every other row has its reading, and no problem.
    await expect(table.getByRole('row', { name: /Unit 104/ })).toContainText('°F');
    await expect(table.getByRole('row', { name: /Unit 104/ })).not.toContainText('not responding');
    await expect(table.locator('tbody tr')).toHaveCount(thermostats.length);

    // Sorting by temperature (on the server, by the address) puts the unreadable row last.
    await table.getByRole('link', { name: 'Temperature' }).click();
    await expect(page).toHaveURL(/\?sort=temperature$/);
    await expect(table.locator('tbody tr').last()).toContainText('not responding');
    // Searching narrows the rows.
    await page.getByLabel('Search').fill('Unit 10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(table.locator('tbody tr')).toHaveCount(4);
    await expectNoAxeViolations(page);
  } finally {
    await sandboxControl('DELETE', '/faults');
  }
});

test('the status page shows every field; resident mode goes off only once the reset is confirmed', async ({
  page,
}) => {
  await signInWithDemoPortfolio(page);
  const { thermostats } = await demoThermostatsIn('Harbor View Apartments');
  const unit = thermostats.find((t) => t.name === 'Unit 204');
  if (!unit) throw new Error('no Unit 204');
  await page.goto(`/thermostats/${unit.thermostatId}`);
  await expect(page.getByRole('heading', { name: 'Unit 204', level: 1 })).toBeVisible();
  for (const term of [
    'Temperature',
    'Humidity',
    'HVAC mode',
    'Heat setpoint',
    'Cool setpoint',
    'Connection',
  ]) {
    await expect(page.getByRole('term').filter({ hasText: new RegExp(`^${term}$`) })).toBeVisible();
  }
  // In words, with the service's codes behind a disclosure; and what cannot be done from here.
  const mode = page
    .getByRole('term')
    .filter({ hasText: /^HVAC mode$/ })
    .locator('+ dd');
  await expect(mode).toHaveText(/^(Heat|Cool|Auto \(heat or cool\)|Auxiliary heat only|Off)/);
  // The comfort setting in force by its name, as the comfort settings page calls it.
  const comfort = page
    .getByRole('term')
    .filter({ hasText: /^Comfort setting now$/ })
    .locator('+ dd');
  // Unit 204's schedule (the sandbox's 'quiet' profile) puts its own Quiet Hours in force
  // overnight in the building's zone, Pre-heat before it: a name, never a ref such as `smart2`.
  await expect(comfort).toHaveText(/^(Home|Away|Sleep|Pre-heat|Quiet Hours|Vacant Unit)$/);
  await expect(page.getByText('As the service reports it')).toBeVisible();
  await expect(page.getByText(/lets no one set the HVAC mode or hold a temperature/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'comfort settings', exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  // Celsius on request, back to Fahrenheit after.
  await page.getByRole('button', { name: '°C' }).click();
  await expect(page.getByRole('definition').filter({ hasText: /°C$/ }).first()).toBeVisible();
  await page.getByRole('button', { name: '°F' }).click();
  await expect(page.getByRole('definition').filter({ hasText: /°F$/ }).first()).toBeVisible();

  const residentCard = page
    .locator('div')
    .filter({ has: page.getByRole('heading', { name: 'Resident mode' }) })
    .last();
  await expect(residentCard.getByText('Resident mode is on.')).toBeVisible();
  await page.getByRole('button', { name: 'Turn resident mode off' }).click();
  await expect(page.getByText('Confirm that turning resident mode off resets')).toBeVisible();
  await page.getByLabel('I understand: reset this thermostat’s settings.').check();
  await page.getByRole('button', { name: 'Turn resident mode off' }).click();
  await expect(
    page.getByText('Resident mode is off; the thermostat’s settings were reset'),
  ).toBeVisible();
  // The reset sends the HVAC mode to auto after a delay: shown as pending until it lands.
  await page.getByRole('button', { name: 'Turn resident mode on' }).click();
  await expect(page.getByText('Resident mode is on.').first()).toBeVisible();

  await page.goto(`/activity?thermostat=${unit.thermostatId}`);
  await expect(
    page.getByRole('cell', { name: /Turned resident mode off for Unit 204/ }),
  ).toBeVisible();
  await expect(
    page.getByRole('cell', { name: /Turned resident mode on for Unit 204/ }),
  ).toBeVisible();
});

test('creates a thermostat in a building, moves it to another, and logs both', async ({ page }) => {
  await signInWithDemoPortfolio(page);
  const portfolio = await demoPortfolio();
  const front = portfolio.buildings.find((b) => b.name === 'Front Range Offices');
  const harbor = portfolio.buildings.find((b) => b.name === 'Harbor View Apartments');
  if (!front || !harbor) throw new Error('demo buildings missing');
  const label = `Suite ${Date.now() % 100000}`;

  await page.goto(`/buildings/${front.buildingId}`);
  await page.getByRole('link', { name: 'New thermostat' }).click();
  // Nothing filled in registers nothing: a name and a deliberate confirmation are needed.
  const created = async () =>
    (await sandboxControl('GET', '/calls')).calls[
      'POST /api/v2/thermostats/:buildingId/thermostats'
    ] ?? 0;
  const before = await created();
  await page.getByRole('button', { name: 'Create thermostat' }).click();
  await expect(page.getByText(/Name the thermostat/)).toBeVisible();
  await expect(page.getByText(/Confirm that a new thermostat is to be registered/)).toBeVisible();
  expect(await created()).toBe(before);

  await page.getByLabel('Device serial (optional)').fill('12');
  await page.getByRole('button', { name: 'Create thermostat' }).click();
  await expect(page.getByText('A thermostat id is 12 digits.')).toBeVisible();

  await page.getByLabel('Device serial (optional)').fill('');
  await page.getByLabel('Unit label').fill(label);
  await page.getByRole('checkbox', { name: /Register this new thermostat/ }).check();
  await page.getByRole('button', { name: 'Create thermostat' }).click();
  await expect(page.getByRole('heading', { name: label, level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Thermostat sections' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Front Range Offices' })).toBeVisible();
  const thermostatId = page.url().split('/').at(-1) ?? '';
  // A thermostat added just now: its chart says its history starts there, and is drawn from
  // then (not two dots against the right edge of a day).
  await expect(
    page.getByText(/^Its history starts when it was added to Setpoint, today at/),
  ).toBeVisible();
  await expect(page.locator('#history-summary')).toContainText('since it was added');

  // No building is chosen until someone chooses one.
  await expect(page.getByLabel('Move to')).toHaveValue('');
  await page.getByLabel('Move to').selectOption({ label: 'Harbor View Apartments' });
  await page.getByRole('button', { name: 'Move thermostat' }).click();
  await expect(page.getByText('Moved to Harbor View Apartments.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('link', { name: 'Harbor View Apartments' })).toBeVisible();
  // The service agrees.
  const device = await sandboxControl('GET', `/thermostats/${thermostatId}`);
  expect(device.buildingId).toBe(harbor.buildingId);

  await page.goto(`/buildings/${harbor.buildingId}`);
  await expect(page.getByRole('row', { name: new RegExp(label) })).toBeVisible();
  await page.goto(`/activity?thermostat=${thermostatId}`);
  await expect(
    page.getByRole('cell', { name: `Created ${label} in Front Range Offices` }),
  ).toBeVisible();
  await expect(
    page.getByRole('cell', { name: `Moved ${label} to Harbor View Apartments` }),
  ).toBeVisible();
});

test('renames a building and sets its address; two buildings cannot share a name', async ({
  page,
}) => {
  await signInWithDemoPortfolio(page);
  const { building } = await demoThermostatsIn('Front Range Offices');
  await page.goto(`/buildings/${building.buildingId}`);
  await page.getByText('Edit building name and address').click();
  await page.getByLabel('Building name').fill('Harbor View Apartments');
  await page.getByRole('button', { name: 'Save building' }).click();
  await expect(page.getByText('Another building has this name.')).toBeVisible();

  await page.getByLabel('Building name').fill('Front Range HQ');
  await page.getByLabel('Address').fill('1600 Champa St, Denver, CO 80202, Floor 3');
  await page.getByRole('button', { name: 'Save building' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Front Range HQ', level: 1 })).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('link', { name: /Front Range HQ/ })).toContainText('Floor 3');

  // Back as it was, for the specs that follow.
  await page.goto(`/buildings/${building.buildingId}`);
  await page.getByText('Edit building name and address').click();
  await page.getByLabel('Building name').fill('Front Range Offices');
  await page.getByRole('button', { name: 'Save building' }).click();
  await expect(page.getByRole('heading', { name: 'Front Range Offices', level: 1 })).toBeVisible();
});

test('without JavaScript, the thermostat forms post and answer and the overview shows statuses', async ({
  page: signedIn,
  browser,
}) => {
  await signInWithDemoPortfolio(signedIn);
  const { thermostats } = await demoThermostatsIn('Harbor View Apartments');
  const unit = thermostats.find((t) => t.name === 'Unit 103');
  if (!unit) throw new Error('no Unit 103');
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await signedIn.context().storageState(),
  });
  const page = await context.newPage();
  await page.goto(`/thermostats/${unit.thermostatId}`);
  // The comfort setting in force by its name in the first HTML, not a ref left by a stream.
  await expect(
    page
      .getByRole('term')
      .filter({ hasText: /^Comfort setting now$/ })
      .locator('+ dd'),
  ).toHaveText(/^(Home|Away|Sleep|Pre-heat|Quiet Hours|Vacant Unit)$/);
  await page.getByLabel('Unit label').fill(`${'x'.repeat(65)}`);
  await page.getByRole('button', { name: 'Save label' }).click();
  await expect(page.getByText('Use at most 64 characters.')).toBeVisible();
  await page.getByLabel('Unit label').fill('Unit 103');
  await page.getByRole('button', { name: 'Save label' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();

  // The building overview's rows come from the server: statuses already read are in the HTML.
  const { building } = await demoThermostatsIn('Harbor View Apartments');
  await signedIn.goto(`/buildings/${building.buildingId}`);
  // By role, which leaves out hidden elements: while rows are read again the settled status
  // line arrives as a hidden copy before React swaps it in, and text alone would match both.
  await expect(
    signedIn.getByRole('status').filter({ hasText: `${thermostats.length} thermostats` }),
  ).toBeVisible();
  await page.goto(`/buildings/${building.buildingId}`);
  const table = page.getByRole('table', { name: 'Thermostats and their live status' });
  await expect(table.getByRole('row', { name: /Unit 103/ })).toContainText('°F');
  await expect(table.locator('tbody tr:visible')).toHaveCount(thermostats.length);

  // Adding posts to the form's action and answers with every line at once.
  await page.goto('/portfolio/add');
  await page.getByLabel('Thermostat ids').fill(`${unit.thermostatId}\n12345`);
  await page.getByRole('button', { name: 'Add thermostats' }).click();
  await expect(page.getByText('0 added, 1 not added (see below).')).toBeVisible();
  const report = page.getByRole('table', { name: 'Result for each thermostat' });
  await expect(report.getByRole('row', { name: new RegExp(unit.thermostatId) })).toContainText(
    'Already in the portfolio, in Harbor View Apartments.',
  );
  await context.close();
});
