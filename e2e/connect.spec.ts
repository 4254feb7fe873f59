import { expect, test } from '@playwright/test';
import { APP_URL } from '../playwright.config';
import { signInAsManager } from './support/accounts';
import { noticeKeyOf } from './support/notice';
import { answerConsent, tokenSentinels } from './support/sandbox';

test.describe.configure({ mode: 'serial' });

test('declining at the service says so and connects nothing', async ({ page }) => {
  await signInAsManager(page);
  await page.getByRole('link', { name: 'Connection' }).click();
  await expect(page.getByRole('heading', { name: 'Service connection' })).toBeVisible();
  // Specs that ran earlier may have connected: disconnecting is part of what is tested here.
  if (await page.getByRole('heading', { name: 'Connected', exact: true }).isVisible()) {
    await page.getByText('Disconnect…').click();
    await page.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await expect(
      page.getByText('Disconnected. Setpoint no longer holds your service tokens.'),
    ).toBeVisible();
  }
  await expect(page.getByRole('heading', { name: 'Not connected' })).toBeVisible();
  await page.getByRole('button', { name: 'Connect service account' }).click();
  await answerConsent(page, 'Decline');
  await expect(page).toHaveURL(/\/connection\?.*notice=/);
  expect(noticeKeyOf(page.url())).toBe('connectionDeclined');
  await expect(page.getByText('You declined access at the thermostat service')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Not connected' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
});

test('connecting through the consent page stores a connection, and no token reaches the browser', async ({
  page,
  context,
}) => {
  const seen: string[] = [];
  page.on('response', async (response) => {
    if (!response.url().startsWith(APP_URL)) return;
    // The callback's own URL carries the code (that is how OAuth works); it must go no further.
    if (!response.url().includes('/api/connect/callback?')) seen.push(response.url());
    seen.push(JSON.stringify(await response.allHeaders()));
    const type = response.headers()['content-type'] ?? '';
    if (/html|text|javascript|json|x-component/.test(type))
      seen.push(await response.text().catch(() => ''));
  });

  await signInAsManager(page);
  await page.goto('/connection');
  await page.getByRole('button', { name: 'Connect service account' }).click();
  await answerConsent(page, 'Accept');

  await expect(page).toHaveURL(/\/connection\?notice=[\w-]+\.[\w-]+$/);
  expect(noticeKeyOf(page.url())).toBe('connected');
  await expect(
    page.getByText('Connected. Setpoint can now manage your thermostats.'),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Connected', exact: true })).toBeVisible();
  // In words; the service's own (scope, token format) behind a disclosure for a technician.
  await expect(page.getByText('Read and change thermostats')).toBeVisible();
  await expect(page.getByText('smartWrite')).toBeHidden();
  await page.getByText('As the service reports it').click();
  await expect(page.getByText('smartWrite')).toBeVisible();
  await expect(page.getByText('JWT')).toBeVisible();

  const cookies = JSON.stringify(await context.cookies());
  const everything = `${seen.join('\n')}\n${cookies}\n${await page.content()}`;
  for (const sentinel of await tokenSentinels()) expect(everything).not.toContain(sentinel);
});

test('a forged callback changes nothing and lands on a clean, uncached URL', async ({ page }) => {
  await signInAsManager(page);
  const response = await page.request.get('/api/connect/callback?code=sbx_ac_forged&state=forged', {
    maxRedirects: 0,
  });
  expect(response.status()).toBe(303);
  expect(response.headers()['cache-control']).toContain('no-store');
  expect(response.headers()['referrer-policy']).toBe('no-referrer');
  expect(response.headers().location).not.toContain('sbx_ac_forged');

  await page.goto('/api/connect/callback?code=sbx_ac_forged&state=forged');
  await expect(page.getByText('That sign-in link was not valid here')).toBeVisible();
  // The connection made by the previous test is still there.
  await expect(page.getByRole('heading', { name: 'Connected', exact: true })).toBeVisible();
});

test('an error description from the service is never rendered', async ({ page }) => {
  await signInAsManager(page);
  await page.goto(
    '/api/connect/callback?error=access_denied&error_description=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&state=x',
  );
  await expect(page).toHaveURL(/\/connection\?/);
  expect(await page.content()).not.toContain('onerror');
  await expect(page.locator('img[src="x"]')).toHaveCount(0);

  // An error the spec does not know, with 10 KB of script as its description.
  const description = `<script>window.pwned=1</script>${'A'.repeat(10_000)}`;
  const response = await page.goto(
    `/api/connect/callback?error=made_up_error&error_description=${encodeURIComponent(description)}&state=x`,
  );
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/connection\?/);
  expect(page.url()).not.toContain('AAAA');
  const html = await page.content();
  expect(html).not.toContain('pwned');
  expect(html).not.toContain('made_up_error');
  expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
});

test('starting a connection from another site is refused', async ({ page }) => {
  await signInAsManager(page);
  const response = await page.request.post('/api/connect', {
    headers: { origin: 'https://evil.example' },
    form: { returnTo: '/' },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(403);
});
