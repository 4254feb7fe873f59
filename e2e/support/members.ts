import { expect, type Page } from '@playwright/test';
import { noticeKeyOf } from './notice';

/**
 * People joining an organisation through its pages: an owner or admin invites them on the
 * members page, and they accept the link with a name and password.
 */

/** Invites someone from the members page, as an owner or admin does; returns the link shown. */
export async function invite(page: Page, email: string, role: string, building?: string) {
  await page.goto('/members');
  const form = page.getByRole('form', { name: 'Invite someone' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Role').selectOption({ label: role });
  if (building) await form.getByRole('checkbox', { name: building }).check();
  await form.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByText(`Pass this link on to ${email} yourself`)).toBeVisible();
  return page.getByLabel('Invitation link').inputValue();
}

/** Accepts an invitation link with a name and password; ends on the sign-in page. */
export async function acceptInvitation(page: Page, link: string, name: string, password: string) {
  await page.goto(link);
  const form = page.getByRole('form', { name: 'Accept the invitation' });
  await form.getByLabel('Your name').fill(name);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByLabel('Confirm password').fill(password);
  await form.getByRole('button', { name: 'Join' }).click();
  await expect(page).toHaveURL(/\/sign-in\?notice=/);
  expect(noticeKeyOf(page.url())).toBe('joined');
  await expect(page.getByText('You have joined. Sign in with your new password.')).toBeVisible();
}
