import { expect, type Page } from '@playwright/test';

/** The first account, created by the first-run setup test that every other spec depends on. */
export const MANAGER = {
  organization: 'Reyes Property Management',
  name: 'Morgan Reyes',
  email: 'morgan@example.com',
  password: 'correct horse battery staple',
} as const;

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
