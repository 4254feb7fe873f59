import type { APIResponse, Page } from '@playwright/test';
import { MANAGER, TEAM } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { invite } from './support/members';
import { demoThermostatsIn } from './support/portfolio';
import { sandboxControl } from './support/sandbox';

/**
 * What each role of the manager's organisation is shown, on the shared stack with the stored
 * sign-ins of support/fixtures.ts, and the pages teams added, accessible in light and dark.
 * (The refusals behind these pages are proven in teams.spec.ts, on a stack of its own.)
 */

test('each stored sign-in is its member, with their role', async ({
  ownerPage,
  adminPage,
  buildingManagerPage,
  viewerPage,
}) => {
  for (const [page, name, role] of [
    [ownerPage, MANAGER.name, 'owner'],
    [adminPage, TEAM.admin.name, 'admin'],
    [buildingManagerPage, TEAM.buildingManager.name, 'building manager'],
    [viewerPage, TEAM.viewer.name, 'viewer'],
  ] as const) {
    await page.goto('/members');
    const main = page.getByRole('main');
    await expect(main).toContainText(`You are ${role}.`);
    await expect(main.getByText(`${name} (you)`)).toBeVisible();
  }
});

test('the members page, managed by the owner, with a member’s disclosure open', async ({
  ownerPage: page,
}) => {
  await page.goto('/members');
  await expect(page.getByRole('heading', { name: 'Invite someone' })).toBeVisible();
  await page.getByText(`Change ${TEAM.viewer.name.split(' ')[0]}…`).click();
  await expect(page.getByRole('form', { name: `Role of ${TEAM.viewer.name}` })).toBeVisible();
  await page.getByRole('form', { name: 'Invite someone' }).getByLabel('Role').selectOption({
    label: 'Building manager',
  });
  await expect(page.getByRole('group', { name: 'Buildings they look after' })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('an invitation’s page, usable and not', async ({ adminPage, page }) => {
  const link = await invite(adminPage, 'newcomer@example.com', 'Viewer');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: `Join ${MANAGER.organization}` })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.goto(`${link}x`);
  await expect(page.getByRole('heading', { name: 'This invitation cannot be used' })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('a building manager sees their one building, in the overview and in bulk changes', async ({
  buildingManagerPage: page,
}) => {
  await page.goto('/');
  const cards = page.getByRole('main').getByRole('listitem');
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText(TEAM.buildingManager.building);
  await expectNoAxeViolations(page);
  await page.goto('/bulk');
  await expect(page.getByRole('group', { name: TEAM.buildingManager.building })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Desert Palms Residences' })).toHaveCount(0);
});

test('a viewer sees settings read-only and is told what their role cannot do', async ({
  viewerPage: page,
}) => {
  const { thermostats } = await demoThermostatsIn('Desert Palms Residences');
  const thermostat = thermostats[1];
  if (!thermostat) throw new Error('Desert Palms has no second thermostat');
  await page.goto(`/thermostats/${thermostat.thermostatId}`);
  await expect(page.getByText('You can see this thermostat but not change it')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.goto(`/thermostats/${thermostat.thermostatId}/configuration`);
  await expect(page.getByRole('button', { name: 'Save configuration' })).toBeDisabled();
  await expectNoAxeViolations(page);
  await page.goto('/portfolio/add');
  await expect(
    page.getByText('As a viewer you cannot add or remove thermostats; ask an owner or admin.'),
  ).toBeVisible();
  await expectNoAxeViolations(page);
});

test('the streamed import asks the service nothing for a stranger, a viewer, another site or a malformed form', async ({
  ownerPage,
  viewerPage,
  page: stranger,
  baseURL,
}) => {
  const STATUS = 'GET /api/v2/thermostats/:id/status';
  const post = (from: Page, query: string, multipart: Record<string, string>, origin = baseURL) =>
    from.request.post(`/portfolio/add/import?${query}`, {
      headers: { origin: origin ?? '' },
      multipart,
      maxRedirects: 0,
    });
  const { thermostats } = await demoThermostatsIn('Harbor View Apartments');
  const list = { list: thermostats.map((t) => t.thermostatId).join('\n') };
  await sandboxControl('DELETE', '/calls');

  // Signed out, the proxy sends the request to sign in before the route runs.
  const signedOut = await post(stranger, 'from=list', list);
  expect(signedOut.status()).toBe(307);
  expect(signedOut.headers().location).toMatch(/\/sign-in/);

  const cases: [string, Promise<APIResponse>, number, string | RegExp][] = [
    ['a viewer', post(viewerPage, 'from=list', list), 403, /viewer/i],
    ['another site', post(ownerPage, 'from=list', list, 'https://evil.example'), 403, /refused/],
    ['no source', post(ownerPage, 'from=everything', list), 400, 'Malformed request.'],
    ['an empty list', post(ownerPage, 'from=list', { list: ' ' }), 422, 'Paste at least one'],
    ['no file', post(ownerPage, 'from=csv', list), 422, 'Choose a CSV file.'],
  ];
  for (const [who, answer, status, text] of cases) {
    const response = await answer;
    expect(response.status(), who).toBe(status);
    expect(await response.text(), who).toMatch(text);
  }
  expect((await sandboxControl('GET', '/calls')).calls[STATUS] ?? 0).toBe(0);
});
