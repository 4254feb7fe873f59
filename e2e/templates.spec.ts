import type { Page } from '@playwright/test';
import { TEAM } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { actionFormsOf, type Fields, formWhere, postAction } from './support/forms';
import { demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';

/**
 * The template library: an admin starts a template from a thermostat (its comfort settings,
 * schedule, configuration and alerts read from the sandbox), ticks the sections it takes, adjusts
 * it, saves it, changes it and finds it listed; a viewer reads it without an edit form, and a
 * forged edit from them is refused with nothing changed.
 */

const cookieOf = async (page: Page) =>
  (await page.context().cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');

test('an admin starts a template from a thermostat, adjusts it, saves it and finds it listed', async ({
  page,
  adminPage,
}) => {
  await signInWithDemoPortfolio(page);
  const { thermostats } = await demoThermostatsIn('Desert Palms Residences');
  const unit = thermostats[0];
  if (!unit) throw new Error('Desert Palms has no thermostat');
  const name = `Vacant unit ${Date.now()}`;

  await adminPage.goto('/templates');
  await expect(adminPage.getByRole('heading', { name: 'Templates', level: 1 })).toBeVisible();
  await adminPage.getByRole('link', { name: 'New template' }).click();
  await expect(adminPage.getByRole('heading', { name: 'New template', level: 1 })).toBeVisible();

  await adminPage.getByLabel('Thermostat').selectOption(unit.thermostatId);
  await adminPage.getByRole('button', { name: 'Start from this thermostat' }).click();
  await expect(adminPage.getByText(/^Filled in from /)).toBeVisible();
  const form = adminPage.getByRole('form', { name: 'New template' });
  // Filled in from the thermostat: its comfort settings, week (shown read only), configuration
  // and alerts, with no section ticked (e2e/templates-first-day.spec.ts); access control cannot
  // be read, so it is not filled in. Here the template takes all four.
  await expect(form.getByLabel('Name of setting 1')).not.toHaveValue('');
  await expect(form.getByLabel('Include the weekly schedule')).not.toBeChecked();
  for (const section of [
    'Include comfort settings',
    'Include the weekly schedule',
    'Include configuration',
    'Include alert settings',
  ]) {
    await form.getByLabel(section).check();
  }
  await expect(form.getByLabel('Include access control')).not.toBeChecked();
  await expect(form.getByRole('textbox', { name: /passcode/i })).toHaveCount(0);
  await expectNoAxeViolations(adminPage);

  // A field error under its field, then the adjusted template saved.
  await form.getByLabel('Template name').fill(name);
  await form.getByLabel('Fan minimum on-time (minutes per hour)').fill('56');
  await form.getByRole('button', { name: 'Save template' }).click();
  await expect(form.getByText('Check the highlighted fields; nothing was saved.')).toBeVisible();
  await expect(form.getByText('Enter whole minutes from 0 to 55.')).toBeVisible();
  await form.getByLabel('Fan minimum on-time (minutes per hour)').fill('12');
  await form.getByLabel('Include access control').check();
  await form.getByRole('radio', { name: 'On' }).check();
  await form.getByLabel('Lock temperature').check();
  await form.getByRole('button', { name: 'Save template' }).click();

  await expect(adminPage.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(adminPage.getByText('Saved the template.', { exact: false })).toBeVisible();
  await expect(adminPage.getByText('Fan minimum on-time 12 minutes per hour')).toBeVisible();
  await expect(adminPage.getByText('On; locked: temperature.')).toBeVisible();
  await expect(adminPage.getByRole('link', { name: 'Plan on thermostats' })).toHaveAttribute(
    'href',
    /\/templates\/[0-9a-f-]{36}\/plan$/,
  );
  await expectNoAxeViolations(adminPage);

  // Changed, and said so.
  const edit = adminPage.getByRole('form', { name: 'Edit template' });
  await edit.getByLabel('Fan minimum on-time (minutes per hour)').fill('15');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit.getByText(`Saved “${name}”.`, { exact: false })).toBeVisible();
  await adminPage.reload();
  await expect(adminPage.getByText('Fan minimum on-time 15 minutes per hour')).toBeVisible();

  // Listed, with what it sets and who changed it last.
  await adminPage.goto('/templates');
  const row = adminPage.getByRole('listitem').filter({ hasText: name });
  await expect(row).toContainText('a weekly schedule');
  await expect(row).toContainText('access control on');
  await expect(row).toContainText(`Last changed by ${TEAM.admin.name}`);
  await expectNoAxeViolations(adminPage);
});

test('a viewer reads a template without an edit form, and a forged edit is refused', async ({
  adminPage,
  viewerPage,
  baseURL,
}) => {
  const name = `Lobby ${Date.now()}`;
  await adminPage.goto('/templates/new');
  const form = adminPage.getByRole('form', { name: 'New template' });
  await form.getByLabel('Template name').fill(name);
  await form.getByLabel('Include configuration').check();
  await form.getByLabel('Fan minimum on-time (minutes per hour)').fill('5');
  await form.getByRole('button', { name: 'Save template' }).click();
  await expect(adminPage.getByRole('heading', { name, level: 1 })).toBeVisible();
  const path = new URL(adminPage.url()).pathname;

  await viewerPage.goto(path);
  await expect(viewerPage.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(viewerPage.getByText('Fan minimum on-time 5 minutes per hour')).toBeVisible();
  await expect(viewerPage.getByRole('form', { name: 'Edit template' })).toHaveCount(0);
  await expect(viewerPage.getByText('Delete this template…')).toHaveCount(0);
  await expect(
    viewerPage.getByText('Only owners and admins can change or delete templates.'),
  ).toBeVisible();
  await viewerPage.goto('/templates');
  await expect(viewerPage.getByRole('link', { name: 'New template' })).toHaveCount(0);
  await expect(viewerPage.getByRole('link', { name })).toBeVisible();

  // The admin's edit form, posted with the viewer's session: refused, nothing changed.
  const url = `${baseURL}${path}`;
  const html = await (await fetch(url, { headers: { cookie: await cookieOf(adminPage) } })).text();
  const edit = formWhere(actionFormsOf(html), (f) => f.fields.includes('includeConfiguration'));
  const fields: Fields = [
    ['name', `${name} (viewer)`],
    ['includeConfiguration', 'on'],
    ['fanMinimumOnTime', '30'],
  ];
  for (const via of ['fetch', 'nojs'] as const) {
    const answer = await postAction(url, edit, fields, { via, cookie: await cookieOf(viewerPage) });
    expect(answer.status, via).toBeLessThan(500);
    if (via === 'fetch') {
      expect(answer.result?.status).toBe('error');
      expect(String(answer.result?.message)).toMatch(/cannot create, change or delete templates/);
    }
  }
  await adminPage.reload();
  await expect(adminPage.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(adminPage.getByText('Fan minimum on-time 5 minutes per hour')).toBeVisible();
});
