import { expect, test } from '@playwright/test';
import { SANDBOX_URL } from '../playwright.config';
import { expectNoAxeViolations } from './support/axe';
import { demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';
import { demoServiceToken, sandboxControl } from './support/sandbox';

const BULK_ENDPOINT = 'PATCH /api/v2/thermostats/settings';
const PER_BUILDING = 25;

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

/** What a finished run's heading says for this many failures (never "Done" with failures). */
const doneWith = (failures: number, applied: number) =>
  failures === 0
    ? 'Done'
    : applied === 0
      ? 'Failed'
      : `Done with ${failures} failure${failures === 1 ? '' : 's'}`;

test('bulk configuration over 60 thermostats: ask first, a job with progress, a result for each, retry of the failed', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInWithDemoPortfolio(page);
  const desert = await demoThermostatsIn('Desert Palms Residences');
  const cascade = await demoThermostatsIn('Cascade Commons');

  // 50 more thermostats at the service, 25 in each of this spec's buildings, added by paste.
  const token = await demoServiceToken();
  const created: string[] = [];
  const lines: string[] = [];
  for (const [index, building] of [desert.building, cascade.building].entries()) {
    for (let n = 1; n <= PER_BUILDING; n += 1) {
      const name = `Bulk ${String(index * PER_BUILDING + n).padStart(2, '0')}`;
      // The service answers with the new thermostat's summary: its id, not its building's name.
      const record = await service(token, 'POST', `/${building.buildingId}/thermostats`, {
        isResidentMode: true,
        name,
      });
      created.push(record.id);
      lines.push(`${record.id}, ${name}, ${building.name}`);
    }
  }
  await page.goto('/portfolio/add');
  await page.getByLabel('Thermostat ids').fill(lines.join('\n'));
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
  await sandboxControl('DELETE', '/calls');

  try {
    await page.goto('/bulk');
    await expect(page.getByRole('heading', { name: 'Bulk changes', level: 1 })).toBeVisible();
    // Nothing selected: nothing to apply.
    await expect(page.getByRole('button', { name: 'Apply to 0 thermostats…' })).toBeDisabled();
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
    const apply = page.getByRole('button', { name: `Apply to ${total} thermostats…` });
    await page.getByLabel('Heat minimum (°F)').fill('50');
    await apply.click();
    await expect(
      page.getByText('Enter both the minimum and the maximum, or neither.'),
    ).toBeVisible();
    await page.getByLabel('Heat minimum (°F)').fill('');

    // Asked first: the count and the change in words, and nothing sent before the answer.
    await page.getByLabel('Fan minimum on-time (minutes per hour)').fill('20');
    await apply.click();
    await expect(
      page.getByRole('heading', { name: `Apply to ${total} thermostats?` }),
    ).toBeVisible();
    await expect(page.getByText('Fan minimum on-time: 20 minutes per hour')).toBeVisible();
    await expect(
      page.getByText(`Desert Palms Residences: ${desert.thermostats.length + 25} thermostats`),
    ).toBeVisible();
    await expect(page.getByText('Sent in 3 requests of at most 25')).toBeVisible();
    // Said before it starts: this way has no undo, and where the way with one is.
    await expect(page.getByText(/so the run cannot be undone/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'one-off change', exact: true })).toHaveAttribute(
      'href',
      '/bulk/change',
    );
    await expectNoAxeViolations(page);
    // Going back keeps the selection and the settings.
    await page.getByRole('button', { name: 'Go back and change' }).click();
    await expect(page.getByText(`${total} selected`)).toBeVisible();
    await expect(page.getByLabel('Fan minimum on-time (minutes per hour)')).toHaveValue('20');
    expect((await sandboxControl('GET', '/calls')).calls[BULK_ENDPOINT] ?? 0).toBe(0);
    await apply.click();
    await page.getByRole('button', { name: `Apply to ${total} thermostats`, exact: true }).click();

    // The run's own page: progress while it goes on, refreshed by itself.
    await expect(page).toHaveURL(/\/bulk\/runs\/[0-9a-f-]{36}$/);
    const runUrl = page.url();
    await expect(
      page.getByRole('heading', { name: `Bulk configuration of ${total} thermostats` }),
    ).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'Progress' })).toBeVisible();
    await expect(page.getByText(/^(Queued|Running: \d+ of \d+)$/)).toBeVisible();

    const failedCount = faulted.length + offline.length;
    await expect(
      page.getByRole('heading', { name: doneWith(failedCount, total - failedCount) }),
    ).toBeVisible({ timeout: 60_000 });
    await expect(
      page.getByText(
        `${total - failedCount} done, ${failedCount} failed, 0 not sent (of ${total}).`,
      ),
    ).toBeVisible();
    await expect(page.getByRole('row')).toHaveCount(total + 1);
    for (const id of faulted) {
      const row = page.getByRole('row', { name: new RegExp(id) });
      await expect(row).toContainText('Failed');
      await expect(row).toContainText('could not reach this thermostat');
    }
    await expect(page.getByRole('row', { name: new RegExp(created[0] as string) })).toContainText(
      'Done',
    );
    // One request per 25, a few at a time; every thermostat once.
    expect((await sandboxControl('GET', '/calls')).calls[BULK_ENDPOINT]).toBe(3);
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: 'Failed or not sent' }).click();
    await expect(page.getByRole('row')).toHaveCount(failedCount + 1);

    // The fault clears; a retry, confirmed, sends only the ones that did not apply, as a new run.
    await sandboxControl('DELETE', '/faults');
    await sandboxControl('DELETE', '/calls');
    await page.getByRole('link', { name: `Retry the ${failedCount} that did not apply…` }).click();
    await expect(page.getByText(`Apply to ${failedCount} thermostats again?`)).toBeVisible();
    await page.getByRole('button', { name: `Retry ${failedCount} thermostats` }).click();
    await expect(
      page.getByRole('heading', { name: `Bulk configuration of ${failedCount} thermostats` }),
    ).toBeVisible();
    await expect(
      page.getByRole('heading', { name: doneWith(offline.length, faulted.length) }),
    ).toBeVisible({ timeout: 60_000 });
    await expect(
      page.getByText(
        `${faulted.length} done, ${offline.length} failed, 0 not sent (of ${failedCount}).`,
      ),
    ).toBeVisible();
    for (const id of faulted) {
      await expect(page.getByRole('row', { name: new RegExp(id) })).toContainText('Done');
    }
    for (const id of offline) {
      await expect(page.getByRole('row', { name: new RegExp(id) })).toContainText('offline');
    }
    const { calls } = await sandboxControl('GET', '/calls');
    expect(calls[BULK_ENDPOINT]).toBe(1);
    const settings = await service(token, 'GET', `/${faulted[0]}/settings`);
    expect(settings.fanMinimumOnTime).toBe(20);
    // The first run stays as it ended, and says where it was retried.
    await page.goto(runUrl);
    await expect(
      page.getByRole('heading', { name: doneWith(failedCount, total - failedCount) }),
    ).toBeVisible();
    await expect(
      page.getByRole('link', { name: `a run of ${failedCount} thermostats` }),
    ).toBeVisible();

    // Every member sees the runs on /bulk.
    await page.goto('/bulk');
    const runs = page.getByRole('table', { name: 'Recent bulk runs' });
    await expect(
      runs.getByRole('link', { name: doneWith(failedCount, total - failedCount) }).first(),
    ).toBeVisible();

    // The activity log: one entry per run, with its outcome, found by building and thermostat.
    await page.goto('/activity');
    const entry = page
      .getByRole('row', { name: new RegExp(`Bulk configuration of ${total} thermostats`) })
      .first();
    await expect(entry).toContainText(doneWith(failedCount, total - failedCount));
    await expect(page.getByText(/Bulk configuration \(request/)).toHaveCount(0);
    await entry.getByRole('link', { name: 'Result for each thermostat' }).click();
    await expect(page).toHaveURL(runUrl);
    await page.goto(`/activity?building=${desert.building.buildingId}`);
    await expect(page.getByRole('row', { name: /Bulk configuration of/ })).not.toHaveCount(0);
    await page.goto(`/activity?thermostat=${faulted[0]}`);
    await expect(page.getByRole('row', { name: /Bulk configuration of/ }).first()).toBeVisible();
  } finally {
    await sandboxControl('DELETE', '/faults');
    await sandboxControl('PUT', '/latency', { defaultMs: 0, endpoints: {} });
  }
});

test('without JavaScript, a bulk change is reviewed, confirmed and followed', async ({
  page: signedIn,
  browser,
}) => {
  await signInWithDemoPortfolio(signedIn);
  const { thermostats } = await demoThermostatsIn('Harbor View Apartments');
  const online: { name: string; thermostatId: string }[] = [];
  for (const t of thermostats) {
    if ((await sandboxControl('GET', `/thermostats/${t.thermostatId}`)).connected !== false) {
      online.push(t);
    }
  }
  const [first, second] = online as [(typeof online)[number], (typeof online)[number]];
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await signedIn.context().storageState(),
  });
  const page = await context.newPage();
  // Names repeat across buildings; the box's name carries the id.
  const box = (t: { thermostatId: string }) =>
    page.getByRole('checkbox', { name: new RegExp(`\\(${t.thermostatId}\\)`) });
  await sandboxControl('DELETE', '/calls');
  try {
    await page.goto('/bulk');
    await box(first).check();
    await box(second).check();
    await page.getByLabel('Fan minimum on-time (minutes per hour)').fill('60');
    await page.getByRole('button', { name: 'Review the change…' }).click();
    await expect(page.getByText('Enter whole minutes from 0 to 55.')).toBeVisible();
    await expect(box(first)).toBeChecked();

    await page.getByLabel('Fan minimum on-time (minutes per hour)').fill('35');
    await page.getByRole('button', { name: 'Review the change…' }).click();
    await expect(page.getByRole('heading', { name: 'Apply to 2 thermostats?' })).toBeVisible();
    await expect(page.getByText('Fan minimum on-time: 35 minutes per hour')).toBeVisible();
    // Back to the form and forward again, through the server: everything kept.
    await page.getByRole('button', { name: 'Go back and change' }).click();
    await expect(box(second)).toBeChecked();
    await expect(page.getByLabel('Fan minimum on-time (minutes per hour)')).toHaveValue('35');
    await page.getByRole('button', { name: 'Review the change…' }).click();
    await expect(page.getByRole('heading', { name: 'Apply to 2 thermostats?' })).toBeVisible();
    expect((await sandboxControl('GET', '/calls')).calls[BULK_ENDPOINT] ?? 0).toBe(0);
    await page.getByRole('button', { name: 'Apply to 2 thermostats', exact: true }).click();
    await expect(page).toHaveURL(/\/bulk\/runs\//);
    // Without JavaScript the page does not refresh itself; its link does (while the run goes).
    const finished = page.getByRole('heading', { name: /^(Done|Done with|Failed)/ });
    for (let i = 0; i < 40; i += 1) {
      if (await finished.isVisible()) break;
      await page.waitForTimeout(500);
      // The next look is at the page the link loads, not at the one it leaves.
      await Promise.all([
        page.waitForEvent('framenavigated'),
        page.getByRole('link', { name: 'Refresh' }).click(),
      ]);
      await page.waitForLoadState();
    }
    await expect(finished).toBeVisible();
    await expect(page.getByRole('row', { name: new RegExp(first.thermostatId) })).toContainText(
      'Done',
    );
    expect((await sandboxControl('GET', '/calls')).calls[BULK_ENDPOINT]).toBe(1);
  } finally {
    await context.close();
  }
});
