import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { authFile, expect, test } from './support/fixtures';
import { demoThermostatsIn } from './support/portfolio';

/**
 * A refused save is in view (issue 35, item 3): on a long form the summary at its top ("Fix 2
 * problems", a link to each field in error) takes the keyboard's focus and is on screen, with
 * JavaScript and without; each link brings its field into view and, with JavaScript, focuses it.
 * Measured on a laptop and a phone, where the webhook and template forms run far below the fold.
 */

const SIZES = [
  { name: 'laptop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

/** The summary of a refused save, found as a person finds it: by its heading. */
const summaryOf = (page: Page, problems: number) =>
  page.getByRole('region', { name: `Fix ${problems} problem${problems === 1 ? '' : 's'}` });

for (const size of SIZES) {
  test.describe(`on a ${size.name}`, () => {
    test('a refused webhook brings its summary into view, and each link its field', async ({
      adminPage,
    }) => {
      await adminPage.setViewportSize(size.viewport);
      await adminPage.goto('/notifications');
      const add = adminPage.getByRole('form', { name: 'Add a webhook' });
      await add.getByLabel('Description').fill('x'.repeat(201));
      await add.getByRole('button', { name: 'Add webhook' }).click();

      const summary = summaryOf(adminPage, 2);
      await expect(summary).toBeFocused();
      await expect(summary).toBeInViewport();
      await expect(summary).toContainText('Check the highlighted fields; nothing was saved.');
      await expect(summary.getByRole('link')).toHaveText(['Endpoint address', 'Description']);
      // Each error is said once, under its field; the link is described by it.
      await expect(summary.getByRole('link', { name: 'Description' })).toHaveAccessibleDescription(
        'Use at most 200 characters.',
      );

      await summary.getByRole('link', { name: 'Description' }).click();
      const description = add.getByLabel('Description');
      await expect(description).toBeFocused();
      await expect(description).toBeInViewport();
      await expect(description).toHaveAttribute('aria-invalid', 'true');
      await expectNoAxeViolations(adminPage);
    });

    test('a refused template brings its summary into view, and each link its field', async ({
      adminPage,
    }) => {
      await adminPage.setViewportSize(size.viewport);
      await adminPage.goto('/templates/new');
      const form = adminPage.getByRole('form', { name: 'New template' });
      await form.getByLabel('Template name').fill(`Refused ${Date.now()}`);
      await form.getByLabel('Include configuration').check();
      const fan = form.getByLabel('Fan minimum on-time (minutes per hour)');
      await fan.fill('56');
      await form.getByRole('button', { name: 'Save template' }).click();

      const summary = summaryOf(adminPage, 1);
      await expect(summary).toBeFocused();
      await expect(summary).toBeInViewport();
      await expect(summary).toContainText('Check the highlighted fields; nothing was saved.');
      await expect(form.getByText('Enter whole minutes from 0 to 55.')).toHaveCount(1);

      await summary.getByRole('link', { name: 'Fan minimum on-time (minutes per hour)' }).click();
      await expect(fan).toBeFocused();
      await expect(fan).toBeInViewport();
      await expectNoAxeViolations(adminPage);

      // A second refusal of the same kind brings the summary back into view.
      await fan.fill('57');
      await form.getByRole('button', { name: 'Save template' }).click();
      await expect(summary).toBeFocused();
      await expect(summary).toBeInViewport();
    });

    test('the short forms too: a time range with no day and a building with no name', async ({
      browser,
      baseURL,
    }) => {
      const { building, thermostats } = await demoThermostatsIn('Lakeshore Lofts');
      const thermostat = thermostats[0];
      if (!thermostat) throw new Error('no thermostat in Lakeshore Lofts');
      for (const javaScriptEnabled of [true, false]) {
        const context = await browser.newContext({
          baseURL,
          viewport: size.viewport,
          storageState: authFile('admin'),
          javaScriptEnabled,
        });
        try {
          const page = await context.newPage();
          await page.goto(`/thermostats/${thermostat.thermostatId}/schedule`);
          const range = page.getByRole('form', { name: 'Set a time range' });
          await range.getByRole('button', { name: 'Set time range' }).click();
          const noDay = summaryOf(page, 1);
          await expect(noDay).toBeFocused();
          await expect(noDay).toBeInViewport();
          await expect(noDay.getByRole('link')).toHaveText(['Days']);
          await expect(range.getByText('Choose at least one day.')).toBeVisible();

          await page.goto(`/buildings/${building.buildingId}`);
          await page.getByText('Edit building name and address').click();
          await page.getByLabel('Building name').fill('');
          await page.getByRole('button', { name: 'Save building' }).click();
          const noName = summaryOf(page, 1);
          await expect(noName).toBeFocused();
          await expect(noName).toBeInViewport();
          await expect(noName.getByRole('link')).toHaveText(['Building name']);
          await expect(page.getByRole('heading', { name: building.name, level: 1 })).toBeVisible();
        } finally {
          await context.close();
        }
      }
    });

    test('without JavaScript the answer to a refused save opens on its summary', async ({
      browser,
      baseURL,
    }) => {
      const context = await browser.newContext({
        baseURL,
        viewport: size.viewport,
        storageState: authFile('admin'),
        javaScriptEnabled: false,
      });
      try {
        const page = await context.newPage();

        // The template form: the longest.
        await page.goto('/templates/new');
        const form = page.getByRole('form', { name: 'New template' });
        await form.getByLabel('Template name').fill(`Plain ${Date.now()}`);
        await form.getByLabel('Include configuration').check();
        await form.getByLabel('Fan minimum on-time (minutes per hour)').fill('56');
        await form.getByRole('button', { name: 'Save template' }).click();
        const summary = summaryOf(page, 1);
        await expect(summary).toBeFocused();
        await expect(summary).toBeInViewport();
        // Its link is a fragment link: it brings the field into view.
        await summary.getByRole('link', { name: 'Fan minimum on-time (minutes per hour)' }).click();
        await expect(page).toHaveURL(/#field-fanMinimumOnTime$/);
        await expect(form.getByLabel('Fan minimum on-time (minutes per hour)')).toBeInViewport();

        // The webhook form, at the foot of the notifications page.
        await page.goto('/notifications');
        const add = page.getByRole('form', { name: 'Add a webhook' });
        await add.getByLabel('Description').fill('x'.repeat(201));
        await add.getByRole('button', { name: 'Add webhook' }).click();
        await expect(summaryOf(page, 2)).toBeFocused();
        await expect(summaryOf(page, 2)).toBeInViewport();
      } finally {
        await context.close();
      }
    });
  });
}
