import { describe, expect, it } from 'vitest';
import { expectFail, sleep, THERMOSTATS, withApiSession } from '../helpers';

const api = withApiSession();
const statusOf = (id = api.thermostatId) => api.get(`${THERMOSTATS}/${id}/status`);
const residentMode = (id = api.thermostatId) => `${THERMOSTATS}/${id}/residentMode`;

describe('status', () => {
  it('returns the v2 status record with both setpoints', async () => {
    const reply = await statusOf();
    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe('success');
    const status = reply.body.data;
    expect(status.thermostatId).toMatch(/^\d{12}$/);
    expect(status.buildingId).toMatch(/^[0-9a-f]{24}$/);
    expect(typeof status.isResidentMode).toBe('boolean');
    expect(status.setPoint.desiredCool - status.setPoint.desiredHeat).toBeGreaterThanOrEqual(
      status.heatCoolMinDelta,
    );
    expect(status).toHaveProperty('temperature');
    expect(status).toHaveProperty('humidity');
    expect(status).toHaveProperty('currentComfortSettingRef');
    expect(status.connected).toBe(true);
    expect(Date.parse(status.lastSeen)).not.toBeNaN();
    expect(status).not.toHaveProperty('isTenantMode');
  });

  it('the offline thermostat reads with connected:false and an old lastSeen, and refuses writes (409)', async () => {
    const reply = await statusOf(api.offlineId);
    expect(reply.status).toBe(200);
    expect(reply.body.data.connected).toBe(false);
    expect(Date.now() - Date.parse(reply.body.data.lastSeen)).toBeGreaterThan(24 * 3600_000);
    const write = await api.patch(`${THERMOSTATS}/${api.offlineId}/settings`, {
      fanMinimumOnTime: 10,
    });
    expect(write.status).toBe(409);
    expect(write.body.code).toBe('thermostat_offline');
  });

  it("the offline thermostat's lastSeen follows the sandbox clock, also when it is set back", async () => {
    const silence = (3 * 24 + 4) * 3600_000 + 17 * 60_000;
    const clockNow = async () => Date.parse((await api.client.control('GET', '/clock')).body.now);
    const age = async () => {
      const lastSeen = Date.parse((await statusOf(api.offlineId)).body.data.lastSeen);
      return (await clockNow()) - lastSeen;
    };
    // As the token-format tests do: back to before the 2020-12-01 switch.
    await api.client.setClock('2020-11-15T08:00:00Z');
    const before = await age();
    expect(before).toBeGreaterThan(silence - 5_000);
    expect(before).toBeLessThan(silence + 60_000);
    // Time that passes on the sandbox clock ages a device taken offline at that time.
    await api.client.control('PATCH', `/thermostats/${api.thermostatId}`, { connected: false });
    const wentOffline = Date.parse((await statusOf()).body.data.lastSeen);
    expect(Math.abs(wentOffline - (await clockNow()))).toBeLessThan(5_000);
    await api.client.advance(2 * 3600);
    expect(Date.parse((await statusOf()).body.data.lastSeen)).toBe(wentOffline);
    // Back to real time: the fixture's offline thermostat is about 3 days old again.
    await api.client.control('DELETE', '/clock');
    const now = await age();
    expect(now).toBeGreaterThan(silence - 5_000);
    expect(now).toBeLessThan(silence + 60_000);
  });

  it('an HVAC mode change appears in status after the configured delay', async () => {
    const before = (await statusOf()).body.data;
    const target = before.supportedModes.find((mode: string) => mode !== before.hvacMode);
    await api.client.control('PATCH', `/thermostats/${api.thermostatId}`, { hvacMode: target });
    const pending = (await statusOf()).body.data;
    expect(pending.hvacMode).toBe(before.hvacMode);
    expect(pending.pendingHvacMode).toBe(target);
    await sleep(350);
    const after = (await statusOf()).body.data;
    expect(after.hvacMode).toBe(target);
    expect(after.pendingHvacMode).toBeNull();
  });
});

describe('resident mode', () => {
  it('sets isResidentMode; turning it off resets settings to defaults', async () => {
    const id = api.thermostatId;
    await api.patch(residentMode(id), { isResidentMode: true });
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
    expect(off.status).toBe(200);
    expect(off.body.data.isResidentMode).toBe(false);
    const settings = (await api.get(`${THERMOSTATS}/${id}/settings`)).body.data;
    expect(settings).toMatchObject({ fanMinimumOnTime: 0, holdAction: 'nextPeriod' });
    const comfort = (await api.get(`${THERMOSTATS}/${id}/comfortSettings`)).body.data;
    expect(
      comfort.map((setting: { comfortSettingRef: string }) => setting.comfortSettingRef),
    ).toEqual(['home', 'away', 'sleep']);
    const on = await api.patch(residentMode(id), { isResidentMode: true });
    expect(on.body.data.isResidentMode).toBe(true);
  });

  it('validates the payload and rejects the v1 field name', async () => {
    expectFail(await api.patch(residentMode(), {}), 'isResidentMode');
    expectFail(await api.patch(residentMode(), { isResidentMode: 'yes' }), 'isResidentMode');
    expectFail(
      await api.patch(residentMode(), { isTenantMode: true, isResidentMode: true }),
      'isTenantMode',
    );
  });
});
