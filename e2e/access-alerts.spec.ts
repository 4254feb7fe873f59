import { expect, test } from '@playwright/test';
import { APP_URL } from '../playwright.config';
import { expectNoAxeViolations } from './support/axe';
import { demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';

async function desertPalms(index: number) {
  const { thermostats } = await demoThermostatsIn('Desert Palms Residences');
  const unit = thermostats[index];
  if (!unit) throw new Error(`Desert Palms has no thermostat ${index}`);
  return unit;
}

test('access control: the passcode rules, a save, and the passcode never shown or logged', async ({
  page,
}) => {
  // Pages, RSC payloads and JSON from the app (not its static scripts, whose hashes are noise).
  const seen: string[] = [];
  page.on('response', async (response) => {
    if (!response.url().startsWith(APP_URL) || response.url().includes('/_next/static/')) return;
    const type = response.headers()['content-type'] ?? '';
    if (/html|json|x-component/.test(type)) seen.push(await response.text().catch(() => ''));
  });
  await signInWithDemoPortfolio(page);
  const { thermostatId } = await desertPalms(2);
  await page.goto(`/thermostats/${thermostatId}/access-control`);
  await expect(page.getByRole('heading', { name: 'Access control', exact: true })).toBeVisible();
  await expect(page.getByText(/does not let Setpoint read access control/)).toBeVisible();
  await expectNoAxeViolations(page);

  const on = page.getByRole('radio', { name: 'On', exact: true });
  const off = page.getByRole('radio', { name: 'Off', exact: true });
  const passcode = page.getByLabel('New passcode');
  const save = page.getByRole('button', { name: 'Save access control' });

  // Setpoint cannot read the current state: neither is chosen, and saving as it is sends
  // nothing (it used to read as "off", unlocking whatever was locked).
  await expect(on).not.toBeChecked();
  await expect(off).not.toBeChecked();
  await save.click();
  await expect(page.getByText('Choose whether access control is on or off.')).toBeVisible();

  // A passcode with access control off.
  await page.getByRole('radio', { name: 'Off', exact: true }).check();
  await passcode.fill('1234');
  await save.click();
  await expect(
    page.getByText(/A passcode can only be set while access control is on/),
  ).toBeVisible();
  await expect(passcode).toHaveValue('');

  await page.getByRole('radio', { name: 'On', exact: true }).check();
  for (const [typed, message] of [
    ['123', 'Use exactly 4 digits (you typed 3).'],
    ['12345', 'Use exactly 4 digits (you typed 5).'],
    ['12ab', 'Use the digits 0–9 only.'],
  ] as const) {
    await page.getByRole('radio', { name: 'On', exact: true }).check();
    await page.getByLabel('New passcode').fill(typed);
    await page.getByRole('button', { name: 'Save access control' }).click();
    await expect(page.getByText(message)).toBeVisible();
    await expect(page.getByLabel('New passcode')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('New passcode')).toHaveValue('');
  }

  // A valid save: leading zero kept, two areas locked.
  await page.getByRole('radio', { name: 'On', exact: true }).check();
  await page.getByLabel('New passcode').fill('0420');
  await page.getByRole('checkbox', { name: 'Temperature' }).check();
  await page.getByRole('checkbox', { name: 'Schedule' }).check();
  await page.getByRole('button', { name: 'Save access control' }).click();
  await expect(page.getByText('Access control is on with a passcode.')).toBeVisible();
  await expect(page.getByText(/locked: temperature, schedule/).first()).toBeVisible();
  await expect(page.getByLabel('New passcode')).toHaveValue('');

  await page.goto('/activity');
  await expect(
    page.getByText(/Turned access control on for .*passcode changed/).first(),
  ).toBeVisible();
  // The four digits never came back from Setpoint: not in a page, a payload or the activity log.
  const digits = /(^|[^0-9A-Za-z])0420([^0-9A-Za-z]|$)/;
  expect(seen.join('\n')).not.toMatch(digits);
  expect(await page.content()).not.toMatch(digits);

  // Turning it off again (the demo state of this unit).
  await page.goto(`/thermostats/${thermostatId}/access-control`);
  await expect(page.getByText(/Last set through Setpoint/)).toBeVisible();
  // Known now (set through Setpoint): the form starts from it.
  await expect(page.getByRole('radio', { name: 'On', exact: true })).toBeChecked();
  await page.getByRole('radio', { name: 'Off', exact: true }).check();
  await page.getByRole('button', { name: 'Save access control' }).click();
  await expect(page.getByText(/Access control is off/).first()).toBeVisible();
});

test('access control without JavaScript: on, a passcode and the locks in one save', async ({
  page,
  browser,
  baseURL,
}) => {
  await signInWithDemoPortfolio(page);
  const { thermostatId } = await desertPalms(4);
  const context = await browser.newContext({
    baseURL,
    storageState: await page.context().storageState(),
    javaScriptEnabled: false,
  });
  try {
    const plain = await context.newPage();
    await plain.goto(`/thermostats/${thermostatId}/access-control`);
    // Every field usable at once: nothing waits for "On" to be chosen.
    for (const area of ['Temperature', 'System mode', 'Schedule', 'Vacation', 'Other settings']) {
      await expect(plain.getByRole('checkbox', { name: area, exact: true })).toBeEnabled();
    }
    await plain.getByRole('radio', { name: 'On', exact: true }).check();
    await plain.getByLabel('New passcode').fill('1357');
    await plain.getByRole('checkbox', { name: 'Temperature', exact: true }).check();
    await plain.getByRole('checkbox', { name: 'System mode', exact: true }).check();
    await plain.getByRole('button', { name: 'Save access control' }).click();
    await expect(plain.getByText('Access control is on with a passcode.')).toBeVisible();
    await expect(plain.getByText(/locked: temperature, system mode/).first()).toBeVisible();

    // Off with the locks still ticked (the form starts from them): off, nothing locked. The
    // server decides, and says so.
    await expect(plain.getByRole('checkbox', { name: 'Temperature', exact: true })).toBeChecked();
    await plain.getByRole('radio', { name: 'Off', exact: true }).check();
    await plain.getByRole('button', { name: 'Save access control' }).click();
    await expect(
      plain.getByText('Access control is off: nothing is locked and there is no passcode.'),
    ).toBeVisible();
  } finally {
    await context.close();
  }
});

test('alert settings: field errors, then a valid save with the next reminder shown', async ({
  page,
}) => {
  await signInWithDemoPortfolio(page);
  const { thermostatId } = await desertPalms(3);
  await page.goto(`/thermostats/${thermostatId}/alerts`);
  await expect(page.getByRole('heading', { name: 'Alert settings' })).toBeVisible();
  await expect(page.getByText(/\bAC maintenance/i)).toHaveCount(0);
  await expectNoAxeViolations(page);

  const save = page.getByRole('button', { name: 'Save alert settings' });
  await page.getByLabel('Remind about HVAC maintenance').check();
  await page.getByLabel('Last maintenance').fill('');
  await page.getByLabel('Every').fill('61');
  await page.getByLabel('Interval unit').selectOption('month');
  await page.getByLabel('Low temperature (°F)').fill('cold');
  await page.getByLabel('High temperature (°F)').fill('130');
  await page.getByLabel('Low humidity (%)').fill('0');
  await page.getByLabel('High humidity (%)').fill('101');
  await save.click();
  await expect(page.getByText('Enter the date of the last maintenance.')).toBeVisible();
  await expect(page.getByText('Enter whole months from 1 to 60.')).toBeVisible();
  await expect(page.getByText('Enter a number, e.g. 45.')).toBeVisible();
  await expect(page.getByText(/Must be between -10 °F and 120 °F/)).toBeVisible();
  await expect(page.getByText('Enter a whole percent from 1 to 95.')).toBeVisible();
  await expect(page.getByText('Enter a whole percent from 6 to 100.')).toBeVisible();
  await expect(page.getByLabel('Every')).toHaveAttribute('aria-invalid', 'true');

  // Gaps: temperature alerts at least heatCoolMinDelta apart, humidity at least 5 %.
  await page.getByLabel('Last maintenance').fill('2024-01-15');
  await page.getByLabel('Every').fill('6');
  await page.getByLabel('Low temperature (°F)').fill('60');
  await page.getByLabel('High temperature (°F)').fill('61');
  await page.getByLabel('Low humidity (%)').fill('40');
  await page.getByLabel('High humidity (%)').fill('42');
  await save.click();
  await expect(page.getByText(/Keep the high temperature alert at least/)).toBeVisible();
  await expect(page.getByText(/Keep the high humidity alert at least 5 %/)).toBeVisible();

  // Valid.
  await page.getByLabel('Low temperature (°F)').fill('50');
  await page.getByLabel('High temperature (°F)').fill('88');
  await page.getByLabel('Low humidity (%)').fill('20');
  await page.getByLabel('High humidity (%)').fill('65');
  await page.getByLabel('High humidity alert').check();
  await save.click();
  await expect(page.getByText('Alert settings saved.')).toBeVisible();
  await expect(page.getByText('July 15, 2024')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Last maintenance')).toHaveValue('2024-01-15');
  await expect(page.getByLabel('High humidity alert')).toBeChecked();
  await expect(page.getByText('July 15, 2024')).toBeVisible();

  // Hours instead of months.
  await page.getByLabel('Every').fill('500');
  await page.getByLabel('Interval unit').selectOption('hour');
  await page.getByRole('button', { name: 'Save alert settings' }).click();
  await expect(page.getByText('Alert settings saved.')).toBeVisible();
  await expect(page.getByText('July 15, 2024')).toHaveCount(0);

  await page.goto('/activity');
  await expect(page.getByText(/Changed alert settings of/).first()).toBeVisible();
});
