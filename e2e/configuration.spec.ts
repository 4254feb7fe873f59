import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';

// A Desert Palms apartment (this spec's buildings: Desert Palms Residences, Cascade Commons).
async function thermostat() {
  const { thermostats } = await demoThermostatsIn('Desert Palms Residences');
  const unit = thermostats[1];
  if (!unit) throw new Error('Desert Palms has no second thermostat');
  return unit;
}

test('configuration: every field error, then a valid save that is logged', async ({ page }) => {
  await signInWithDemoPortfolio(page);
  const { thermostatId } = await thermostat();
  await page.goto(`/thermostats/${thermostatId}/configuration`);
  await expect(page.getByRole('heading', { name: 'Configuration settings' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Configuration' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  // Every hold action is explained in words.
  for (const label of [
    'Hold for 4 hours',
    'Hold for 2 hours',
    'Until the next scheduled period',
    'Indefinitely',
    'Ask each time',
  ]) {
    await expect(page.getByRole('radio', { name: label })).toBeVisible();
  }
  await expectNoAxeViolations(page);

  const heatMin = page.getByLabel('Heat minimum (°F)');
  const heatMax = page.getByLabel('Heat maximum (°F)');
  const coolMin = page.getByLabel('Cool minimum (°F)');
  const coolMax = page.getByLabel('Cool maximum (°F)');
  const fan = page.getByLabel('Fan minimum on-time (minutes per hour)');
  const save = page.getByRole('button', { name: 'Save configuration' });

  // Not a number, beyond the device limits, missing, fan out of range.
  await heatMin.fill('warm');
  await heatMax.fill('100');
  await coolMin.fill('');
  await fan.fill('56');
  await save.click();
  await expect(page.getByText('Check the highlighted fields; nothing was sent.')).toBeVisible();
  await expect(page.getByText('Enter a number, e.g. 68.')).toBeVisible();
  await expect(page.getByText(/Must be between 45 °F and 79 °F/)).toBeVisible();
  await expect(page.getByText('Enter a temperature.')).toBeVisible();
  await expect(page.getByText('Enter whole minutes from 0 to 55.')).toBeVisible();
  await expect(heatMin).toHaveAttribute('aria-invalid', 'true');
  await expect(heatMin).toHaveValue('warm');
  await expect(fan).toHaveAttribute('aria-invalid', 'true');

  // Min above max; cool limits too close to the heat limits (heatCoolMinDelta is at least 2).
  await heatMin.fill('78');
  await heatMax.fill('70');
  await coolMin.fill('66');
  await coolMax.fill('92');
  await fan.fill('10');
  await save.click();
  await expect(page.getByText('Must be lower than the maximum (70 °F).')).toBeVisible();
  await heatMin.fill('70');
  await heatMax.fill('79');
  await coolMin.fill('71');
  await coolMax.fill('80');
  await save.click();
  await expect(page.getByText(/Keep the cool minimum at least/)).toBeVisible();
  await expect(page.getByText(/Keep the cool maximum at least/)).toBeVisible();
  await expect(coolMin).toHaveAttribute('aria-invalid', 'true');

  // A valid save.
  await heatMin.fill('50');
  await heatMax.fill('76');
  await coolMin.fill('65');
  await coolMax.fill('92');
  await fan.fill('10');
  await page.getByRole('radio', { name: 'Indefinitely' }).check();
  await save.click();
  await expect(page.getByText('Configuration saved.')).toBeVisible();
  await expect(heatMax).toHaveValue('76');
  await page.reload();
  await expect(page.getByText('50 °F to 76 °F')).toBeVisible();
  await expect(page.getByText('10 min per hour')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Indefinitely' })).toBeChecked();

  await page.goto('/activity');
  await expect(
    page.getByText(/Changed configuration of .*heat range 50 °F to 76 °F/).first(),
  ).toBeVisible();
});
