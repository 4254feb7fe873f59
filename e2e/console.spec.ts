import { expect, test } from '@playwright/test';
import { MANAGER } from './support/accounts';
import { demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';

// The console's first impressions (issue #14): signing in without JavaScript, 404 pages that
// work under the CSP, the connection page naming the account, maintenance said overdue, and the
// activity log's date range. Demo building "Harbor View Apartments".

test('without JavaScript, signing in is a plain form post that lands on the overview', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(MANAGER.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('That email and password do not match an account.')).toBeVisible();
  await page.getByLabel('Password').fill(MANAGER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await context.close();
});

test('404 pages: scripts allowed by the CSP, one logo, a way back', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await signInWithDemoPortfolio(page);

  // An address that matches no page at all.
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByText('Setpoint', { exact: true })).toHaveCount(1);
  // A page inside the app for something that is not there: the app's header carries the logo.
  await page.goto('/thermostats/000000000000');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByText('Setpoint', { exact: true })).toHaveCount(1);
  await page.getByRole('link', { name: 'Back to the overview' }).click();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  // The 404 responses themselves are logged by the browser; nothing else is.
  expect(problems.filter((text) => !/status of 404/.test(text))).toEqual([]);
});

test('the connection page names the service account it is connected to', async ({ page }) => {
  await signInWithDemoPortfolio(page);
  await page.goto('/connection');
  const account = page
    .getByRole('term')
    .filter({ hasText: /^Service account$/ })
    .locator('+ dd');
  await expect(account).toHaveText(/\S/);
  await expect(account).not.toHaveText('—');
});

test('a maintenance reminder already past is said to be overdue', async ({ page }) => {
  await signInWithDemoPortfolio(page);
  const { thermostats } = await demoThermostatsIn('Harbor View Apartments');
  const unit = thermostats.find((t) => t.name === 'Unit 102') ?? thermostats[1];
  if (!unit) throw new Error('demo building too small');
  await page.goto(`/thermostats/${unit.thermostatId}/alerts`);
  await page.getByLabel('Remind about HVAC maintenance').check();
  await page.getByLabel('Last maintenance').fill('2024-01-15');
  await page.getByLabel('Every', { exact: true }).fill('6');
  await page.getByRole('button', { name: 'Save alert settings' }).click();
  await expect(page.getByText(/^Maintenance is overdue since/)).toBeVisible();
});

test('the activity log keeps to a date range', async ({ page }) => {
  await signInWithDemoPortfolio(page);
  // Two days back in UTC is before the suite began in any zone the owner's page is in.
  const from = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  await page.goto(`/activity?from=${from}`);
  const log = page.getByRole('table', { name: 'Activity log' });
  await expect(log.locator('tbody tr').first()).toBeVisible();
  await expect(page.getByLabel(/^From \(/)).toHaveValue(from);
  // Nothing happened before the suite started.
  await page.goto('/activity?to=2020-01-01');
  await expect(page.getByText('No activity matches these filters.')).toBeVisible();
  await expect(log).toHaveCount(0);
  await expect(page.getByLabel(/^To \(/)).toHaveValue('2020-01-01');
});
