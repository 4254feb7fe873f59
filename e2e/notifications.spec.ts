import type { Page } from '@playwright/test';
import { startWebhookReceiver } from '../tests/support/webhook-receiver';
import { TEAM } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { authFile, expect, test } from './support/fixtures';

/**
 * The notifications page on the shared stack (email is off there): a member's own email choices,
 * the owner's rules and webhooks (a signing secret shown once; a signed test that the unit tests'
 * receiver, started here, verifies with the Standard Webhooks package), the delivery log; what a
 * building manager and a viewer are offered; and the forms without JavaScript.
 */

test('the owner sets their email, the rules and a webhook, and a signed test reaches it', async ({
  ownerPage: page,
}) => {
  const receiver = await startWebhookReceiver();
  try {
    await page.goto('/notifications');
    await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
    await expect(page.getByText(/Email is not set up on this Setpoint/)).toBeVisible();
    await expectNoAxeViolations(page);

    // Their own email: a daily digest with quiet hours.
    const mine = page.getByRole('form', { name: 'Your email notifications' });
    await mine.getByRole('radio', { name: 'In a daily digest' }).check();
    await mine.getByLabel('Quiet hours from').fill('22:00');
    await mine.getByLabel('Quiet hours until').fill('07:00');
    await mine.getByRole('button', { name: 'Save my notifications' }).click();
    await expect(mine.getByText(/Saved\. You are emailed a daily digest/)).toBeVisible();
    // One end of quiet hours alone is refused, under its field.
    await mine.getByLabel('Quiet hours until').fill('');
    await mine.getByRole('button', { name: 'Save my notifications' }).click();
    await expect(mine.getByText('Give both ends of quiet hours, or neither.')).toBeVisible();

    // Email is off here: the owner is told which setting turns it on, and no test email is
    // offered that could only fail.
    await expect(page.getByText(/sets it up with the SMTP_URL setting/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send me a test email' })).toHaveCount(0);

    // The rules: offline after 45 minutes.
    const rules = page.getByRole('form', { name: 'Notification rules' });
    await rules.getByLabel('Tell after (minutes) of Offline').fill('45');
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await expect(rules.getByText(/Rules saved/)).toBeVisible();

    // A webhook: its secret is shown once; a signed test reaches the receiver, which verifies it.
    const add = page.getByRole('form', { name: 'Add a webhook' });
    await add.getByLabel('Endpoint address').fill(receiver.url);
    await add.getByLabel('Description').fill('Work orders');
    await add.getByRole('button', { name: 'Add webhook' }).click();
    const secretField = page.getByLabel('Signing secret (shown once)');
    await expect(secretField).toHaveValue(/^whsec_/);
    receiver.setSecret(await secretField.inputValue());
    // Shown by its origin only: a hook's path can carry its token.
    const where = `${new URL(receiver.url).origin}/…`;
    await expect(page.getByText(receiver.url)).toHaveCount(0);
    await page.getByRole('button', { name: `Send a test to ${where}` }).click();
    await expect(page.getByText('The endpoint accepted the signed test request.')).toBeVisible();
    // The receiver verified its signature (it answers 400 to one that does not verify).
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({ status: 204, refusal: null });
    expect(JSON.parse(receiver.received[0]?.body ?? '{}')).toMatchObject({ type: 'test' });

    // Never shown again, and logged.
    await page.reload();
    await expect(page.getByLabel('Signing secret (shown once)')).toHaveCount(0);
    const log = page.getByRole('table', { name: 'Delivery log' });
    await expect(log.getByRole('row', { name: /Test message/ }).first()).toContainText('Sent');
    await expectNoAxeViolations(page);

    // Asked first: what removing does, and the one button that does it.
    await page.getByText(`Remove ${where}…`).click();
    await expect(page.getByText('its lines of the delivery log go with it')).toBeVisible();
    await page.getByRole('button', { name: `Remove ${where}` }).click();
    await expect(page.getByText(`Removed the webhook to ${where}.`)).toBeVisible();
  } finally {
    await receiver.close();
  }
});

test('a building manager is offered only their buildings; a viewer their own email, no rules or webhooks', async ({
  buildingManagerPage,
  viewerPage,
}) => {
  await buildingManagerPage.goto('/notifications');
  const mine = buildingManagerPage.getByRole('form', { name: 'Your email notifications' });
  const buildings = mine.getByRole('group', { name: 'Which buildings' }).getByRole('checkbox');
  await expect(buildings).toHaveCount(1);
  await expect(mine.getByText(TEAM.buildingManager.building)).toBeVisible();
  await expect(buildingManagerPage.getByRole('heading', { name: 'Rules' })).toHaveCount(0);

  await viewerPage.goto('/notifications');
  await expect(viewerPage.getByRole('heading', { name: 'Your email' })).toBeVisible();
  await expect(viewerPage.getByRole('heading', { name: 'Webhooks' })).toHaveCount(0);
  await expect(viewerPage.getByRole('heading', { name: 'Your notices' })).toBeVisible();
  await viewerPage
    .getByRole('form', { name: 'Your email notifications' })
    .getByRole('radio', { name: 'As incidents open and clear' })
    .check();
  await viewerPage.getByRole('button', { name: 'Save my notifications' }).click();
  await expect(
    viewerPage.getByText(/Saved\. You are emailed as incidents open and clear/),
  ).toBeVisible();
});

test('the email form works without JavaScript', async ({ browser, baseURL }) => {
  const context = await browser.newContext({
    baseURL,
    storageState: authFile('admin'),
    javaScriptEnabled: false,
  });
  try {
    const page = await context.newPage();
    await page.goto('/notifications');
    const mine = page.getByRole('form', { name: 'Your email notifications' });
    await mine.getByRole('radio', { name: 'As incidents open and clear' }).check();
    await mine.getByRole('button', { name: 'Save my notifications' }).click();
    await expect(
      page.getByText(/Saved\. You are emailed as incidents open and clear/),
    ).toBeVisible();
  } finally {
    await context.close();
  }
});

test('the page puts the member’s own email first, then rules and webhooks, then incidents ten a page', async ({
  ownerPage,
  viewerPage,
}) => {
  const sections = async (page: Page) =>
    (await page.getByRole('heading', { level: 2 }).allTextContents()).filter((title) =>
      ['Your email', 'Rules', 'Webhooks', 'Incidents', 'Delivery log', 'Your notices'].includes(
        title,
      ),
    );
  await ownerPage.goto('/notifications');
  expect(await sections(ownerPage)).toEqual([
    'Your email',
    'Rules',
    'Webhooks',
    'Incidents',
    'Delivery log',
  ]);
  // A way to each section from the top, for a long page on a phone.
  const onThisPage = ownerPage.getByRole('navigation', { name: 'On this page' });
  await expect(onThisPage.getByRole('link', { name: 'Incidents' })).toHaveAttribute(
    'href',
    '#incidents',
  );
  // Never more than a page of incidents at once.
  const listed = ownerPage.getByRole('list', { name: 'Incidents' }).getByRole('listitem');
  expect(await listed.count()).toBeLessThanOrEqual(10);

  await viewerPage.setViewportSize({ width: 390, height: 844 });
  await viewerPage.goto('/notifications');
  expect(await sections(viewerPage)).toEqual(['Your email', 'Incidents', 'Your notices']);
  await expectNoAxeViolations(viewerPage);
});

test('incidents are filtered by kind and building in the address, without JavaScript too', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({
    baseURL,
    storageState: authFile('admin'),
    javaScriptEnabled: false,
  });
  try {
    const page = await context.newPage();
    // A filtered view as a link or a bookmark gives it: the form shows what it narrows to.
    await page.goto('/notifications?kind=offline&page=7');
    const filters = page.getByRole('form', { name: 'Filter incidents' });
    await expect(filters.getByLabel('Kind')).toHaveValue('offline');
    await filters.getByLabel('Kind').selectOption({ label: 'Freeze risk' });
    await filters.getByRole('button', { name: 'Filter' }).click();
    // The view in the address (a fresh filter starts at its first page), at the incidents.
    await expect(page).toHaveURL(/\/notifications\?kind=freeze(&building=)?#incidents$/);
    await expect(
      page.getByRole('form', { name: 'Filter incidents' }).getByLabel('Kind'),
    ).toHaveValue('freeze');
    // Anything that is not a kind is ignored, not an error page.
    await page.goto('/notifications?kind=nonsense&building=nowhere&page=x');
    await expect(page.getByRole('heading', { name: 'Incidents', level: 2 })).toBeVisible();
    await page.goto('/notifications?kind=freeze');
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(/\/notifications#incidents$/);
  } finally {
    await context.close();
  }
});

test('the delivery log says why a notice failed in words, the system code kept for a technician', async ({
  ownerPage: page,
}) => {
  // Nothing listens on port 1 of this machine (allowed here: the suite allows private hosts),
  // so the request is refused at once, with the system's code for it.
  const url = 'https://127.0.0.1:1/hook';
  const where = 'https://127.0.0.1:1/…';
  await page.goto('/notifications');
  const add = page.getByRole('form', { name: 'Add a webhook' });
  await add.getByLabel('Endpoint address').fill(url);
  await add.getByRole('button', { name: 'Add webhook' }).click();
  await expect(page.getByLabel('Signing secret (shown once)')).toHaveValue(/^whsec_/);
  await page.getByRole('button', { name: `Send a test to ${where}` }).click();
  const answer = page.getByText(/^The endpoint did not accept the test request\./);
  await expect(answer).toContainText('nothing answered at that address');
  await expect(answer).not.toContainText(/E[A-Z_]{3,}/);

  await page.reload();
  const log = page.getByRole('table', { name: 'Delivery log' });
  const row = log
    .getByRole('row')
    .filter({ hasText: where.replace('/…', '') })
    .first();
  await expect(
    row.getByText(/^Failed: Could not reach the endpoint: nothing answered at that address\.$/),
  ).toBeVisible();
  // The code is there for a technician, folded away until asked for.
  const code = row.getByText('ECONNREFUSED');
  await expect(code).toBeHidden();
  await row.getByText('Technical detail').click();
  await expect(code).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByText(`Remove ${where}…`).click();
  await page.getByRole('button', { name: `Remove ${where}` }).click();
  await expect(page.getByText(`Removed the webhook to ${where}.`)).toBeVisible();
});
