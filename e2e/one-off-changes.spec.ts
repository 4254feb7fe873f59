import { SANDBOX_URL } from '../playwright.config';
import { expectNoAxeViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';
import { demoServiceToken } from './support/sandbox';

/**
 * One-off changes through /bulk/change, against the sandbox: an admin sets alert settings and a
 * schedule range on three fresh thermostats (the plan shown, applied, a result per thermostat,
 * checked at the service), and resident mode off is refused with another section and planned
 * alone with the reset said loudly (then discarded, not applied).
 */

const BUILDING = 'Lakeshore Lofts';
const COUNT = 3;

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

test('an admin applies alert settings and a schedule range to a few thermostats, and sees the resident-mode reset warned', async ({
  page,
  adminPage,
}) => {
  test.setTimeout(240_000);
  // Fresh thermostats at the service, added by the owner, so no other spec's state is touched.
  await signInWithDemoPortfolio(page);
  const token = await demoServiceToken();
  const { building } = await demoThermostatsIn(BUILDING);
  const stamp = Date.now().toString(36);
  const label = (n: number) => `OneOff ${stamp} ${n + 1}`;
  const created: string[] = [];
  for (let n = 0; n < COUNT; n += 1) {
    const record = await service(token, 'POST', `/${building.buildingId}/thermostats`, {
      isResidentMode: true,
      name: label(n),
    });
    created.push(record.id);
  }
  await page.goto('/portfolio/add');
  await page
    .getByLabel('Thermostat ids')
    .fill(created.map((id, n) => `${id}, ${label(n)}, ${building.name}`).join('\n'));
  await page.getByRole('button', { name: 'Add thermostats' }).click();
  await expect(page.getByText(`${COUNT} added.`)).toBeVisible({ timeout: 60_000 });

  // From the bulk page to the one-off change.
  await adminPage.goto('/bulk');
  await expect(adminPage.getByRole('heading', { name: 'Change other settings' })).toBeVisible();
  await adminPage.getByRole('link', { name: 'Plan a one-off change' }).click();
  await expect(adminPage.getByRole('heading', { name: 'One-off change', level: 1 })).toBeVisible();
  await expectNoAxeViolations(adminPage);
  const form = adminPage.getByRole('form', { name: 'One-off change' });
  await expect(form.getByText(/used for that run only and never stored/)).toBeVisible();
  await expect(form.getByText(/Turning resident mode off resets/)).toBeVisible();

  // Alerts: the low temperature alert on at 50 °F.
  await form.getByLabel('Include alert settings').check();
  await form.getByLabel('Low temperature alert').check();
  await form.getByLabel('Low temperature (°F)').fill('50');
  await form.getByLabel('High temperature alert').check();
  // A range: weekdays 09:00–17:00 Home (the sandbox's residential week has Away then).
  await form.getByLabel('Include schedule ranges').check();
  const range = form.getByRole('group', { name: 'Range 1' });
  for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'])
    await range.getByLabel(day, { exact: true }).check();
  await range.getByLabel('From (range 1)').selectOption({ label: '09:00' });
  await range.getByLabel('To (range 1)').selectOption({ label: '17:00' });
  await range.getByLabel('Comfort setting (range 1)').fill('Home');
  await form.getByLabel('Filter').fill(`OneOff ${stamp}`);
  await form.getByRole('button', { name: 'Select all shown' }).click();
  await expect(form.getByText(`${COUNT} selected`)).toBeVisible();
  await form.getByRole('button', { name: 'Plan on the selected thermostats' }).click();

  // The plan: nothing sent yet, each thermostat's changes in words.
  await expect(
    adminPage.getByRole('heading', { name: 'The plan: nothing has been sent yet' }),
  ).toBeVisible({ timeout: 120_000 });
  await expect(
    adminPage.getByRole('heading', {
      name: `One-off: schedule ranges, alert settings on ${COUNT} thermostats`,
    }),
  ).toBeVisible();
  const item = adminPage.getByRole('listitem').filter({ hasText: label(0) });
  await item.getByText('Schedule, Alerts').click();
  await expect(item.getByText(/09:00–17:00/)).toBeVisible();
  await expect(item.getByText('Away →')).toBeVisible();
  await expectNoAxeViolations(adminPage);

  // Applied as a job: a result per thermostat.
  await adminPage.getByRole('link', { name: `Apply to ${COUNT} thermostats…` }).click();
  await adminPage.getByRole('button', { name: 'Yes, apply it' }).click();
  await expect(adminPage.getByRole('heading', { name: 'Done', exact: true })).toBeVisible({
    timeout: 120_000,
  });
  for (let n = 0; n < COUNT; n += 1) {
    await expect(adminPage.getByRole('row').filter({ hasText: label(n) })).toContainText(/Applied/);
  }
  const schedule = await service(token, 'GET', `/${created[0]}/schedule`);
  const monday = schedule.days.find((day: { day: string }) => day.day === 'monday');
  expect(monday.blocks.slice(18, 34)).toEqual(new Array(16).fill('home'));
  const alerts = await service(token, 'GET', `/${created[0]}/alertSettings`);
  expect(alerts.lowTemperatureAlert).toMatchObject({ enabled: true, value: 50 });
  await expect(adminPage.getByRole('link', { name: 'Undo this run…' })).toBeVisible();

  // Resident mode off: refused beside another section, then planned alone, the reset said loudly.
  await adminPage.goto('/bulk/change');
  await form.getByLabel('Include resident mode').check();
  await form.getByRole('radio', { name: 'Off (resets the thermostat’s settings)' }).check();
  await form.getByLabel('Include alert settings').check();
  await form.getByLabel('Filter').fill(label(0));
  await form.getByRole('button', { name: 'Select all shown' }).click();
  await form.getByRole('button', { name: 'Plan on the selected thermostats' }).click();
  // Said at the field (the section's warning above it carries the same words from the start,
  // so a search for the text alone would pass before the refusal came back).
  await expect(form.locator('#field-residentMode-errors')).toContainText(
    /cannot be combined with other sections/,
  );
  await form.getByLabel('Include alert settings').uncheck();
  await form.getByRole('button', { name: 'Plan on the selected thermostats' }).click();
  await expect(
    adminPage.getByRole('heading', { name: 'The plan: nothing has been sent yet' }),
  ).toBeVisible({ timeout: 120_000 });
  await expect(
    adminPage.getByRole('alert').filter({ hasText: /resident mode off resets/ }),
  ).toBeVisible();
  await expect(
    adminPage
      .getByRole('listitem')
      .filter({ hasText: label(0) })
      .getByText(/Turning resident mode off resets/)
      .first(),
  ).toBeVisible();
  await adminPage.getByRole('link', { name: 'Discard the plan…' }).click();
  await adminPage.getByRole('button', { name: 'Discard the plan' }).click();
  await expect(adminPage.getByRole('link', { name: 'Discard the plan…' })).toHaveCount(0);
  const status = await service(token, 'GET', `/${created[0]}/status`);
  expect(status.isResidentMode).toBe(true);
});
