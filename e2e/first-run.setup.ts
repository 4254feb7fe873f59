import { expect, test } from '@playwright/test';
import { MANAGER } from './support/accounts';
import { noticeKeyOf } from './support/notice';

// Without JavaScript, so that setup is proven to work as a plain form post (teams.spec.ts walks
// it with JavaScript, on a stack of its own).
test.use({ javaScriptEnabled: false });

test('first run: every page leads to setup, which creates the first account and then closes', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole('heading', { name: 'Welcome to Setpoint' })).toBeVisible();

  // Field errors come back under their fields, and nothing is created.
  await page.getByLabel('Organisation').fill(MANAGER.organization);
  await page.getByLabel('Your name').fill(MANAGER.name);
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Confirm password').fill('different');
  await page.getByRole('button', { name: 'Create organisation and account' }).click();
  await expect(page.getByText('Enter a valid email address.')).toBeVisible();
  await expect(page.getByText('Use at least 15 characters.')).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Your name')).toHaveValue(MANAGER.name);
  await expect(page.getByLabel('Organisation')).toHaveValue(MANAGER.organization);

  await page.getByLabel('Email').fill(MANAGER.email);
  await page.getByLabel('Password', { exact: true }).fill(MANAGER.password);
  await page.getByLabel('Confirm password').fill(MANAGER.password);
  await page.getByRole('button', { name: 'Create organisation and account' }).click();

  await expect(page).toHaveURL(/\/sign-in\?notice=/);
  expect(noticeKeyOf(page.url())).toBe('accountReady');
  await expect(page.getByText('Your account is ready. Sign in to continue.')).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue(MANAGER.email);

  // Setup is closed once an account exists.
  await page.goto('/setup');
  await expect(page).toHaveURL(/\/sign-in$/);
});
