import path from 'node:path';
import { type Browser, test as base, type Page } from '@playwright/test';

/**
 * Fixtures for a signed-in member of each role in the manager's organisation on the shared
 * stack: the owner (MANAGER) and the admin, building manager and viewer of `TEAM`, whose sign-ins
 * the `members` setup project stored. Each is a page in a browser context of its own, so a test
 * can hold several roles at once.
 *
 *   import { expect, test } from './support/fixtures';
 *   test('...', async ({ viewerPage }) => { await viewerPage.goto('/'); ... });
 */

export const ROLE_NAMES = ['owner', 'admin', 'buildingManager', 'viewer'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

/** Where a role's sign-in state (its session cookie) is stored between the projects. */
export const authFile = (role: RoleName) => path.join('test-results', '.auth', `${role}.json`);

type RolePages = {
  ownerPage: Page;
  adminPage: Page;
  buildingManagerPage: Page;
  viewerPage: Page;
};

const signedInAs =
  (role: RoleName) =>
  async (
    { browser, baseURL }: { browser: Browser; baseURL?: string },
    use: (page: Page) => Promise<void>,
  ) => {
    const context = await browser.newContext({ baseURL, storageState: authFile(role) });
    await use(await context.newPage());
    await context.close();
  };

export const test = base.extend<RolePages>({
  ownerPage: signedInAs('owner'),
  adminPage: signedInAs('admin'),
  buildingManagerPage: signedInAs('buildingManager'),
  viewerPage: signedInAs('viewer'),
});

export { expect } from '@playwright/test';
