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
 * A password sign-in over plain HTTP, as a script would send it (next-auth's CSRF token and
 * cookie first): the Set-Cookie lines of both answers, and the error code it redirects to.
 */
export async function signInOverHttp(
  appUrl: string,
  options: {
    email?: string;
    password?: string;
    origin?: string;
    headers?: Record<string, string>;
  } = {},
) {
  const headers = options.headers ?? {};
  const csrf = await fetch(`${appUrl}/api/auth/csrf`, { headers });
  const csrfLines = csrf.headers.getSetCookie();
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = csrfLines.map((line) => line.split(';')[0]).join('; ');
  const response = await fetch(`${appUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: {
      ...headers,
      cookie: jar,
      origin: options.origin ?? appUrl,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      csrfToken,
      email: options.email ?? MANAGER.email,
      password: options.password ?? MANAGER.password,
      json: 'true',
    }),
    redirect: 'manual',
  });
  const sessionLines = response.headers.getSetCookie();
  const { url } = (await response.json()) as { url: string };
  const error = new URL(url, appUrl).searchParams.get('error');
  return { csrfLines, sessionLines, csrfToken, jar, error };
}

/**
 * Signs in over plain HTTP as a script would (next-auth's CSRF token, then the credentials
 * callback) and returns the session cookie as a `Cookie` header value.
 */
export async function sessionCookieFor(appUrl: string, email: string, password: string) {
  const { sessionLines } = await signInOverHttp(appUrl, { email, password });
  const session = sessionLines
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => /^(__Secure-)?next-auth\.session-token=/.test(pair));
  if (!session) throw new Error(`no session cookie signing in as ${email}`);
  return session;
}
