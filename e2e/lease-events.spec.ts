import { Webhook } from 'standardwebhooks';
import { expectNoAxeViolations } from './support/axe';
import { authFile, expect, test } from './support/fixtures';
import { demoThermostatsIn } from './support/portfolio';

/**
 * Lease events (issue 37) as an admin meets them: the inbox's address and secret made on the
 * Lease events page (secret shown once), a signed event for a unit Setpoint does not know yet
 * received once however often it is sent and kept waiting, then given a unit without JavaScript,
 * which records it: the unit is vacant.
 */
test('an admin makes the lease inbox; a signed event for an unknown unit waits, once, until given a unit without JavaScript', async ({
  adminPage: page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const label = `Lease ${stamp}`;
  // An empty unit of this test's own, in the building the units and API specs use.
  const { building } = await demoThermostatsIn('Front Range Offices');
  await page.goto(`/buildings/${building.buildingId}/units`);
  const add = page.getByRole('form', { name: 'Add a unit' });
  await add.getByLabel('Label').fill(label);
  await add.getByRole('button', { name: 'Add unit' }).click();
  await expect(page.getByRole('link', { name: label, exact: true })).toBeVisible();

  // 1. The inbox: its address, and its secret shown once.
  await page.goto('/connection');
  await page.getByRole('link', { name: 'Lease events' }).click();
  await expect(page.getByRole('heading', { name: 'Lease events', level: 1 })).toBeVisible();
  const again = page.getByText('Make a new address and secret…');
  if (await again.isVisible()) await again.click();
  await page.getByRole('button', { name: /^Make (a new|the) address and secret$/ }).click();
  const secretField = page.getByLabel('Signing secret (shown once)');
  await expect(secretField).toHaveValue(/^whsec_/);
  const secret = await secretField.inputValue();
  const address = await page.getByLabel('Address', { exact: true }).inputValue();
  await expectNoAxeViolations(page);

  // 2. A signed move-out for a unit no one has given that id yet: kept, once.
  const body = JSON.stringify({
    type: 'move_out',
    unit: `PMS-${stamp}`,
    occurredAt: new Date().toISOString(),
  });
  const post = async () => {
    const id = `msg_${stamp}`;
    const at = new Date();
    return fetch(new URL(new URL(address).pathname, baseURL), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(id, at, body),
      },
      body,
    });
  };
  const first = await (await post()).json();
  expect(first).toMatchObject({ outcome: 'unmatched', replayed: false });
  expect(await (await post()).json()).toMatchObject({ id: first.id, replayed: true });

  // 3. Without JavaScript, the admin gives the new unit that id: the event is recorded.
  const context = await browser.newContext({
    baseURL,
    storageState: authFile('admin'),
    javaScriptEnabled: false,
    viewport: { width: 390, height: 844 },
  });
  try {
    const plain = await context.newPage();
    await plain.goto('/lease-events');
    const map = plain.getByRole('form', { name: `Give a unit the id PMS-${stamp}` });
    await map.getByLabel(`The unit “PMS-${stamp}” is`).selectOption({ label });
    await map.getByRole('button', { name: 'Give it this id' }).click();
    await expect(plain.getByText(`${label} has the external id “PMS-${stamp}” now`)).toBeVisible();
    const latest = plain.getByRole('table', { name: 'Latest lease events' });
    const row = latest.getByRole('row').filter({ hasText: `Move-out: PMS-${stamp}` });
    await expect(row).toContainText('Recorded');
    await row.getByRole('link', { name: 'The unit' }).click();
    await expect(plain.getByRole('heading', { name: label, level: 1 })).toBeVisible();
    await expect(plain.getByRole('heading', { name: 'Vacant', level: 2 })).toBeVisible();
  } finally {
    await context.close();
  }
});
