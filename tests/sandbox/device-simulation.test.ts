import { beforeEach, describe, expect, it } from 'vitest';
import {
  type Portfolio,
  RUNNING_EQUIPMENT_KEYS,
  runningOf,
  type SandboxClient,
  STATUS_KEYS,
  THERMOSTATS,
  withSandbox,
} from './helpers';

/**
 * `PATCH /_sandbox/thermostats[/{id}]` and the status it drives: the control API's simulation
 * view (equipmentStatus, lastSeen, ...) and the service API's production status record
 * (runningEquipment, isConnected).
 */

interface DeviceRecord {
  thermostatId: string;
  name: string;
  buildingId: string;
  hvacMode: string;
  supportedModes: string[];
  temperature: number;
  humidity: number;
  setPoint: { desiredHeat: number; desiredCool: number };
  currentComfortSettingRef: string;
  equipmentStatus: string;
  connected: boolean;
  lastSeen: string;
  accountId: string;
  runningEquipment: Record<string, boolean>;
  isConnected: boolean;
}

const running = withSandbox();
let client: SandboxClient;
let token: string;
let portfolio: Portfolio;

beforeEach(async () => {
  client = running.client;
  await client.reset();
  token = (await client.login()).access_token;
  portfolio = await client.portfolio();
  // A fixed Monday afternoon, so each thermostat's current comfort setting stays put; mode
  // changes show at once.
  await client.setClock('2020-11-16T15:01:00Z');
  await client.control('PATCH', '/knobs', { modeChangeDelayMs: 0 });
});

const record = async (id: string) =>
  (await client.control('GET', `/thermostats/${id}`)).body as DeviceRecord;
const simulate = (id: string, change: Record<string, unknown>) =>
  client.control('PATCH', `/thermostats/${id}`, change);
const statusOf = async (id: string) =>
  (await client.request('GET', `${THERMOSTATS}/${id}/status`, { token })).body.data;
/**
 * The equipment a device reports after a simulated change (control API's `equipmentStatus`),
 * checked against the `runningEquipment` of both the control record and the service's status.
 */
const equipmentAfter = async (id: string, change: Record<string, unknown>) => {
  const reply = await simulate(id, change);
  expect(reply.status, reply.text).toBe(200);
  const device = reply.body as DeviceRecord;
  const listed = device.equipmentStatus === '' ? [] : device.equipmentStatus.split(',').sort();
  expect(runningOf(device)).toEqual(listed);
  expect(runningOf(await statusOf(id))).toEqual(listed);
  return device.equipmentStatus;
};
const clockNow = async () => Date.parse((await client.control('GET', '/clock')).body.now);

/** The first online demo thermostat whose record matches. */
async function findDevice(matches: (device: DeviceRecord) => boolean): Promise<DeviceRecord> {
  for (const { thermostatId } of portfolio.thermostats) {
    const device = await record(thermostatId);
    if (device.connected && matches(device)) return device;
  }
  throw new Error('no such device in the demo fixture');
}
const heatPump = () => findDevice((device) => device.supportedModes.includes('auxHeatOnly'));
const furnace = () =>
  findDevice(
    (device) =>
      device.supportedModes.includes('cool') && !device.supportedModes.includes('auxHeatOnly'),
  );
const boiler = () => findDevice((device) => !device.supportedModes.includes('cool'));

/** Sets both fans of the thermostat's current comfort setting through the v2 API. */
async function setCurrentFans(device: DeviceRecord, fan: 'auto' | 'on') {
  const reply = await client.request(
    'PATCH',
    `${THERMOSTATS}/${device.thermostatId}/comfortSettings`,
    {
      token,
      body: { comfortSettingRef: device.currentComfortSettingRef, fanHeat: fan, fanCool: fan },
    },
  );
  expect(reply.status, reply.text).toBe(200);
}

describe('the control API keeps the simulation view', () => {
  it('GET /_sandbox/thermostats/{id}: the simulation fields and every production status field', async () => {
    const id = portfolio.thermostats[1]?.thermostatId as string;
    const device = await record(id);
    const listed = portfolio.thermostats[1];
    expect(device).toMatchObject({
      thermostatId: id,
      id,
      name: listed?.name,
      thermostatName: listed?.name,
      buildingId: listed?.buildingId,
      accountId: 'acct_demo',
      pendingHvacMode: null,
      connected: true,
      isConnected: true,
    });
    for (const field of [
      'supportedModes',
      'currentComfortSettingRef',
      'holdAction',
      'equipmentStatus',
      'lastSeen',
    ]) {
      expect(device, field).toHaveProperty(field);
    }
    expect(Date.parse(device.lastSeen)).not.toBeNaN();
    const status = await statusOf(id);
    for (const key of STATUS_KEYS) {
      expect(device, key).toHaveProperty(key);
      expect((device as unknown as Record<string, unknown>)[key], key).toEqual(status[key]);
    }
    expect(Object.keys(device.runningEquipment).sort()).toEqual(RUNNING_EQUIPMENT_KEYS);
    const changed = await simulate(id, { temperature: 70 });
    expect(changed.body).toMatchObject({
      thermostatId: id,
      id,
      temperature: 70,
      accountId: 'acct_demo',
    });
    const bulk = await client.control('PATCH', '/thermostats', {
      thermostatIds: [id],
      humidity: 30,
    });
    expect(bulk.body.thermostats[0]).toMatchObject({
      thermostatId: id,
      humidity: 30,
      connected: true,
      lastSeen: expect.any(String),
    });
  });
});

describe('equipmentStatus and runningEquipment', () => {
  it('a heat pump: heatPump, auxHeat1 assisting when far below, auxHeat alone in auxHeatOnly', async () => {
    const device = await heatPump();
    await setCurrentFans(device, 'auto');
    const { desiredHeat: heat, desiredCool: cool } = device.setPoint;
    const id = device.thermostatId;
    expect(await equipmentAfter(id, { hvacMode: 'heat', temperature: heat - 1 })).toBe(
      'heatPump,fan',
    );
    expect(await equipmentAfter(id, { temperature: heat - 4 })).toBe('heatPump,auxHeat1,fan');
    expect(await equipmentAfter(id, { temperature: heat - 0.5 })).toBe('');
    expect(await equipmentAfter(id, { hvacMode: 'auxHeatOnly', temperature: heat - 1 })).toBe(
      'auxHeat1,fan',
    );
    expect(await equipmentAfter(id, { temperature: heat - 4 })).toBe('auxHeat1,auxHeat2,fan');
    expect(await equipmentAfter(id, { hvacMode: 'cool', temperature: cool + 1 })).toBe(
      'compCool1,fan',
    );
    expect(await equipmentAfter(id, { temperature: cool + 4 })).toBe('compCool1,compCool2,fan');
    expect(await equipmentAfter(id, { temperature: cool })).toBe('');
    expect(await equipmentAfter(id, { hvacMode: 'auto', temperature: heat - 1 })).toBe(
      'heatPump,fan',
    );
    expect(await equipmentAfter(id, { temperature: cool + 1 })).toBe('compCool1,fan');
    expect(await equipmentAfter(id, { temperature: (heat + cool) / 2 })).toBe('');
    expect(await equipmentAfter(id, { hvacMode: 'off', temperature: heat - 10 })).toBe('');
  });

  it('a furnace reports its heat stages as auxHeat1/auxHeat2; a boiler runs without a fan', async () => {
    const air = await furnace();
    await setCurrentFans(air, 'auto');
    const { desiredHeat: heat, desiredCool: cool } = air.setPoint;
    const id = air.thermostatId;
    expect(await equipmentAfter(id, { hvacMode: 'heat', temperature: heat - 1 })).toBe(
      'auxHeat1,fan',
    );
    expect(await equipmentAfter(id, { temperature: heat - 5 })).toBe('auxHeat1,auxHeat2,fan');
    expect(await equipmentAfter(id, { temperature: cool + 1 })).toBe('');
    expect(await equipmentAfter(id, { hvacMode: 'cool' })).toBe('compCool1,fan');
    const hydronic = await boiler();
    const boilerHeat = hydronic.setPoint.desiredHeat;
    const boilerId = hydronic.thermostatId;
    expect(await equipmentAfter(boilerId, { hvacMode: 'heat', temperature: boilerHeat - 1 })).toBe(
      'auxHeat1',
    );
    expect(await equipmentAfter(boilerId, { temperature: boilerHeat - 5 })).toBe(
      'auxHeat1,auxHeat2',
    );
  });

  it('the fan runs alone when the current comfort setting says on; nothing runs offline', async () => {
    const device = await furnace();
    const { desiredHeat: heat } = device.setPoint;
    const id = device.thermostatId;
    await setCurrentFans(device, 'auto');
    expect(await equipmentAfter(id, { hvacMode: 'heat', temperature: heat + 1 })).toBe('');
    await setCurrentFans(device, 'on');
    expect((await record(id)).equipmentStatus).toBe('fan');
    expect(await equipmentAfter(id, { hvacMode: 'cool' })).toBe('fan');
    expect(await equipmentAfter(id, { temperature: heat - 5, connected: false })).toBe('');
    expect(await equipmentAfter(id, { hvacMode: 'off', connected: true })).toBe('');
  });
});

describe('device readings and connectivity', () => {
  it('freeze and overheat readings show in the API status and drive the equipment', async () => {
    const device = await furnace();
    const id = device.thermostatId;
    const status = () => statusOf(id);
    await simulate(id, { hvacMode: 'heat', temperature: 38.5, humidity: 22 });
    const freezing = await status();
    expect(freezing).toMatchObject({ temperature: 38.5, humidity: 22, hvacMode: 'heat' });
    expect(runningOf(freezing)).toEqual(['auxHeat1', 'auxHeat2', 'fan']);
    expect((await record(id)).equipmentStatus).toBe('auxHeat1,auxHeat2,fan');
    await simulate(id, { hvacMode: 'cool', temperature: 96.25, humidity: 71 });
    const overheating = await status();
    expect(overheating).toMatchObject({ temperature: 96.25, humidity: 71, hvacMode: 'cool' });
    expect(runningOf(overheating)).toEqual(['compCool1', 'compCool2', 'fan']);
    expect((await record(id)).equipmentStatus).toBe('compCool1,compCool2,fan');
    // The status record carries humidity as an integer percent.
    await simulate(id, { humidity: 40.6 });
    expect((await status()).humidity).toBe(41);
  });

  it('takes a thermostat offline and back; lastSeen follows the sandbox clock', async () => {
    const id = portfolio.thermostats[0]?.thermostatId as string;
    const offline = await simulate(id, { connected: false });
    const wentOffline = Date.parse(offline.body.lastSeen);
    expect(Math.abs(wentOffline - (await clockNow()))).toBeLessThan(5_000);
    expect(offline.body).toMatchObject({ connected: false, isConnected: false });
    expect((await statusOf(id)).isConnected).toBe(false);
    const write = await client.request('PATCH', `${THERMOSTATS}/${id}/residentMode`, {
      token,
      body: { isResidentMode: true },
    });
    expect(write.status).toBe(409);
    await client.advance(600);
    expect(Date.parse((await record(id)).lastSeen)).toBe(wentOffline);
    await simulate(id, { connected: true, temperature: 71.25 });
    const online = await statusOf(id);
    expect(online.isConnected).toBe(true);
    expect(online.temperature).toBe(71.25);
    const device = await record(id);
    expect(device.connected).toBe(true);
    const sinceCheckIn = (await clockNow()) - Date.parse(device.lastSeen);
    expect(sinceCheckIn).toBeGreaterThanOrEqual(0);
    expect(sinceCheckIn).toBeLessThan(185_000);
  });

  it('checks every field first: a bad request changes nothing', async () => {
    const device = await boiler();
    const id = device.thermostatId;
    const refused: Array<Record<string, unknown>> = [
      {},
      { colour: 'red' },
      { temperature: 'hot' },
      { temperature: 141 },
      { temperature: -41 },
      { humidity: -1 },
      { humidity: 101 },
      { connected: 'no' },
      { hvacMode: 'turbo' },
      { hvacMode: 'cool' },
      { temperature: 50, humidity: 150 },
      { temperature: 50, hvacMode: 'cool' },
    ];
    for (const change of refused) {
      const reply = await simulate(id, change);
      expect(reply.status, JSON.stringify(change)).toBe(400);
      expect(reply.body).toMatchObject({ status: 'error', code: 'bad_request' });
    }
    expect((await record(id)).temperature).toBe(device.temperature);
    expect((await simulate('999999999999', { temperature: 70 })).status).toBe(404);
  });
});

describe('bulk: PATCH /_sandbox/thermostats', () => {
  it('changes the listed devices, or a whole building, in one request', async () => {
    const ids = portfolio.thermostats.slice(0, 3).map((thermostat) => thermostat.thermostatId);
    const listed = await client.control('PATCH', '/thermostats', {
      thermostatIds: ids,
      temperature: 45,
      connected: false,
    });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.updated).toBe(3);
    for (const id of ids) {
      expect(await statusOf(id)).toMatchObject({ temperature: 45, isConnected: false });
    }
    const buildingId = portfolio.buildings[0]?.buildingId as string;
    const inBuilding = portfolio.thermostats.filter(
      (thermostat) => thermostat.buildingId === buildingId,
    );
    const building = await client.control('PATCH', '/thermostats', {
      buildingId,
      connected: false,
    });
    expect(building.body.updated).toBe(inBuilding.length);
    expect(
      building.body.thermostats.every((device: DeviceRecord) => device.connected === false),
    ).toBe(true);
    const back = await client.control('PATCH', '/thermostats', { buildingId, connected: true });
    expect(back.body.thermostats.map((device: DeviceRecord) => device.thermostatId)).toEqual(
      inBuilding.map((thermostat) => thermostat.thermostatId),
    );
    expect(back.body.thermostats.every((device: DeviceRecord) => device.connected)).toBe(true);
  });

  it('refuses an unclear or impossible change before touching any device', async () => {
    const [first, second] = portfolio.thermostats.map((thermostat) => thermostat.thermostatId);
    const bulk = (body: Record<string, unknown>) => client.control('PATCH', '/thermostats', body);
    const buildingId = portfolio.buildings[0]?.buildingId as string;
    expect((await bulk({ temperature: 50 })).status).toBe(400);
    expect((await bulk({ thermostatIds: [first], buildingId, temperature: 50 })).status).toBe(400);
    expect((await bulk({ thermostatIds: [], temperature: 50 })).status).toBe(400);
    expect((await bulk({ thermostatIds: ['abc'], temperature: 50 })).status).toBe(400);
    expect((await bulk({ thermostatIds: [first] })).status).toBe(400);
    expect((await bulk({ thermostatIds: [first], temperature: 500 })).status).toBe(400);
    const unknown = await bulk({ thermostatIds: [first, '999999999999'], temperature: 50 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('999999999999');
    expect((await bulk({ buildingId: '0123456789abcdef01234567', temperature: 50 })).status).toBe(
      404,
    );
    // The boiler cannot cool: the whole request fails and the others keep their mode.
    const hydronic = await boiler();
    const before = await record(second as string);
    const mixed = await bulk({
      thermostatIds: [second, hydronic.thermostatId],
      hvacMode: 'cool',
    });
    expect(mixed.status).toBe(400);
    expect((await record(second as string)).hvacMode).toBe(before.hvacMode);
    expect((await record(first as string)).temperature).not.toBe(50);
  });
});

describe('resident mode applied by the device', () => {
  it('after residentModeDelayMs on the sandbox clock: until then the status shows the old mode and nothing is reset', async () => {
    const id = portfolio.thermostats[0]?.thermostatId as string;
    await client.request('PATCH', `${THERMOSTATS}/${id}/residentMode`, {
      token,
      body: { isResidentMode: true },
    });
    const comfort = async () =>
      (await client.request('GET', `${THERMOSTATS}/${id}/comfortSettings`, { token })).body.data
        .length as number;
    await client.request('POST', `${THERMOSTATS}/${id}/comfortSettings`, {
      token,
      body: { name: 'Kept Until Reset', desiredHeat: 66, desiredCool: 78 },
    });
    const custom = await comfort();
    await client.control('PATCH', '/knobs', { residentModeDelayMs: 120_000 });
    const off = await client.request('PATCH', `${THERMOSTATS}/${id}/residentMode`, {
      token,
      body: { isResidentMode: false },
    });
    expect(off.status).toBe(204);
    expect((await statusOf(id)).isResidentMode).toBe(true);
    expect(await comfort()).toBe(custom);
    await client.advance(60);
    expect((await statusOf(id)).isResidentMode).toBe(true);
    await client.advance(61);
    expect((await statusOf(id)).isResidentMode).toBe(false);
    expect(await comfort()).toBe(3);
    await client.control('PATCH', '/knobs', { residentModeDelayMs: 0 });
  });
});
