import { expect, test } from '@playwright/test';
import { MANAGER, signIn, signInAsManager } from './support/accounts';

test('a protected page redirects to sign-in and returns there afterwards', async ({ page }) => {
  await page.goto('/?tab=all');
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto('/not-a-page-yet');
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fnot-a-page-yet$/);
  await page.getByLabel('Email').fill(MANAGER.email);
  await page.getByLabel('Password').fill(MANAGER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/not-a-page-yet$/);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test('a wrong password is refused with a message, the right one signs in', async ({ page }) => {
  await signIn(page, MANAGER.email, 'wrong password entirely');
  await expect(page.getByText('That email and password do not match an account.')).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in/);
  // The email typed is kept for the next try, but not in the address (logs, history, Referer).
  await expect(page.getByLabel('Email')).toHaveValue(MANAGER.email);
  expect(decodeURIComponent(page.url())).not.toContain(MANAGER.email);

  await page.getByLabel('Password').fill(MANAGER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(
    page.locator('summary', { hasText: `Account menu for ${MANAGER.name}` }),
  ).toBeVisible();
});

test('sign-out ends the session, even for a copy of the cookie', async ({
  page,
  context,
  browser,
}) => {
  await signInAsManager(page);
  const copied = await context.cookies();

  await page.locator('summary', { hasText: `Account menu for ${MANAGER.name}` }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in/);

  // Someone who kept the old cookie is signed out too: the session row was revoked.
  const other = await browser.newContext();
  await other.addCookies(copied);
  const replay = await other.newPage();
  await replay.goto('/');
  await expect(replay).toHaveURL(/\/sign-in/);
  await other.close();
});

test('a tampered session cookie reads as signed out, not as an error', async ({
  page,
  context,
}) => {
  await signInAsManager(page);
  const cookies = await context.cookies();
  const session = cookies.find((cookie) => cookie.name.endsWith('next-auth.session-token'));
  if (!session) throw new Error('no session cookie after sign-in');
  await context.addCookies([{ ...session, value: `${session.value.slice(0, -6)}AAAAAA` }]);
  const response = await page.goto('/');
  expect(response?.status()).toBeLessThan(500);
  await expect(page).toHaveURL(/\/sign-in/);
});

test('repeated failures lock an account out, with a message saying so', async ({ page }) => {
  const email = 'someone-else@example.com';
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    await signIn(page, email, `guess number ${attempt}`);
    await expect(page.getByText('That email and password do not match an account.')).toBeVisible();
  }
  await signIn(page, email, 'guess number 6');
  await expect(page.getByText(/Too many failed sign-in attempts/)).toBeVisible();
});
