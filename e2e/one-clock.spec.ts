import { type Browser, expect, type Page } from '@playwright/test';
import { APP_URL } from '../playwright.config';
import { signIn } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { test } from './support/fixtures';
import { acceptInvitation, invite } from './support/members';
import { demoPortfolio, signInWithDemoPortfolio } from './support/portfolio';

/**
 * Issue 35, item 4: one clock. A member reads Setpoint from a browser in Tokyo, with their own
 * zone chosen as Kiritimati (UTC+14, so their calendar is a day ahead of UTC for most of it): a
 * thermostat's own events are in its building's zone, the same moment written the same on the
 * building page, the thermostat page and Needs attention; the organisation-wide activity log is
 * in the member's zone, its date filters and CSV export too; and every time names its zone. The
 * browser's own zone is never used. A member of their own, so no other spec's owner changes zone.
 */

const MEMBER_ZONE = 'Pacific/Kiritimati';
const PASSWORD = 'the clock in the hall is slow';
/** A time as Setpoint writes it, its zone named: `Nov 28, 2026, 3:04 PM EST`. */
const MOMENT = /[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d [AP]M (?:[A-Z]{3,4}|GMT[+-]\d+|UTC)/;

/** Today's date (YYYY-MM-DD) in a zone. */
const todayIn = (zone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, dateStyle: 'short' }).format(new Date());

async function memberInTokyo(page: Page, browser: Browser) {
  await signInWithDemoPortfolio(page);
  const email = `clock-${Date.now().toString(36)}@example.com`;
  const link = await invite(page, email, 'Admin');
  const context = await browser.newContext({ baseURL: APP_URL, timezoneId: 'Asia/Tokyo' });
  const member = await context.newPage();
  await acceptInvitation(member, link, 'Kit Clock', PASSWORD);
  await signIn(member, email, PASSWORD);
  await expect(member.getByRole('heading', { name: 'Overview' })).toBeVisible();
  return { member, context };
}

test('one clock: a thermostat’s events in its building’s zone, the organisation’s in the member’s, always named', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const { member, context } = await memberInTokyo(page, browser);

  // Until they choose, the zone most of the organisation's buildings are in; never the browser's.
  await member.goto('/');
  await member.locator('summary', { hasText: 'Account menu for Kit Clock' }).click();
  await member.getByRole('link', { name: 'Your account: time zone and units' }).click();
  await expect(member.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await expect(member.getByText('You have not chosen a time zone yet')).toBeVisible();
  await expect(member.getByLabel('Your time zone')).not.toHaveValue('Asia/Tokyo');
  await expectNoAxeViolations(member);
  await member.getByLabel('Your time zone').selectOption(MEMBER_ZONE);
  await member.getByRole('button', { name: 'Save' }).click();
  await expect(
    member.getByText('Saved. Times are shown in Line Islands Time (Kiritimati)'),
  ).toBeVisible();
  await member.reload();
  await expect(member.getByLabel('Your time zone')).toHaveValue(MEMBER_ZONE);
  await expect(member.getByText('You have not chosen a time zone yet')).toHaveCount(0);

  // The demo's offline thermostat: the same moment, in its building's zone, on all three pages.
  const demo = await demoPortfolio();
  const offline = demo.thermostats.find((t) => t.name.endsWith('(offline)'));
  const building = demo.buildings.find((b) => b.buildingId === offline?.buildingId);
  if (!offline || !building) throw new Error('the demo has no offline thermostat');
  const zone = new Intl.DateTimeFormat('en-US', {
    timeZone: building.timeZone,
    timeZoneName: 'short',
  })
    .formatToParts(new Date())
    .find((part) => part.type === 'timeZoneName')?.value as string;

  await member.goto(`/thermostats/${offline.thermostatId}`);
  const details = member.getByText(/^Offline since/);
  await expect(details).toContainText(MOMENT, { timeout: 30_000 });
  // "Offline since at least ...": the demo's offline thermostat was never seen connected.
  const phrase = ((await details.textContent()) ?? '').replace(/\s+/g, ' ').trim();
  expect(phrase).toMatch(/^Offline since at least /);
  expect(phrase.endsWith(` ${zone}`), `${phrase} is in ${building.timeZone}`).toBe(true);

  // The same words, the same moment, on the building page and on Needs attention.
  await member.goto(`/buildings/${building.buildingId}?q=${encodeURIComponent(offline.name)}`);
  await expect(member.getByText(phrase, { exact: true })).toBeVisible();

  // The building's export: its zone named in the header, the same moment with its offset.
  const exported = await member.request.get(`/buildings/${building.buildingId}/export`);
  const [columns, ...lines] = (await exported.text())
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\n');
  const names = columns?.split(',') ?? [];
  expect(names).toContain(`offline since (${building.timeZone})`);
  const since = lines.find((line) => line.includes(offline.thermostatId))?.split(',')[
    names.indexOf(`offline since (${building.timeZone})`)
  ];
  const offset = new Intl.DateTimeFormat('en-US', {
    timeZone: building.timeZone,
    timeZoneName: 'longOffset',
  })
    .formatToParts(new Date(since ?? 0))
    .find((part) => part.type === 'timeZoneName')
    ?.value.replace('GMT', '');
  expect(since).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
  expect(since?.endsWith(offset ?? '?')).toBe(true);

  await member.goto('/attention?kind=offline');
  const item = member.getByRole('listitem').filter({ hasText: offline.name });
  await expect(item.getByText(phrase, { exact: true })).toBeVisible();

  // The activity log: the member's zone, named in the filters and in every time.
  await member.goto('/activity');
  const memberZone = 'Kiritimati Time';
  await expect(member.getByLabel(`From (${memberZone})`)).toBeVisible();
  await expect(member.getByLabel(`To (${memberZone})`)).toBeVisible();
  await expect(member.getByText('Dates and times are in your time zone')).toBeVisible();
  await expect(member.getByText(/\(UTC\)/)).toHaveCount(0);
  const when = member.getByRole('table', { name: 'Activity log' }).locator('time').first();
  await expect(when).toHaveText(/ GMT\+14$/);

  // A day of the member's calendar: their sign-in a moment ago is in "today", theirs.
  const today = todayIn(MEMBER_ZONE);
  await member.getByLabel(`From (${memberZone})`).fill(today);
  await member.getByLabel(`To (${memberZone})`).fill(today);
  await member.getByLabel('Person').selectOption({ label: 'Kit Clock' });
  await member.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(member).toHaveURL(new RegExp(`from=${today}`));
  const rows = member.getByRole('table', { name: 'Activity log' }).getByRole('row');
  await expect(rows.filter({ hasText: 'Kit Clock' }).first()).toBeVisible();

  // The export: the member's zone in the header, each time with its offset.
  const csv = await member.request.get(`/activity/export?from=${today}&to=${today}`);
  const [header, first] = (await csv.text()).replace(/^\uFEFF/, '').split('\n');
  expect(header?.split(',')[0]).toBe(`time (${MEMBER_ZONE})`);
  expect(first).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+14:00,/);

  // A reversed range says so, and offers to swap it.
  await member.goto('/activity?from=2026-11-20&to=2026-11-10');
  await expect(
    member.getByText('“From” (2026-11-20) is after “To” (2026-11-10), so no entry can match.'),
  ).toBeVisible();
  await member.getByRole('link', { name: 'Swap the dates' }).click();
  await expect(member).toHaveURL(/from=2026-11-10&to=2026-11-20/);
  await expect(member.getByText(/is after “To”/)).toHaveCount(0);

  // Without JavaScript the account form works the same: one post, the answer on the page.
  const plain = await browser.newContext({
    baseURL: APP_URL,
    timezoneId: 'Asia/Tokyo',
    javaScriptEnabled: false,
    storageState: await context.storageState(),
  });
  const noScript = await plain.newPage();
  await noScript.goto('/account');
  await noScript.getByLabel('Your time zone').selectOption('America/Denver');
  await noScript.getByLabel('Temperatures in').selectOption('C');
  await noScript.getByRole('button', { name: 'Save' }).click();
  await expect(
    noScript.getByText('Saved. Times are shown in Mountain Time (Denver)'),
  ).toBeVisible();
  await noScript.goto('/activity');
  await expect(
    noScript.getByText(/Dates and times are in your time zone, Mountain Time/),
  ).toBeVisible();
  await plain.close();
  await context.close();
});
