import { rmSync } from 'node:fs';
import { expect, test as setup } from '@playwright/test';
import { TEAM, TEAM_PASSWORD } from './support/accounts';
import { authFile, ROLE_NAMES } from './support/fixtures';
import { acceptInvitation, invite } from './support/members';
import { signInWithDemoPortfolio } from './support/portfolio';

/**
 * After first-run setup: the manager (the owner) connects and imports the demo portfolio, then
 * invites an admin, a building manager of one building and a viewer, who accept their links and
 * sign in. Every role's sign-in is stored for the fixtures of support/fixtures.ts.
 */
setup(
  'a member of each role joins the manager’s organisation; each sign-in is stored',
  async ({ page, browser, baseURL }) => {
    // Connecting, importing the demo portfolio and three people joining: more than a page's worth.
    setup.setTimeout(120_000);
    // A previous run's sign-ins belong to a database that is gone.
    for (const role of ROLE_NAMES) rmSync(authFile(role), { force: true });
    await signInWithDemoPortfolio(page);
    await page.context().storageState({ path: authFile('owner') });
    for (const role of ['admin', 'buildingManager', 'viewer'] as const) {
      const member = TEAM[role];
      const link = await invite(
        page,
        member.email,
        member.role,
        'building' in member ? member.building : undefined,
      );
      const context = await browser.newContext({ baseURL });
      const joiner = await context.newPage();
      await acceptInvitation(joiner, link, member.name, TEAM_PASSWORD);
      await joiner.getByLabel('Password').fill(TEAM_PASSWORD);
      await joiner.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(joiner.getByRole('heading', { name: 'Overview' })).toBeVisible();
      await context.storageState({ path: authFile(role) });
      await context.close();
    }
  },
);
