import { expect, test } from '@playwright/test';
import { demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';
import { answerConsent, sandboxControl } from './support/sandbox';

test('when the service refuses the refresh token, every page offers a reconnect that comes back', async ({
  page,
}) => {
  await signInWithDemoPortfolio(page);
  const { building, thermostats } = await demoThermostatsIn('Front Range Offices');
  const suite = thermostats[0];
  if (!suite) throw new Error('demo building has no thermostats');
  const path = `/thermostats/${suite.thermostatId}`;
  await page.goto(`/buildings/${building.buildingId}`);

  // 31 days on at the service: the access token is dead and so is the refresh token (30 days).
  await sandboxControl('POST', '/clock/advance', { seconds: 31 * 86_400 });
  try {
    // A soft navigation renders only the page, under the layout drawn before: the page that
    // finds out offers the way back at once, not after a reload.
    await page.getByRole('link', { name: suite.name, exact: true }).first().click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    const notice = page
      .getByRole('status')
      .filter({ hasText: 'The thermostat service connection has ended. Reconnect to continue' });
    await expect(notice.getByRole('button', { name: 'Reconnect' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reconnect' })).toHaveCount(1);

    // From now on every page says so, and offers to reconnect.
    await page.goto('/');
    const banner = page.getByRole('status').filter({ hasText: 'you will come back to this page' });
    await expect(banner).toBeVisible();
    await page.goto(path);
    await expect(banner).toBeVisible();
    // Once the banner says it, the page's own notice points to it: one button on the page.
    await expect(
      page.getByText(/reconnect it from the notice at the top of the page/),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reconnect' })).toHaveCount(1);
    await page.goto('/connection');
    await expect(page.getByRole('heading', { name: 'Needs reconnecting' })).toBeVisible();
    // The activity log has it, by Setpoint, with the reason in words (the service tier tells the
    // log, which listens from start-up).
    await page.goto('/activity?action=connection.end');
    const ended = page
      .getByRole('table', { name: 'Activity log' })
      .getByRole('row')
      .filter({ hasText: 'The thermostat service ended the connection' });
    await expect(ended.first()).toBeVisible();
    await expect(ended.first()).toContainText('Setpoint');

    // Reconnecting from the banner comes back to the page it was pressed on.
    await page.goto(path);
    await banner.getByRole('button', { name: 'Reconnect' }).click();
    await answerConsent(page, 'Accept');
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(banner).toHaveCount(0);
    await expect(page.getByRole('term').filter({ hasText: /^Temperature$/ })).toBeVisible();
  } finally {
    await sandboxControl('DELETE', '/clock');
  }
});
