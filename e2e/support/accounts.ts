import { expect, type Page } from '@playwright/test';

/** The first account, created by the first-run setup test that every other spec depends on. */
export const MANAGER = {
  organization: 'Reyes Property Management',
  name: 'Morgan Reyes',
  email: 'morgan@example.com',
  password: 'correct horse battery staple',
} as const;

/**
 * Members of each role in the manager's organisation, invited by the `members` setup project
 * (e2e/members.setup.ts), which stores each one's sign-in for the fixtures (support/fixtures.ts).
 */
export const TEAM = {
  admin: { name: 'Ari Admin', email: 'ari@example.com', role: 'Admin' },
  buildingManager: {
    name: 'Bo Manager',
    email: 'bo@example.com',
    role: 'Building manager',
    building: 'Cascade Commons',
  },
  viewer: { name: 'Val Viewer', email: 'val@example.com', role: 'Viewer' },
} as const;
export const TEAM_PASSWORD = 'a different staple, horse and battery';

export async function signIn(
  page: Page,
  email: string = MANAGER.email,
  password: string = MANAGER.password,
) {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

export async function signInAsManager(page: Page) {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
}

/**
 * Signs in over plain HTTP as a browser's sign-in form does (next-auth's CSRF token, then the
 * credentials callback) and returns the session cookie as a `Cookie` header value.
 */
export async function signInOverHttp(appUrl: string, email: string, password: string) {
  const csrf = await fetch(`${appUrl}/api/auth/csrf`);
  const jar = csrf.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${appUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: {
      cookie: jar,
      origin: appUrl,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ csrfToken, email, password, json: 'true' }),
    redirect: 'manual',
  });
  const session = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => /^(__Secure-)?next-auth\.session-token=/.test(pair));
  if (!session)
    throw new Error(`no session cookie signing in as ${email} (HTTP ${response.status})`);
  return session;
}
