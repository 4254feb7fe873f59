import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';
import { sandboxControl } from './support/sandbox';

// Only thermostats of Lakeshore Lofts: other specs use other buildings.
test.describe.configure({ mode: 'serial' });

const POST_COMFORT = 'POST /api/v2/thermostats/:id/comfortSettings';
const PATCH_COMFORT = 'PATCH /api/v2/thermostats/:id/comfortSettings';
let boilerRoom = '';
// Names unique per run, so the spec can run again against the same sandbox.
const tag = Date.now().toString(36).slice(-4);

test.beforeAll(async () => {
  const { thermostats } = await demoThermostatsIn('Lakeshore Lofts');
  boilerRoom = thermostats.find((t) => t.name === 'Boiler Room')?.thermostatId ?? '';
  expect(boilerRoom).not.toBe('');
});

test.beforeEach(async ({ page }) => {
  await signInWithDemoPortfolio(page);
});

async function openComfort(page: Page) {
  await page.goto(`/thermostats/${boilerRoom}/comfort-settings`);
  await expect(page.getByRole('heading', { name: 'Comfort settings', level: 2 })).toBeVisible();
}

async function calls(endpoint: string) {
  const { calls } = await sandboxControl('GET', '/calls');
  return Number(calls[endpoint] ?? 0);
}

async function create(
  page: Page,
  values: { name: string; heat: string; cool: string; fanCool?: string },
) {
  const form = page.getByRole('form', { name: 'New comfort setting' });
  await form.getByLabel('Name').fill(values.name);
  await form.getByLabel(/Heat setpoint/).fill(values.heat);
  await form.getByLabel(/Cool setpoint/).fill(values.cool);
  if (values.fanCool) await form.getByLabel('Fan when cooling').selectOption(values.fanCool);
  await form.getByRole('button', { name: 'Create comfort setting' }).click();
  return form;
}

test('create, edit (all five fields) and delete a comfort setting, each in the activity log', async ({
  page,
}) => {
  await openComfort(page);
  // The defaults and every field of each are listed.
  await expect(page.getByRole('heading', { name: 'Home', exact: true })).toBeVisible();
  await expect(
    page.getByText(/Heat 45–79 °F, cool 65–92 °F, and cool at least \d °F above heat\./),
  ).toBeVisible();

  const name = `Holiday ${tag}`;
  const form = await create(page, { name, heat: '64', cool: '80', fanCool: 'on' });
  await expect(form.getByText(`Created ${name}.`)).toBeVisible();
  const card = page.getByRole('article', { name });
  await expect(card).toBeVisible();
  await expect(card.getByText('64 °F')).toBeVisible();
  await expect(card.getByText('80 °F')).toBeVisible();
  // The service's ref only for a technician, behind a disclosure.
  await expect(card.getByText(/smart\d+/).filter({ visible: true })).toHaveCount(0);
  await card.getByText('As the service reports it').click();
  await expect(card.getByText(/^Service ref: smart\d+$/)).toBeVisible();
  await expect(card.getByText('Not used by the schedule.')).toBeVisible();
  // The create form is empty again.
  await expect(form.getByLabel('Name')).toHaveValue('');

  const renamed = `Winter ${tag}`;
  await card.getByText(`Edit ${name}`).click();
  const edit = card.getByRole('form', { name: `Edit ${name}` });
  await edit.getByLabel('Name').fill(renamed);
  await edit.getByLabel(/Heat setpoint/).fill('65.5');
  await edit.getByLabel(/Cool setpoint/).fill('81');
  await edit.getByLabel('Fan when heating').selectOption('on');
  await edit.getByLabel('Fan when cooling').selectOption('auto');
  const before = await calls(PATCH_COMFORT);
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(`Saved ${renamed}.`)).toBeVisible();
  expect(await calls(PATCH_COMFORT)).toBe(before + 1);
  const renamedCard = page.getByRole('article', { name: renamed });
  await expect(renamedCard.getByText('65.5 °F')).toBeVisible();
  await expect(renamedCard.getByText('81 °F')).toBeVisible();
  await expect(renamedCard.getByRole('definition').filter({ hasText: /^on$/ })).toHaveCount(1);

  await renamedCard.getByText(`Delete ${renamed}…`).click();
  await renamedCard.getByRole('button', { name: `Yes, delete ${renamed}` }).click();
  await expect(page.getByRole('article', { name: renamed })).toHaveCount(0);
  await expect(page.getByText(`Deleted ${renamed}.`)).toBeVisible();

  await page.goto('/activity');
  await expect(
    page.getByText(new RegExp(`Created comfort setting ${name} on Boiler Room`)),
  ).toBeVisible();
  // Named as the manager knows them, not by the service's ref.
  await expect(
    page.getByText(new RegExp(`Changed comfort setting ${name} on Boiler Room`)),
  ).toBeVisible();
  await expect(
    page.getByText(new RegExp(`Deleted comfort setting ${renamed} on Boiler Room`)).first(),
  ).toBeVisible();
});

test('bad values get field errors before anything is sent', async ({ page }) => {
  await openComfort(page);
  const before = await calls(POST_COMFORT);
  const form = await create(page, { name: '  ', heat: 'warm', cool: '', fanCool: undefined });
  await expect(form.getByText('Enter a name.')).toBeVisible();
  await expect(form.getByText('Enter a number, such as 70 or 21.5.')).toBeVisible();
  await expect(form.getByText('Enter the cool setpoint.')).toBeVisible();
  await expect(form.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');

  await create(page, { name: 'home', heat: '90', cool: '93' });
  await expect(form.getByText('Another comfort setting is already called Home.')).toBeVisible();
  await expect(form.getByText('Heat must be between 45 and 79 °F.')).toBeVisible();
  await expect(form.getByText('Cool must be between 65 and 92 °F.')).toBeVisible();
  // What was typed is kept.
  await expect(form.getByLabel(/Heat setpoint/)).toHaveValue('90');

  await create(page, { name: `Tight ${tag}`, heat: '72', cool: '73' });
  await expect(form.getByText(/Cool must be at least \d °F above heat\./)).toBeVisible();
  await expect(form.getByLabel(/Cool setpoint/)).toHaveAttribute('aria-invalid', 'true');
  expect(await calls(POST_COMFORT)).toBe(before);
});

test('deleting a setting the schedule uses is refused, naming the days and times', async ({
  page,
}) => {
  await openComfort(page);
  const name = `Guest Wing ${tag}`;
  const form = await create(page, { name, heat: '68', cool: '76' });
  await expect(form.getByText(`Created ${name}.`)).toBeVisible();

  // Use it (a custom ref) in the schedule through the plain form.
  await page.goto(`/thermostats/${boilerRoom}/schedule`);
  const range = page.getByRole('form', { name: 'Set a time range' });
  await range.getByLabel('Monday').check();
  await range.getByLabel('Tuesday').check();
  await range.getByLabel('From').selectOption({ label: '07:00' });
  await range.getByLabel('To').selectOption({ label: '09:00' });
  await range.getByLabel('Comfort setting', { exact: true }).selectOption({ label: name });
  await range.getByRole('button', { name: 'Set time range' }).click();
  await expect(range.getByText('Saved: Monday, Tuesday 07:00–09:00.')).toBeVisible();
  await expect(page.getByRole('gridcell', { name: /^Monday 08:30–09:00/ })).toHaveAccessibleName(
    new RegExp(`, ${name}(, now)?$`),
  );

  await openComfort(page);
  const card = page.getByRole('article', { name });
  await expect(card.getByText('Used by the schedule: Monday, Tuesday 07:00–09:00.')).toBeVisible();
  await card.getByText(`Delete ${name}…`).click();
  await card.getByRole('button', { name: `Yes, delete ${name}` }).click();
  await expect(
    card.getByText(
      `${name} cannot be deleted: the schedule uses it on Monday, Tuesday 07:00–09:00. Assign another comfort setting to those times first.`,
    ),
  ).toBeVisible();
  await expect(page.getByRole('article', { name })).toBeVisible();
});

test('in °C, limits are stated in °C and values are sent in °F', async ({ page }) => {
  await openComfort(page);
  await page.getByRole('button', { name: '°C' }).click();
  try {
    await expect(page.getByText(/Heat 7\.2–26\.1 °C, cool 18\.3–33\.3 °C/)).toBeVisible();
    const name = `Metric ${tag}`;
    const form = await create(page, { name, heat: '26.2', cool: '30' });
    await expect(form.getByText('Heat must be between 7.2 and 26.1 °C.')).toBeVisible();
    await create(page, { name, heat: '20', cool: '25' });
    await expect(form.getByText(`Created ${name}.`)).toBeVisible();
    await expect(page.getByRole('article', { name }).getByText('20 °C')).toBeVisible();
  } finally {
    await page.getByRole('button', { name: '°F' }).click();
    await expect(page.getByRole('button', { name: '°F' })).toHaveAttribute('aria-pressed', 'true');
  }
  await expect(
    page.getByRole('article', { name: `Metric ${tag}` }).getByText('68 °F'),
  ).toBeVisible();
  await expect(
    page.getByRole('article', { name: `Metric ${tag}` }).getByText('77 °F'),
  ).toBeVisible();
});

test('without JavaScript, create shows field errors and then creates', async ({
  page: signedIn,
  browser,
}) => {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await signedIn.context().storageState(),
  });
  const page = await context.newPage();
  const submitAndSee = async (answer: string) => {
    const posted = page.waitForResponse((response) => response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Create comfort setting' }).click();
    await posted;
    await expect(page.getByText(answer)).toBeVisible();
  };
  await page.goto(`/thermostats/${boilerRoom}/comfort-settings`);
  const name = `Plain ${tag}`;
  const form = page.getByRole('form', { name: 'New comfort setting' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel(/Heat setpoint/).fill('80');
  await form.getByLabel(/Cool setpoint/).fill('85');
  await submitAndSee('Heat must be between 45 and 79 °F.');
  await expect(form.getByLabel('Name')).toHaveValue(name);
  await form.getByLabel(/Heat setpoint/).fill('66');
  await submitAndSee(`Created ${name}.`);
  await expect(page.getByRole('article', { name })).toBeVisible();
  await context.close();
});

test('the comfort settings page has no axe violations, with a form open and in error', async ({
  page,
}) => {
  // Four axe runs (light and dark, twice) beside the other lane's stacks: 22–33 s on 2 cores.
  test.setTimeout(90_000);
  await openComfort(page);
  await page.getByText('Edit Home').click();
  await create(page, { name: '', heat: '1', cool: '2' });
  await expect(page.getByText('Enter a name.')).toBeVisible();
  await expectNoAxeViolations(page);
});
