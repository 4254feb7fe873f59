import { mkdirSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { authFile } from './support/fixtures';
import { demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';

/**
 * The README's screenshots (docs/, laptop width, light), and every main page at phone and laptop
 * width in light and dark for review (test-results/screenshots/). Not part of `npm test`: run
 * `npm run screenshots` after a build.
 */
const SIZES = { laptop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };
const THEMES = ['light', 'dark'] as const;

test.use({ storageState: authFile('owner') });

async function shoot(page: Page, name: string, path: string) {
  mkdirSync('test-results/screenshots', { recursive: true });
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    await page.goto(path);
    await expect(page.getByRole('main')).toBeVisible();
    // Streamed parts (statuses, names) settle before the picture.
    await page.waitForLoadState('networkidle');
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
      await page.screenshot({
        path: `test-results/screenshots/${name}-${size}-${theme}.png`,
        fullPage: true,
      });
      if (size === 'laptop' && theme === 'light')
        await page.screenshot({ path: `docs/${name}.png` });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
}

test('screenshots of every main page', async ({ page }) => {
  test.setTimeout(600_000);
  await signInWithDemoPortfolio(page);
  const { building, thermostats } = await demoThermostatsIn('Harbor View Apartments');
  const unit = thermostats.find((t) => t.name === 'Unit 204') ?? thermostats[0];
  if (!unit) throw new Error('demo building has no thermostats');
  const thermostat = `/thermostats/${unit.thermostatId}`;
  // Background reading has read every thermostat's alerts once: the checks have all run.
  await expect(async () => {
    await page.goto('/attention');
    await expect(page.getByText(/^(Not yet checked|Still checking)/)).toHaveCount(0, {
      timeout: 1000,
    });
  }).toPass({ timeout: 240_000, intervals: [5000] });
  const pages: [string, string][] = [
    ['overview', '/'],
    ['building-overview', `/buildings/${building.buildingId}`],
    ['thermostat-status', thermostat],
    ['schedule', `${thermostat}/schedule`],
    ['comfort-settings', `${thermostat}/comfort-settings`],
    ['configuration', `${thermostat}/configuration`],
    ['access-control', `${thermostat}/access-control`],
    ['alerts', `${thermostat}/alerts`],
    ['attention', '/attention'],
    ['bulk-changes', '/bulk'],
    ['activity', '/activity'],
    ['members', '/members'],
    ['notifications', '/notifications'],
    ['templates', '/templates'],
    ['new-template', '/templates/new'],
    ['groups', '/groups'],
    ['connection', '/connection'],
    ['add-thermostats', '/portfolio/add'],
    ['account', '/account'],
  ];
  for (const [name, path] of pages) await shoot(page, name, path);

  // A template started from Unit 204, then planned on the building: the plan before applying.
  await page.goto('/templates/new');
  await page.getByLabel('Thermostat').selectOption(unit.thermostatId);
  await page.getByRole('button', { name: 'Start from this thermostat' }).click();
  const form = page.getByRole('form', { name: 'New template' });
  await form.getByLabel('Template name').fill('Vacant unit');
  // Started from a thermostat, a template ticks no section: this one is for the configuration.
  await form.getByLabel('Include configuration').check();
  await form.getByLabel('Fan minimum on-time (minutes per hour)').fill('20');
  await form.getByRole('button', { name: 'Save template' }).click();
  await page.getByRole('link', { name: 'Plan on thermostats' }).click();
  await page.getByLabel(`Select all in ${building.name}`).check();
  await page.getByRole('button', { name: 'Plan on the selected thermostats' }).click();
  await page
    .getByRole('heading', { name: 'The plan: nothing has been sent yet' })
    .waitFor({ timeout: 120_000 });
  await shoot(page, 'template-plan', new URL(page.url()).pathname);
});
