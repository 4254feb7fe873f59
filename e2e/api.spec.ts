import { readFileSync } from 'node:fs';
import { APP_URL, SANDBOX_URL } from '../playwright.config';
import { expectNoAxeViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';
import { demoServiceToken } from './support/sandbox';

/**
 * Setpoint's API (issue 37) as a company's developer meets it: an owner makes a key on the API
 * keys page (shown once), the walk-through of docs/api.md runs as written (its curl commands,
 * read from the file), the move-out's turnover is followed to `matches`, the key's last use is
 * shown, and a revoked key is refused.
 */

/** The curl commands of docs/api.md, in order: method, address, headers and body. */
function walkThrough(): {
  method: string;
  url: string;
  headers: [string, string][];
  body?: string;
}[] {
  const text = readFileSync('docs/api.md', 'utf8');
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) =>
    (match[1] ?? '').replace(/\\\n\s*/g, ' ').trim(),
  );
  return blocks.map((command) => {
    const tokens = [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map(
      (match) => match[1] ?? match[2] ?? match[3] ?? '',
    );
    const step = {
      method: 'GET',
      url: '',
      headers: [] as [string, string][],
      body: undefined as string | undefined,
    };
    for (let index = 1; index < tokens.length; index += 1) {
      const token = tokens[index] ?? '';
      if (token === '-s') continue;
      if (token === '-X') step.method = tokens[++index] ?? '';
      else if (token === '-H') {
        const header = tokens[++index] ?? '';
        const colon = header.indexOf(':');
        step.headers.push([header.slice(0, colon).trim(), header.slice(colon + 1).trim()]);
      } else if (token === '-d') step.body = tokens[++index];
      else step.url = token;
    }
    return step;
  });
}

test('an owner makes a key, the walk-through of docs/api.md runs as written, and a revoked key is refused', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInWithDemoPortfolio(page);
  // A unit of this test's own, with the property-management system's id for it.
  // Front Range Offices: where the units spec makes thermostats too (others count theirs).
  const { building } = await demoThermostatsIn('Front Range Offices');
  const stamp = Date.now().toString(36);
  const label = `API ${stamp}`;
  const created = await fetch(
    `${SANDBOX_URL}/api/v2/thermostats/${building.buildingId}/thermostats`,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await demoServiceToken()}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ isResidentMode: true, name: label }),
    },
  );
  const thermostatId = (await created.json()).data.id as string;
  await page.goto('/portfolio/add');
  await page.getByLabel('Thermostat ids').fill(`${thermostatId}, ${label}, ${building.buildingId}`);
  await page.getByRole('button', { name: 'Add thermostats' }).click();
  await expect(page.getByText('1 added.')).toBeVisible({ timeout: 60_000 });
  await page.goto(`/buildings/${building.buildingId}/units`);
  await page.getByRole('link', { name: label, exact: true }).click();
  const edit = page.getByRole('form', { name: `Label and external id of ${label}` });
  await edit.getByLabel('External id').fill(`PMS-${stamp}`);
  await edit.getByRole('button', { name: 'Save unit' }).click();
  await expect(edit.getByLabel('External id')).toHaveValue(`PMS-${stamp}`);

  // 1. Make a key, from the Connection page.
  await page.goto('/connection');
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  const form = page.getByRole('form', { name: 'Make an API key' });
  await form.getByLabel('Name').fill(`Walk-through ${stamp}`);
  await form.getByLabel('Record units’ occupancy (move-outs, move-ins, notice)').check();
  await form.getByRole('button', { name: 'Make key' }).click();
  const shown = page.getByLabel('API key (shown once)');
  await expect(shown).toHaveValue(/^spk_/);
  const key = await shown.inputValue();
  await expectNoAxeViolations(page);

  // 2-4. The walk-through's commands as docs/api.md has them.
  const steps = walkThrough();
  expect(steps).toHaveLength(3);
  let unitId = '';
  let runId = '';
  const send = async (step: (typeof steps)[number], url: string) => {
    const headers = Object.fromEntries(
      step.headers.map(([name, value]) => [name, value.replace('$SETPOINT_KEY', key)]),
    );
    const filled = url
      .replace('http://localhost:3000', APP_URL)
      .replace('$UNIT_ID', unitId)
      .replace('$RUN_ID', runId);
    return fetch(filled, {
      method: step.method,
      headers,
      body: step.body,
    });
  };
  const [list, moveOut, follow] = steps as [
    (typeof steps)[0],
    (typeof steps)[0],
    (typeof steps)[0],
  ];
  const listed = await send(list, list.url);
  expect(listed.status).toBe(200);
  expect(Number(listed.headers.get('ratelimit-remaining'))).toBeGreaterThan(0);
  const page1 = await listed.json();
  expect(page1.data.length).toBeLessThanOrEqual(2);
  // The system finds its unit by its own id, with the list's filter.
  const found = await send(list, `http://localhost:3000/api/v1/units?externalId=PMS-${stamp}`);
  const unit = (await found.json()).data[0];
  expect(unit).toMatchObject({ label, externalId: `PMS-${stamp}`, state: 'occupied' });
  unitId = unit.id;
  const first = await send(moveOut, moveOut.url);
  expect(first.status).toBe(202);
  const answer = await first.json();
  expect(answer).toMatchObject({ changed: true, unit: { state: 'vacant' } });
  const again = await send(moveOut, moveOut.url);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(await again.json()).toEqual(answer);
  runId = answer.run.id;
  await expect(async () => {
    const run = await (await send(follow, follow.url)).json();
    expect(run).toMatchObject({ id: runId, finished: true, counts: { total: 1, applied: 1 } });
    expect(run.items).toEqual([expect.objectContaining({ thermostatId, outcome: 'applied' })]);
  }).toPass({ timeout: 60_000 });
  await expect(async () => {
    const read = await send(list, `http://localhost:3000/api/v1/units/${unitId}`);
    expect((await read.json()).settings.status).toBe('matches');
  }).toPass({ timeout: 60_000 });

  // The key shows its last use; revoked (confirmed first), it is refused.
  await page.reload();
  const row = page.getByRole('row').filter({ hasText: `Walk-through ${stamp}` });
  await expect(row).not.toContainText('Never');
  await row.getByRole('link', { name: 'Revoke…' }).click();
  await page.getByRole('button', { name: 'Revoke the key' }).click();
  await expect(page.getByRole('row').filter({ hasText: `Walk-through ${stamp}` })).toContainText(
    'Revoked',
  );
  expect((await send(list, list.url)).status).toBe(401);

  // The reference page draws the same document the API serves.
  await page.goto('/api-reference');
  await expect(page.getByRole('heading', { name: 'Record what happened to a unit' })).toBeVisible();
  await expect(page.getByText('POST /api/v1/units/{unitId}/events')).toBeVisible();
});
