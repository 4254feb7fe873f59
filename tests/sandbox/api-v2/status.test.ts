import { describe, expect, it } from 'vitest';
import {
  expectError,
  expectFail,
  RUNNING_EQUIPMENT_KEYS,
  runningOf,
  STATUS_KEYS,
  sleep,
  THERMOSTATS,
  withApiSession,
} from '../helpers';

const api = withApiSession();
const statusOf = (id = api.thermostatId) => api.get(`${THERMOSTATS}/${id}/status`);
const residentMode = (id = api.thermostatId) => `${THERMOSTATS}/${id}/residentMode`;
/** The control API's simulation view of a device (building, lastSeen, pending mode, ...). */
const deviceOf = async (id = api.thermostatId) =>
  (await api.client.control('GET', `/thermostats/${id}`)).body;

/** What the sandbox keeps for its simulation and the production status record does not carry. */
const SANDBOX_ONLY = [
  'thermostatId',
  'name',
  'thermostatName',
  'buildingId',
  'accountId',
  'pendingHvacMode',
  'supportedModes',
  'hvacModes',
  'currentComfortSettingRef',
  'holdAction',
  'equipmentStatus',
  'connected',
  'lastSeen',
  'isTenantMode',
  'timeZone',
];

describe('status', () => {
  it('returns exactly the production v2 status record', async () => {
    const reply = await statusOf();
    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe('success');
    const status = reply.body.data;
    expect(Object.keys(status).sort()).toEqual(STATUS_KEYS);
    expect(status.id).toBe(api.thermostatId);
    expect(status.isConnected).toBe(true);
    expect(['heat', 'auxHeatOnly', 'cool', 'auto', 'off']).toContain(status.hvacMode);
    expect(typeof status.temperature).toBe('number');
    expect(Number.isInteger(status.humidity)).toBe(true);
    expect(typeof status.comfortSetting).toBe('string');
    expect(status.comfortSetting.length).toBeGreaterThan(0);
    expect(status.comfortSetting.length).toBeLessThanOrEqual(12);
    const settings = (await api.get(`${THERMOSTATS}/${api.thermostatId}/settings`)).body.data;
    expect(status.desiredHeatRange).toEqual(settings.heatRange);
    expect(status.desiredCoolRange).toEqual(settings.coolRange);
    expect(Number.isInteger(status.desiredHumidity)).toBe(true);
    expect(Number.isInteger(status.desiredDehumidity)).toBe(true);
    expect(status.desiredDehumidity).toBeGreaterThan(status.desiredHumidity);
    expect(Object.keys(status.runningEquipment).sort()).toEqual(RUNNING_EQUIPMENT_KEYS);
    for (const running of Object.values(status.runningEquipment)) {
      expect(typeof running).toBe('boolean');
    }
    expect(Object.keys(status.setPoint).sort()).toEqual(['desiredCool', 'desiredHeat']);
    expect(status.setPoint.desiredCool - status.setPoint.desiredHeat).toBeGreaterThanOrEqual(
      status.heatCoolMinDelta,
    );
    expect(typeof status.isResidentMode).toBe('boolean');
  });

  it('no sandbox-only field leaks into any status record of the portfolio', async () => {
    for (const { thermostatId } of api.demo.thermostats) {
      const status = (await statusOf(thermostatId)).body.data;
      expect(Object.keys(status).sort(), thermostatId).toEqual(STATUS_KEYS);
      for (const field of SANDBOX_ONLY) expect(status, field).not.toHaveProperty(field);
    }
  });

  it('desiredHeatRange and desiredCoolRange follow the configured ranges', async () => {
    await api.patch(`${THERMOSTATS}/${api.thermostatId}/settings`, {
      heatRange: { min: 50, max: 75 },
      coolRange: { min: 70, max: 88 },
    });
    const status = (await statusOf()).body.data;
    expect(status.desiredHeatRange).toEqual({ min: 50, max: 75 });
    expect(status.desiredCoolRange).toEqual({ min: 70, max: 88 });
  });

  it("comfortSetting is the current setting's name, cut to its first 12 characters", async () => {
    const comfortSettings = `${THERMOSTATS}/${api.thermostatId}/comfortSettings`;
    const week = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
    const created = await api.post(comfortSettings, {
      name: 'Extended Guest Stay',
      desiredHeat: 68,
      desiredCool: 77,
    });
    expect(created.status).toBe(201);
    const ref = created.body.data.comfortSettingRef;
    const whole = { days: week, firstTimeBlock: '00:00', lastTimeBlock: '23:59' };
    await api.patch(`${THERMOSTATS}/${api.thermostatId}/schedule`, {
      ...whole,
      comfortSettingRef: ref,
    });
    const status = (await statusOf()).body.data;
    expect(status.comfortSetting).toBe('Extended Gue');
    expect(status.setPoint).toEqual({ desiredHeat: 68, desiredCool: 77 });
    expect((await deviceOf()).currentComfortSettingRef).toBe(ref);
    await api.patch(`${THERMOSTATS}/${api.thermostatId}/schedule`, {
      ...whole,
      comfortSettingRef: 'away',
    });
    expect((await statusOf()).body.data.comfortSetting).toBe('Away');
  });

  it('the offline thermostat reads with isConnected:false, nothing running, and refuses writes (409)', async () => {
    const reply = await statusOf(api.offlineId);
    expect(reply.status).toBe(200);
    expect(reply.body.data.isConnected).toBe(false);
    expect(runningOf(reply.body.data)).toEqual([]);
    expect(reply.body.data).not.toHaveProperty('lastSeen');
    const device = await deviceOf(api.offlineId);
    expect(device.connected).toBe(false);
    expect(Date.now() - Date.parse(device.lastSeen)).toBeGreaterThan(24 * 3600_000);
    const write = await api.patch(`${THERMOSTATS}/${api.offlineId}/settings`, {
      fanMinimumOnTime: 10,
    });
    expectError(write, 409, 'thermostat_offline');
  });

  it("the offline thermostat's lastSeen (control API) follows the sandbox clock, also when it is set back", async () => {
    const silence = (3 * 24 + 4) * 3600_000 + 17 * 60_000;
    const clockNow = async () => Date.parse((await api.client.control('GET', '/clock')).body.now);
    const lastSeen = async (id: string) => Date.parse((await deviceOf(id)).lastSeen);
    const age = async () => (await clockNow()) - (await lastSeen(api.offlineId));
    // As the token-format tests do: back to before the 2020-12-01 switch.
    await api.client.setClock('2020-11-15T08:00:00Z');
    const before = await age();
    expect(before).toBeGreaterThan(silence - 5_000);
    expect(before).toBeLessThan(silence + 60_000);
    // Time that passes on the sandbox clock ages a device taken offline at that time.
    await api.client.control('PATCH', `/thermostats/${api.thermostatId}`, { connected: false });
    expect((await statusOf()).body.data.isConnected).toBe(false);
    const wentOffline = await lastSeen(api.thermostatId);
    expect(Math.abs(wentOffline - (await clockNow()))).toBeLessThan(5_000);
    await api.client.advance(2 * 3600);
    expect(await lastSeen(api.thermostatId)).toBe(wentOffline);
    // Back to real time: the fixture's offline thermostat is about 3 days old again.
    await api.client.control('DELETE', '/clock');
    const now = await age();
    expect(now).toBeGreaterThan(silence - 5_000);
    expect(now).toBeLessThan(silence + 60_000);
  });

  it('an HVAC mode change appears in status after the configured delay', async () => {
    const before = await deviceOf();
    const target = before.supportedModes.find((mode: string) => mode !== before.hvacMode);
    await api.client.control('PATCH', `/thermostats/${api.thermostatId}`, { hvacMode: target });
    const pending = (await statusOf()).body.data;
    expect(pending.hvacMode).toBe(before.hvacMode);
    expect(pending).not.toHaveProperty('pendingHvacMode');
    expect((await deviceOf()).pendingHvacMode).toBe(target);
    await sleep(350);
    const after = (await statusOf()).body.data;
    expect(after.hvacMode).toBe(target);
    expect((await deviceOf()).pendingHvacMode).toBeNull();
  });
});

describe('resident mode', () => {
  it('answers 204 with no body; turning it off resets settings to defaults', async () => {
    const id = api.thermostatId;
    const on = await api.patch(residentMode(id), { isResidentMode: true });
    expect(on.status).toBe(204);
    expect(on.text).toBe('');
    await api.patch(`${THERMOSTATS}/${id}/settings`, {
      fanMinimumOnTime: 30,
      holdAction: 'indefinite',
    });
    await api.post(`${THERMOSTATS}/${id}/comfortSettings`, {
      name: 'Party',
      desiredHeat: 70,
      desiredCool: 75,
    });
    const off = await api.patch(residentMode(id), { isResidentMode: false });
    expect(off.status).toBe(204);
    expect(off.text).toBe('');
    expect(off.body).toBeNull();
    expect((await statusOf(id)).body.data.isResidentMode).toBe(false);
    const settings = (await api.get(`${THERMOSTATS}/${id}/settings`)).body.data;
    expect(settings).toMatchObject({ fanMinimumOnTime: 0, holdAction: 'nextTransition' });
    const comfort = (await api.get(`${THERMOSTATS}/${id}/comfortSettings`)).body.data;
    expect(
      comfort.map((setting: { comfortSettingRef: string }) => setting.comfortSettingRef),
    ).toEqual(['home', 'away', 'sleep']);
    const again = await api.patch(residentMode(id), { isResidentMode: true });
    expect(again.status).toBe(204);
    expect((await statusOf(id)).body.data.isResidentMode).toBe(true);
  });

  it('validates the payload and rejects the v1 field name', async () => {
    expectFail(await api.patch(residentMode(), {}), 'isResidentMode');
    expectFail(await api.patch(residentMode(), { isResidentMode: 'yes' }), 'isResidentMode');
    expectFail(
      await api.patch(residentMode(), { isTenantMode: true, isResidentMode: true }),
      'isTenantMode',
    );
  });

  it('the offline thermostat refuses it with 409 in the error envelope', async () => {
    expectError(
      await api.patch(residentMode(api.offlineId), { isResidentMode: false }),
      409,
      'thermostat_offline',
    );
  });
});
