import { expect, type Page } from '@playwright/test';
import { APP_URL as SANDBOX_APP_URL, SANDBOX_URL } from '../../playwright.config';

/** The sandbox's control API (enabled for the e2e run). */
export async function sandboxControl(method: string, route: string, body?: unknown) {
  const response = await fetch(`${SANDBOX_URL}/_sandbox${route}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(response.ok, `sandbox control ${method} ${route}`).toBe(true);
  return response.json();
}

/** Substrings every sandbox-issued token carries; none may ever reach the browser. */
export async function tokenSentinels(): Promise<string[]> {
  const { sentinels } = await sandboxControl('GET', '/config');
  return [
    sentinels.opaqueAccessToken,
    sentinels.refreshToken,
    sentinels.authorizationCode,
    sentinels.jwtPrefix,
  ];
}

/** The sandbox's two users: the demo portfolio's, and a second account's (for isolation). */
export const SANDBOX_USERS = {
  demo: { email: 'demo@sandbox.test', password: 'demo-password' },
  other: { email: 'other@sandbox.test', password: 'other-password' },
} as const;

/** Walks the sandbox consent page as one of its users (the demo user by default). */
export async function answerConsent(
  page: Page,
  answer: 'Accept' | 'Decline',
  user: { email: string; password: string } = SANDBOX_USERS.demo,
) {
  await expect(page.getByRole('heading', { name: 'Sign in to allow access' })).toBeVisible();
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: answer }).click();
}

/**
 * A service token of the demo account, without a browser: a grant of its own, apart from the
 * app's, for a spec to read or create thermostats at the service directly.
 */
export async function demoServiceToken(
  sandboxUrl: string = SANDBOX_URL,
  appUrl: string = SANDBOX_APP_URL,
): Promise<string> {
  const redirectUri = `${appUrl}/api/connect/callback`;
  const answer = await fetch(`${sandboxUrl}/_sandbox/authorization-code`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      user: 'demo',
      clientId: 'setpoint-local',
      redirectUri,
      scope: 'smartWrite',
    }),
  });
  expect(answer.ok, 'authorization code').toBe(true);
  const { code } = (await answer.json()) as { code: string };
  const query = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    client_id: 'setpoint-local',
  });
  const response = await fetch(`${sandboxUrl}/token?${query}`, { method: 'POST' });
  expect(response.ok, 'token exchange').toBe(true);
  return (await response.json()).access_token;
}
