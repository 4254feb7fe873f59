import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { APP_URL, SANDBOX_URL } from '../playwright.config';
import { demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';
import { sandboxControl } from './support/sandbox';

const BULK_ENDPOINT = 'PATCH /api/v2/thermostats/settings';
const PER_BUILDING = 25;

/** A service token of the demo account, without a browser (a separate grant from the app's). */
async function serviceToken(): Promise<string> {
  const redirectUri = `${APP_URL}/api/connect/callback`;
  const { code } = await sandboxControl('POST', '/authorization-code', {
    user: 'demo',
    clientId: 'setpoint-local',
    redirectUri,
    scope: 'smartWrite',
  });
  const query = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    client_id: 'setpoint-local',
  });
  const response = await fetch(`${SANDBOX_URL}/token?${query}`, { method: 'POST' });
  expect(response.ok, 'token exchange').toBe(true);
  return (await response.json()).access_token;
}

async function service(token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${SANDBOX_URL}/api/v2/thermostats${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(response.ok, `${method} ${path}`).toBe(true);
  return (await response.json()).data;
}

test('bulk configuration over 60 thermostats: progress, a result for each, retry of the failed', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInWithDemoPortfolio(page);
  const desert = await demoThermostatsIn('Desert Palms Residences');
  const cascade = await demoThermostatsIn('Cascade Commons');

  // 50 more thermostats at the service, 25 in each of this spec's buildings, added by paste.
  const token = await serviceToken();
  const created: string[] = [];
  for (const [index, building] of [desert.building, cascade.building].entries()) {
    for (let n = 1; n <= PER_BUILDING; n += 1) {
      const name = `Bulk ${String(index * PER_BUILDING + n).padStart(2, '0')}`;
      const record = await service(token, 'POST', `/${building.buildingId}/thermostats`, {
        isResidentMode: true,
        name,
      });
      created.push(record.thermostatId);
    }
  }
  await page.goto('/portfolio/add');
  await page
    .getByLabel('Thermostat ids')
    .fill(created.map((id, i) => `${id}, Bulk ${String(i + 1).padStart(2, '0')}`).join('\n'));
  await page.getByRole('button', { name: 'Add thermostats' }).click();
  await expect(page.getByText(`${created.length} added.`)).toBeVisible({ timeout: 60_000 });

  const demoIds = [...desert.thermostats, ...cascade.thermostats].map((t) => t.thermostatId);
  const offline: string[] = [];
  for (const id of demoIds) {
    const record = await sandboxControl('GET', `/thermostats/${id}`);
    if (record.connected === false) offline.push(id);
  }
  const total = demoIds.length + created.length;
  expect(total).toBeGreaterThan(60);

  // Three created thermostats fail inside the bulk request (one in each 25-request, roughly).
  const faulted = [created[3], created[30], created[47]] as string[];
  await sandboxControl('PUT', '/faults', {
    faults: faulted.map((thermostatId) => ({ endpoint: BULK_ENDPOINT, kind: 503, thermostatId })),
  });
  // Slow enough to see the run in progress.
  await sandboxControl('PUT', '/latency', { endpoints: { [BULK_ENDPOINT]: 1200 } });

  try {
    await page.goto('/bulk');
    await expect(page.getByRole('heading', { name: 'Bulk configuration' })).toBeVisible();
    await page.getByLabel(/^Select all in Desert Palms Residences/).check();
    await page.getByLabel(/^Select all in Cascade Commons/).check();
    await expect(page.getByText(`${total} selected`)).toBeVisible();

    // The filter narrows the list; picking one by one works too.
    await page.getByLabel('Filter').fill('Bulk 01');
    await expect(page.getByRole('checkbox', { name: /^Bulk 01/ })).toBeChecked();
    await page.getByRole('checkbox', { name: /^Bulk 01/ }).uncheck();
    await expect(page.getByText(`${total - 1} selected`)).toBeVisible();
    await page.getByRole('checkbox', { name: /^Bulk 01/ }).check();
    await page.getByLabel('Filter').fill('');

    await expectNoAxeViolations(page);

    // Checked before sending: a range needs both ends.
    await page.getByLabel('Heat minimum (°F)').fill('50');
    await page.getByRole('button', { name: `Apply to ${total} thermostats` }).click();
    await expect(
      page.getByText('Enter both the minimum and the maximum, or neither.'),
    ).toBeVisible();
    await page.getByLabel('Heat minimum (°F)').fill('');

    await page.getByLabel('Fan minimum on-time (minutes per hour)').fill('20');
    await page.getByRole('button', { name: `Apply to ${total} thermostats` }).click();
    await expect(page.getByRole('heading', { name: 'Applying…' })).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'Progress' })).toBeVisible();

    const failedCount = faulted.length + offline.length;
    await expect(page.getByRole('heading', { name: 'Results' })).toBeVisible({ timeout: 60_000 });
    await expect(
      page.getByText(
        `${total - failedCount} applied, ${failedCount} failed, 0 not attempted (of ${total}).`,
      ),
    ).toBeVisible();
    await expect(page.getByRole('row')).toHaveCount(total + 1);
    for (const id of faulted) {
      const row = page.getByRole('row', { name: new RegExp(id) });
      await expect(row).toContainText('Failed');
      await expect(row).toContainText('could not reach this thermostat');
    }
    await expect(page.getByRole('row', { name: new RegExp(created[0] as string) })).toContainText(
      'Applied',
    );
    await expectNoAxeViolations(page);

    // The fault clears; a retry sends only the ones that did not apply.
    await sandboxControl('DELETE', '/faults');
    await sandboxControl('DELETE', '/calls');
    await page.getByRole('button', { name: `Retry the ${failedCount} that did not apply` }).click();
    await expect(
      page.getByText(
        `${total - offline.length} applied, ${offline.length} failed, 0 not attempted (of ${total}).`,
      ),
    ).toBeVisible({ timeout: 60_000 });
    for (const id of faulted) {
      await expect(page.getByRole('row', { name: new RegExp(id) })).toContainText('Applied');
    }
    for (const id of offline) {
      await expect(page.getByRole('row', { name: new RegExp(id) })).toContainText('offline');
    }
    const { calls } = await sandboxControl('GET', '/calls');
    expect(calls[BULK_ENDPOINT]).toBe(1);
    const settings = await service(token, 'GET', `/${faulted[0]}/settings`);
    expect(settings.fanMinimumOnTime).toBe(20);

    await page.goto('/activity');
    await expect(page.getByText(/Bulk configuration \(request/).first()).toBeVisible();
  } finally {
    await sandboxControl('DELETE', '/faults');
    await sandboxControl('PUT', '/latency', { defaultMs: 0, endpoints: {} });
  }
});
