import { decodeJwt } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import { optionsFromEnv } from '../../sandbox/src/config';
import { type Portfolio, type SandboxClient, THERMOSTATS, withSandbox } from './helpers';

const running = withSandbox();
let client: SandboxClient;
let token: string;
let ids: string[];

beforeEach(async () => {
  client = running.client;
  await client.reset();
  token = (await client.login()).access_token;
  ids = (await client.portfolio()).thermostats.map((thermostat) => thermostat.thermostatId);
});

const status = (id = ids[0], bearer = token) =>
  client.request('GET', `${THERMOSTATS}/${id}/status`, { token: bearer });

/** Reads every status of a portfolio, a few at a time, and counts the offline ones. */
async function countOffline(portfolio: Portfolio, bearer: string): Promise<number> {
  const queue = portfolio.thermostats.map((thermostat) => thermostat.thermostatId);
  let offline = 0;
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const reply = await status(id, bearer);
      expect(reply.status, id).toBe(200);
      if (!reply.body.data.isConnected) offline++;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return offline;
}

function expectWellFormedIds(portfolio: Portfolio) {
  for (const building of portfolio.buildings) expect(building.buildingId).toMatch(/^[0-9a-f]{24}$/);
  for (const thermostat of portfolio.thermostats) {
    expect(thermostat.thermostatId).toMatch(/^\d{12}$/);
  }
  const unique = new Set(portfolio.thermostats.map((thermostat) => thermostat.thermostatId));
  expect(unique.size).toBe(portfolio.thermostats.length);
}

describe('reset and fixtures', () => {
  it('reset restores the fixture and forgets tokens and changes', async () => {
    await client.request('PATCH', `${THERMOSTATS}/${ids[0]}/settings`, {
      token,
      body: { fanMinimumOnTime: 42 },
    });
    await client.reset();
    expect((await status()).status).toBe(401);
    const fresh = (await client.login()).access_token;
    const record = await client.request('GET', `${THERMOSTATS}/${ids[0]}/settings`, {
      token: fresh,
    });
    expect(record.body.data.fanMinimumOnTime).not.toBe(42);
  });

  it('the demo portfolio: several buildings in different zones, dozens of thermostats, one offline', async () => {
    const portfolio = await client.portfolio();
    expect(portfolio.buildings.length).toBeGreaterThanOrEqual(4);
    expect(new Set(portfolio.buildings.map((building) => building.timeZone)).size).toBe(
      portfolio.buildings.length,
    );
    expect(portfolio.thermostats.length).toBeGreaterThanOrEqual(30);
    expectWellFormedIds(portfolio);
    expect(await countOffline(portfolio, token)).toBe(1);
    const other = await client.portfolio('other');
    expect(other.thermostats.length).toBeGreaterThan(0);
    const mine = new Set(portfolio.thermostats.map((thermostat) => thermostat.thermostatId));
    expect(other.thermostats.some((thermostat) => mine.has(thermostat.thermostatId))).toBe(false);
  });

  it('the demo’s maintenance looks like a real week from its clock: one overdue, three due this week', async () => {
    const now = Date.parse((await client.control('GET', '/clock')).body.now);
    const today = new Date(Math.floor(now / 86_400_000) * 86_400_000);
    const days = (date: string) =>
      Math.round((Date.parse(`${date}T00:00:00Z`) - today.getTime()) / 86_400_000);
    const due: number[] = [];
    for (const id of ids) {
      const reply = await client.request('GET', `${THERMOSTATS}/${id}/alertSettings`, { token });
      const reminder = reply.body.data.hvacMaintenanceReminder;
      if (reminder.enabled) due.push(days(reminder.nextReminderDate));
    }
    expect(due.length).toBeGreaterThan(5);
    const overdue = due.filter((d) => d < 0);
    expect(overdue).toHaveLength(1);
    expect(overdue[0]).toBeGreaterThanOrEqual(-25);
    expect(overdue[0]).toBeLessThanOrEqual(-21);
    expect(due.filter((d) => d >= 0 && d <= 7)).toHaveLength(3);
    // Nothing years off: every date within the coming months.
    expect(Math.max(...due)).toBeLessThan(200);
  });

  it('ids are stable across resets', async () => {
    const before = await client.portfolio();
    await client.reset();
    expect((await client.portfolio()).thermostats).toEqual(before.thermostats);
  });

  it('the large fixture holds hundreds of thermostats', async () => {
    await client.reset('large');
    const portfolio = await client.portfolio();
    expect(portfolio.thermostats.length).toBeGreaterThanOrEqual(400);
    const largeToken = (await client.login()).access_token;
    const reply = await status(portfolio.thermostats[100]?.thermostatId, largeToken);
    expect(reply.status).toBe(200);
    expect(largeToken.length).toBeLessThan(8000);
  });

  it('an unknown fixture is refused', async () => {
    const reply = await client.control('POST', '/reset', { fixture: 'huge' });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain('fleet');
  });
});

describe('the fleet fixture', () => {
  const US_AND_CANADA = /^(America\/[A-Za-z_]+|Pacific\/Honolulu)$/;

  it('1,500 thermostats in 30 buildings across US and Canadian zones; Tower A has 200', async () => {
    const reset = await client.control('POST', '/reset', { fixture: 'fleet' });
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ reset: true, fixture: 'fleet', thermostats: 1503 });
    const portfolio = await client.portfolio('demo');
    expect(portfolio.buildings).toHaveLength(30);
    expect(portfolio.thermostats).toHaveLength(1500);
    expectWellFormedIds(portfolio);
    const zones = new Set(portfolio.buildings.map((building) => building.timeZone));
    expect(zones.size).toBeGreaterThanOrEqual(8);
    for (const zone of zones) expect(zone).toMatch(US_AND_CANADA);
    const names = portfolio.buildings.map((building) => building.name);
    expect(new Set(names).size).toBe(30);
    for (const name of names) expect(name.length).toBeLessThanOrEqual(32);
    const towers = portfolio.buildings.filter((building) => building.name === 'Portfolio Tower A');
    expect(towers).toHaveLength(1);
    const inTower = portfolio.thermostats.filter(
      (thermostat) => thermostat.buildingId === towers[0]?.buildingId,
    );
    expect(inTower).toHaveLength(200);
    for (const building of portfolio.buildings) {
      expect(
        portfolio.thermostats.some((thermostat) => thermostat.buildingId === building.buildingId),
        building.name,
      ).toBe(true);
    }
  });

  it('every status reads (a few offline); the other account is unchanged', async () => {
    const otherBefore = await client.portfolio('other');
    await client.reset('fleet');
    const fleetToken = (await client.login()).access_token;
    const portfolio = await client.portfolio('demo');
    const offline = await countOffline(portfolio, fleetToken);
    expect(offline).toBeGreaterThanOrEqual(3);
    expect(offline).toBeLessThanOrEqual(10);
    expect(await client.portfolio('other')).toEqual(otherBefore);
    const claims = decodeJwt(fleetToken);
    expect(claims.buildings).toHaveLength(30);
    expect(fleetToken.length).toBeLessThan(8000);
  });

  it('ids and names are the same after every reset', async () => {
    await client.reset('fleet');
    const first = await client.portfolio('demo');
    await client.reset('demo');
    await client.reset('fleet');
    expect(await client.portfolio('demo')).toEqual(first);
  });

  it('SANDBOX_FIXTURE=fleet selects it at start-up', async () => {
    expect(optionsFromEnv({ SANDBOX_FIXTURE: 'fleet' }).fixture).toBe('fleet');
    expect(optionsFromEnv({ SANDBOX_FIXTURE: '' }).fixture).toBeUndefined();
    expect(() => optionsFromEnv({ SANDBOX_FIXTURE: 'huge' })).toThrow(/fleet/);
  });
});
