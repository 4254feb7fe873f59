import { expect, test } from '@playwright/test';
import { MANAGER, signInOverHttp } from './support/accounts';
import {
  type AppInstance,
  deploymentSecrets,
  extraPort,
  setUpManager,
  startApp,
} from './support/stack';

/**
 * Issue #17, against the production server (`npm start`: server.ts) on databases of their own,
 * so that the shared app's sign-in counts are left alone:
 * - the client address comes from the socket: a forged X-Forwarded-For changes nothing;
 * - behind TRUSTED_PROXIES, an account sprayed from many addresses is slowed down, and its
 *   owner still signs in from the browser they used before (a device cookie);
 * - a garbage session cookie is one short log line, not a stack trace per request.
 */

test.describe.configure({ mode: 'serial' });

const SERVICE_URL = 'http://127.0.0.1:9'; // never called: no spec here connects

let direct: AppInstance;
let proxied: AppInstance;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  [direct, proxied] = await Promise.all([
    startApp({
      port: extraPort(20),
      publicUrl: `http://127.0.0.1:${extraPort(20)}`,
      serviceUrl: SERVICE_URL,
      env: deploymentSecrets(),
    }),
    startApp({
      port: extraPort(21),
      publicUrl: `http://127.0.0.1:${extraPort(21)}`,
      serviceUrl: SERVICE_URL,
      // As behind one load balancer that appends the address it saw.
      env: { ...deploymentSecrets(), TRUSTED_PROXIES: '1' },
    }),
  ]);
});
test.afterAll(async () => {
  await Promise.all([direct?.stop(), proxied?.stop()]);
});

/** One password sign-in over HTTP: the error code next-auth redirects to (null: signed in). */
async function signInError(
  appUrl: string,
  email: string,
  password: string,
  headers: Record<string, string>,
) {
  return (await signInOverHttp(appUrl, { email, password, headers })).error;
}

test('a forged X-Forwarded-For does not dodge the per-client limit: 24 accounts, 24 headers', async () => {
  test.setTimeout(90_000);
  const answers: (string | null)[] = [];
  for (let i = 0; i < 24; i += 1) {
    answers.push(
      await signInError(direct.url, `victim${i}@example.com`, `guess ${i}`, {
        'x-forwarded-for': `203.0.113.${i + 1}`,
        'x-setpoint-client-address': `198.51.100.${i + 1}`,
      }),
    );
  }
  // All 24 come from one socket: the first 20 are checked (and fail), the rest are throttled.
  expect(answers.slice(0, 20)).toEqual(Array(20).fill('CredentialsSignin'));
  expect(answers.slice(20)).toEqual(Array(4).fill('TooManyAttempts'));
});

test('behind a trusted proxy, a sprayed account is locked for new browsers, not for its owner’s', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const owner = await browser.newContext({ baseURL: proxied.url });
  const page = await owner.newPage();
  await setUpManager(page);
  const device = (await owner.cookies()).find((cookie) => cookie.name === 'setpoint_device');
  expect(device).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/sign-in' });

  // Ten guesses from ten addresses (the proxy reports each): under every per-address limit,
  // but the account now holds every new browser, even with the right password.
  for (let i = 0; i < 10; i += 1) {
    expect(
      await signInError(proxied.url, MANAGER.email, `guess ${i}`, {
        'x-forwarded-for': `203.0.113.${i + 1}`,
      }),
    ).toBe('CredentialsSignin');
  }
  expect(
    await signInError(proxied.url, MANAGER.email, MANAGER.password, {
      'x-forwarded-for': '192.0.2.50',
    }),
  ).toBe('TooManyAttempts');
  const stranger = await browser.newContext({ baseURL: proxied.url });
  const strangerPage = await stranger.newPage();
  await strangerPage.goto('/sign-in');
  await strangerPage.getByLabel('Email').fill(MANAGER.email);
  await strangerPage.getByLabel('Password').fill(MANAGER.password);
  await strangerPage.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(strangerPage.getByText(/Too many failed sign-in attempts/)).toBeVisible();
  await stranger.close();

  // The owner's own browser signs out and back in.
  await page.locator('summary', { hasText: `Account menu for ${MANAGER.name}` }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel('Email').fill(MANAGER.email);
  await page.getByLabel('Password').fill(MANAGER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await owner.close();
});

test('a garbage session cookie, however often, is one short log line', async () => {
  const before = direct.log();
  for (let i = 0; i < 20; i += 1) {
    const response = await fetch(`${direct.url}/api/auth/session`, {
      headers: { cookie: `next-auth.session-token=garbage-${i}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
  }
  // next-auth's client log endpoint would write what anyone posts: it is not there.
  const posted = await fetch(`${direct.url}/api/auth/_log`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ level: 'error', code: 'INJECTED_BY_CLIENT', message: 'hello' }),
  });
  expect(posted.status).toBe(404);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const written = direct.log().slice(before.length);
  expect(written.match(/JWT_SESSION_ERROR/g)).toHaveLength(1);
  expect(written).not.toMatch(/^\s+at /m);
  expect(written).not.toContain('INJECTED_BY_CLIENT');
  expect(written.split('\n').filter(Boolean)).toHaveLength(1);
});
