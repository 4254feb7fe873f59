import { existsSync, readFileSync } from 'node:fs';
import { type Cookie, expect, type Page } from '@playwright/test';
import { signInAsManager } from './accounts';
import { authFile } from './fixtures';
import { answerConsent, sandboxControl } from './sandbox';

/**
 * The state most feature specs start from: the manager signed in, connected to the sandbox as
 * its demo user, with the demo portfolio imported. Idempotent: it connects and imports only
 * what is missing, so specs can run alone or in any order.
 */
export async function signInWithDemoPortfolio(page: Page) {
  // The owner's session that the members setup stored is reused (signing in through the form is
  // what e2e/sign-in.spec.ts tests); a session that is gone by now means signing in afresh.
  const stored = authFile('owner');
  if (existsSync(stored)) {
    const { cookies } = JSON.parse(readFileSync(stored, 'utf8')) as { cookies: Cookie[] };
    await page.context().addCookies(cookies);
    await page.goto('/connection');
  }
  if (!existsSync(stored) || new URL(page.url()).pathname === '/sign-in') {
    await signInAsManager(page);
    await page.goto('/connection');
  }
  await expect(page.getByRole('heading', { name: 'Service connection' })).toBeVisible();
  if (!(await page.getByRole('heading', { name: 'Connected', exact: true }).isVisible())) {
    await page
      .getByRole('button', { name: /Connect service account|Reconnect/ })
      .first()
      .click();
    await answerConsent(page, 'Accept');
    await expect(page.getByRole('heading', { name: 'Connected', exact: true })).toBeVisible();
  }
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  if (await page.getByRole('heading', { name: 'No buildings yet' }).isVisible()) {
    await page.goto('/portfolio/add');
    await page.getByRole('button', { name: 'Import the sandbox demo portfolio' }).click();
    await expect(page.getByText(/^\d+ added/)).toBeVisible({ timeout: 30_000 });
  }
}

export type DemoPortfolio = {
  buildings: { buildingId: string; name: string; timeZone: string }[];
  thermostats: { thermostatId: string; name: string; buildingId: string }[];
};

/** The sandbox's demo portfolio, to pick thermostats by building. */
export async function demoPortfolio(): Promise<DemoPortfolio> {
  return sandboxControl('GET', '/portfolio?user=demo');
}

/** The demo thermostats of one building, by the building's name. */
export async function demoThermostatsIn(name: string) {
  const portfolio = await demoPortfolio();
  const building = portfolio.buildings.find((b) => b.name === name);
  if (!building) throw new Error(`no demo building named ${name}`);
  return {
    building,
    thermostats: portfolio.thermostats.filter((t) => t.buildingId === building.buildingId),
  };
}

/**
 * Adds a building to the signed-in owner's portfolio through its form, as a manager does before
 * adding its thermostats by id (the service does not say which building a thermostat is in).
 */
export async function addBuilding(
  page: Page,
  building: { name: string; buildingId: string; timeZone: string },
) {
  await page.goto('/portfolio/add');
  const form = page
    .locator('form')
    .filter({ has: page.getByRole('button', { name: 'Add building' }) });
  await form.getByLabel('Building name').fill(building.name);
  await form.getByLabel('Building id at the service').fill(building.buildingId);
  await form.getByLabel('Time zone').selectOption(building.timeZone);
  await form.getByRole('button', { name: 'Add building' }).click();
  await expect(page.getByText(`Added ${building.name}.`)).toBeVisible();
}
