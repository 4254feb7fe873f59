import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { boot, type SandboxClient, sleep } from './helpers';

let client: SandboxClient;
let close: () => Promise<void>;
let token: string;
let demo: Awaited<ReturnType<SandboxClient['portfolio']>>;
let other: Awaited<ReturnType<SandboxClient['portfolio']>>;
let tid: string;
let offlineId: string;

const T = '/api/v2/thermostats';

beforeAll(async () => {
  const started = await boot();
  client = started.client;
  close = started.sandbox.close;
});
afterAll(() => close());
beforeEach(async () => {
  await client.reset();
  token = (await client.login()).access_token;
  demo = await client.portfolio('demo');
  other = await client.portfolio('other');
  tid = demo.thermostats[1]?.thermostatId as string;
  offlineId = demo.thermostats.find((t) => t.name.includes('offline'))?.thermostatId as string;
});

const get = (path: string) => client.request('GET', path, { token });
const patch = (path: string, body: unknown) => client.request('PATCH', path, { token, body });
const post = (path: string, body: unknown) => client.request('POST', path, { token, body });

function expectFail(
  r: { status: number; body: { status: string; data: Record<string, string> } },
  ...fields: string[]
) {
  expect(r.status).toBe(422);
  expect(r.body.status).toBe('fail');
  for (const f of fields) expect(r.body.data, JSON.stringify(r.body.data)).toHaveProperty([f]);
}

describe('bearer checks', () => {
  it('missing, malformed, unknown tokens give 401 in the error envelope', async () => {
    const path = `${T}/${tid}/status`;
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'missing_token'],
      [{ authorization: `Basic ${token}` }, 'invalid_token'],
      [{ authorization: 'Bearer' }, 'invalid_token'],
      [{ authorization: 'Bearer sbx_at_forged' }, 'invalid_token'],
    ];
    for (const [headers, code] of cases) {
      const r = await client.request('GET', path, { headers });
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ status: 'error', code });
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('the scheme compares case-insensitively', async () => {
    const r = await client.request('GET', `${T}/${tid}/status`, {
      headers: { authorization: `bearer ${token}` },
    });
    expect(r.status).toBe(200);
  });

  it('a read-only scope cannot write (403)', async () => {
    const ro = (await client.login('demo', {}, { scope: 'smartRead' })).access_token;
    expect((await client.request('GET', `${T}/${tid}/settings`, { token: ro })).status).toBe(200);
    const r = await client.request('PATCH', `${T}/${tid}/settings`, {
      token: ro,
      body: { fanMinimumOnTime: 5 },
    });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('insufficient_scope');
  });
});

describe('isolation between accounts', () => {
  it("another account's thermostat is 404 for every read and write, like an unknown id", async () => {
    const foreign = other.thermostats[0]?.thermostatId as string;
    for (const sub of ['status', 'schedule', 'comfortSettings', 'settings', 'alertSettings']) {
      const r = await get(`${T}/${foreign}/${sub}`);
      expect(r.status, sub).toBe(404);
      expect(r.body.code).toBe('thermostat_not_found');
      expect((await get(`${T}/999999999999/${sub}`)).status).toBe(404);
    }
    expect((await patch(`${T}/${foreign}/residentMode`, { isResidentMode: false })).status).toBe(
      404,
    );
    expect((await patch(`${T}/${foreign}/settings`, { fanMinimumOnTime: 5 })).status).toBe(404);
    expect(
      (await patch(`${T}/${foreign}`, { buildingId: demo.buildings[0]?.buildingId })).status,
    ).toBe(404);
    expect(
      (await client.request('DELETE', `${T}/${foreign}/comfortSettings/home`, { token })).status,
    ).toBe(404);
    const otherToken = (await client.login('other')).access_token;
    const mine = await client.request('GET', `${T}/${foreign}/status`, { token: otherToken });
    expect(mine.status).toBe(200);
  });

  it("another account's building cannot receive a created or moved thermostat", async () => {
    const foreignBuilding = other.buildings[0]?.buildingId as string;
    const created = await post(`${T}/${foreignBuilding}/thermostats`, { isResidentMode: true });
    expect(created.status).toBe(404);
    expect(created.body.code).toBe('building_not_found');
    expectFail(await patch(`${T}/${tid}`, { buildingId: foreignBuilding }), 'buildingId');
  });

  it('bulk updates report foreign thermostats as not found and leave them alone', async () => {
    const foreign = other.thermostats[0]?.thermostatId as string;
    const r = await patch(`${T}/settings`, { thermostatIds: [tid, foreign], fanMinimumOnTime: 20 });
    expect(r.status).toBe(200);
    expect(r.body.data.results[1]).toMatchObject({
      thermostatId: foreign,
      status: 'error',
      code: 'thermostat_not_found',
    });
    const otherToken = (await client.login('other')).access_token;
    const s = await client.request('GET', `${T}/${foreign}/settings`, { token: otherToken });
    expect(s.body.data.fanMinimumOnTime).toBe(0);
  });
});

describe('status', () => {
  it('returns the v2 status record with both setpoints', async () => {
    const r = await get(`${T}/${tid}/status`);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('success');
    const s = r.body.data;
    expect(s.thermostatId).toMatch(/^\d{12}$/);
    expect(s.buildingId).toMatch(/^[0-9a-f]{24}$/);
    expect(typeof s.isResidentMode).toBe('boolean');
    expect(s.setPoint.desiredCool - s.setPoint.desiredHeat).toBeGreaterThanOrEqual(
      s.heatCoolMinDelta,
    );
    expect(s).toHaveProperty('temperature');
    expect(s).toHaveProperty('humidity');
    expect(s).toHaveProperty('currentComfortSettingRef');
    expect(s.connected).toBe(true);
    expect(Date.parse(s.lastSeen)).not.toBeNaN();
    expect(s).not.toHaveProperty('isTenantMode');
  });

  it('the offline thermostat reads with connected:false and an old lastSeen, and refuses writes (409)', async () => {
    const r = await get(`${T}/${offlineId}/status`);
    expect(r.status).toBe(200);
    expect(r.body.data.connected).toBe(false);
    expect(Date.now() - Date.parse(r.body.data.lastSeen)).toBeGreaterThan(24 * 3600_000);
    const w = await patch(`${T}/${offlineId}/settings`, { fanMinimumOnTime: 10 });
    expect(w.status).toBe(409);
    expect(w.body.code).toBe('thermostat_offline');
  });

  it('an HVAC mode change appears in status after the configured delay', async () => {
    const before = (await get(`${T}/${tid}/status`)).body.data;
    const target = before.supportedModes.find((m: string) => m !== before.hvacMode);
    await client.control('PATCH', `/thermostats/${tid}`, { hvacMode: target });
    const pending = (await get(`${T}/${tid}/status`)).body.data;
    expect(pending.hvacMode).toBe(before.hvacMode);
    expect(pending.pendingHvacMode).toBe(target);
    await sleep(350);
    const after = (await get(`${T}/${tid}/status`)).body.data;
    expect(after.hvacMode).toBe(target);
    expect(after.pendingHvacMode).toBeNull();
  });
});

describe('resident mode', () => {
  it('sets isResidentMode; turning it off resets settings to defaults', async () => {
    const resident = demo.thermostats.find((_, i) => i > 0) as { thermostatId: string };
    const id = resident.thermostatId;
    await patch(`${T}/${id}/residentMode`, { isResidentMode: true });
    await patch(`${T}/${id}/settings`, { fanMinimumOnTime: 30, holdAction: 'indefinite' });
    await post(`${T}/${id}/comfortSettings`, { name: 'Party', desiredHeat: 70, desiredCool: 75 });
    const off = await patch(`${T}/${id}/residentMode`, { isResidentMode: false });
    expect(off.status).toBe(200);
    expect(off.body.data.isResidentMode).toBe(false);
    const settings = (await get(`${T}/${id}/settings`)).body.data;
    expect(settings).toMatchObject({ fanMinimumOnTime: 0, holdAction: 'nextPeriod' });
    const comfort = (await get(`${T}/${id}/comfortSettings`)).body.data;
    expect(comfort.map((c: { comfortSettingRef: string }) => c.comfortSettingRef)).toEqual([
      'home',
      'away',
      'sleep',
    ]);
    const on = await patch(`${T}/${id}/residentMode`, { isResidentMode: true });
    expect(on.body.data.isResidentMode).toBe(true);
  });

  it('validates the payload and rejects the v1 field name', async () => {
    expectFail(await patch(`${T}/${tid}/residentMode`, {}), 'isResidentMode');
    expectFail(
      await patch(`${T}/${tid}/residentMode`, { isResidentMode: 'yes' }),
      'isResidentMode',
    );
    expectFail(
      await patch(`${T}/${tid}/residentMode`, { isTenantMode: true, isResidentMode: true }),
      'isTenantMode',
    );
  });
});

describe('create and move', () => {
  it('creates a thermostat in a building (201) with a generated 12-digit id', async () => {
    const buildingId = demo.buildings[2]?.buildingId as string;
    const r = await post(`${T}/${buildingId}/thermostats`, {
      isResidentMode: true,
      name: 'Unit 999',
      hvacMode: 'heat',
    });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({
      buildingId,
      name: 'Unit 999',
      hvacMode: 'heat',
      isResidentMode: true,
    });
    expect(r.body.data.thermostatId).toMatch(/^\d{12}$/);
    expect((await get(`${T}/${r.body.data.thermostatId}/status`)).status).toBe(200);
  });

  it('validates create: isResidentMode required, mode, name length, duplicate id', async () => {
    const b = demo.buildings[0]?.buildingId as string;
    expectFail(await post(`${T}/${b}/thermostats`, { name: 'x' }), 'isResidentMode');
    expectFail(
      await post(`${T}/${b}/thermostats`, { isResidentMode: true, hvacMode: 'turbo' }),
      'hvacMode',
    );
    expectFail(
      await post(`${T}/${b}/thermostats`, { isResidentMode: true, name: 'n'.repeat(65) }),
      'name',
    );
    const dup = await post(`${T}/${b}/thermostats`, { isResidentMode: true, thermostatId: tid });
    expect(dup.status).toBe(409);
    expect(
      (await post(`${T}/0123456789abcdef01234567/thermostats`, { isResidentMode: true })).status,
    ).toBe(404);
  });

  it('moves a thermostat to another building of the account', async () => {
    const target = demo.buildings[4]?.buildingId as string;
    const r = await patch(`${T}/${tid}`, { buildingId: target });
    expect(r.status).toBe(200);
    expect(r.body.data.buildingId).toBe(target);
    const schedule = (await get(`${T}/${tid}/schedule`)).body.data;
    expect(schedule.timeZone).toBe(demo.buildings[4]?.timeZone);
    expectFail(await patch(`${T}/${tid}`, { buildingId: 'not-hex' }), 'buildingId');
    expectFail(await patch(`${T}/${tid}`, {}), 'buildingId');
  });
});

describe('comfort settings', () => {
  it('reads every setting of the thermostat, each with its ref', async () => {
    const r = await get(`${T}/${tid}/comfortSettings`);
    expect(Array.isArray(r.body.data)).toBe(true);
    for (const c of r.body.data) {
      expect(Object.keys(c).sort()).toEqual([
        'comfortSettingRef',
        'desiredCool',
        'desiredHeat',
        'fanCool',
        'fanHeat',
        'name',
      ]);
    }
  });

  it('the demo portfolio contains custom refs', async () => {
    let custom = 0;
    for (const t of demo.thermostats.slice(0, 12)) {
      const list = (await get(`${T}/${t.thermostatId}/comfortSettings`)).body.data ?? [];
      custom += list.filter((c: { comfortSettingRef: string }) =>
        c.comfortSettingRef.startsWith('smart'),
      ).length;
    }
    expect(custom).toBeGreaterThan(0);
  });

  it('creates (201, smartN ref), updates by ref and deletes (204)', async () => {
    const created = await post(`${T}/${tid}/comfortSettings`, {
      name: 'Holiday',
      desiredHeat: 64,
      desiredCool: 80,
      fanHeat: 'auto',
      fanCool: 'on',
    });
    expect(created.status).toBe(201);
    const ref = created.body.data.comfortSettingRef as string;
    expect(ref).toMatch(/^smart\d+$/);
    const updated = await patch(`${T}/${tid}/comfortSettings`, {
      comfortSettingRef: ref,
      name: 'Winter Holiday',
      desiredHeat: 65,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      comfortSettingRef: ref,
      name: 'Winter Holiday',
      desiredHeat: 65,
      desiredCool: 80,
    });
    const del = await client.request('DELETE', `${T}/${tid}/comfortSettings/${ref}`, { token });
    expect(del.status).toBe(204);
    expect(
      (await client.request('DELETE', `${T}/${tid}/comfortSettings/${ref}`, { token })).status,
    ).toBe(404);
  });

  it('setpoints must be inside the ranges and heatCoolMinDelta apart', async () => {
    const status = (await get(`${T}/${tid}/status`)).body.data;
    const delta = status.heatCoolMinDelta as number;
    expectFail(
      await post(`${T}/${tid}/comfortSettings`, {
        name: 'A',
        desiredHeat: 72,
        desiredCool: 72 + delta - 1,
      }),
      'desiredHeat',
      'desiredCool',
    );
    expectFail(
      await post(`${T}/${tid}/comfortSettings`, { name: 'B', desiredHeat: 40, desiredCool: 80 }),
      'desiredHeat',
    );
    expectFail(
      await post(`${T}/${tid}/comfortSettings`, { name: 'C', desiredHeat: 60, desiredCool: 95 }),
      'desiredCool',
    );
    expectFail(
      await post(`${T}/${tid}/comfortSettings`, {
        name: 'D',
        desiredHeat: 60.123,
        desiredCool: 80,
      }),
      'desiredHeat',
    );
    expectFail(
      await post(`${T}/${tid}/comfortSettings`, { desiredHeat: 60, desiredCool: 80 }),
      'name',
    );
    expectFail(
      await post(`${T}/${tid}/comfortSettings`, {
        name: 'E',
        desiredHeat: 60,
        desiredCool: 80,
        fanHeat: 'max',
      }),
      'fanHeat',
    );
    expect((await patch(`${T}/${tid}/settings`, { heatRange: { min: 55, max: 72 } })).status).toBe(
      200,
    );
    expectFail(
      await post(`${T}/${tid}/comfortSettings`, { name: 'F', desiredHeat: 74, desiredCool: 80 }),
      'desiredHeat',
    );
    expectFail(
      await patch(`${T}/${tid}/comfortSettings`, { comfortSettingRef: 'home', desiredCool: 70 }),
      'desiredCool',
    );
    expectFail(
      await patch(`${T}/${tid}/comfortSettings`, { comfortSettingRef: 'nope', name: 'x' }),
      'comfortSettingRef',
    );
    expectFail(await patch(`${T}/${tid}/comfortSettings`, { name: 'x' }), 'comfortSettingRef');
    expectFail(
      await patch(`${T}/${tid}/comfortSettings`, { comfortSettingRef: 'home', name: 'Away' }),
      'name',
    );
  });

  it('a comfort setting used by the schedule (or a default) cannot be deleted', async () => {
    const created = await post(`${T}/${tid}/comfortSettings`, {
      name: 'Night Owl',
      desiredHeat: 66,
      desiredCool: 79,
    });
    const ref = created.body.data.comfortSettingRef as string;
    await patch(`${T}/${tid}/schedule`, {
      days: ['saturday'],
      firstTimeBlock: 0,
      lastTimeBlock: 3,
      comfortSettingRef: ref,
    });
    const del = await client.request('DELETE', `${T}/${tid}/comfortSettings/${ref}`, { token });
    expectFail(del, 'comfortSettingRef');
    const home = await client.request('DELETE', `${T}/${tid}/comfortSettings/home`, { token });
    expectFail(home, 'comfortSettingRef');
  });
});

describe('schedule', () => {
  it('reads 7 days Monday first with 48 blocks each', async () => {
    const r = await get(`${T}/${tid}/schedule`);
    expect(r.body.data.days.map((d: { day: string }) => d.day)).toEqual([
      'monday',
      'tuesday',
      'wednesday',
      'thursday',
      'friday',
      'saturday',
      'sunday',
    ]);
    for (const d of r.body.data.days) expect(d.blocks).toHaveLength(48);
    expect(typeof r.body.data.timeZone).toBe('string');
  });

  it('updates a range of blocks on chosen days only', async () => {
    const r = await patch(`${T}/${tid}/schedule`, {
      days: ['monday', 'wednesday'],
      firstTimeBlock: 10,
      lastTimeBlock: 12,
      comfortSettingRef: 'away',
    });
    expect(r.status).toBe(200);
    const days = r.body.data.days;
    expect(days[0].blocks.slice(10, 13)).toEqual(['away', 'away', 'away']);
    expect(days[2].blocks[11]).toBe('away');
    expect(days[1].blocks[11]).toBe('sleep');
    const single = await patch(`${T}/${tid}/schedule`, {
      days: ['sunday'],
      firstTimeBlock: 47,
      lastTimeBlock: 47,
      comfortSettingRef: 'home',
    });
    expect(single.body.data.days[6].blocks[47]).toBe('home');
  });

  it('validates days, blocks 0..47, order and the comfort setting ref', async () => {
    const ok = { days: ['monday'], firstTimeBlock: 0, lastTimeBlock: 1, comfortSettingRef: 'home' };
    expectFail(await patch(`${T}/${tid}/schedule`, { ...ok, days: ['Monday'] }), 'days.0');
    expectFail(await patch(`${T}/${tid}/schedule`, { ...ok, days: [] }), 'days');
    expectFail(
      await patch(`${T}/${tid}/schedule`, { ...ok, days: ['monday', 'monday'] }),
      'days.1',
    );
    expectFail(
      await patch(`${T}/${tid}/schedule`, { ...ok, firstTimeBlock: -1 }),
      'firstTimeBlock',
    );
    expectFail(await patch(`${T}/${tid}/schedule`, { ...ok, lastTimeBlock: 48 }), 'lastTimeBlock');
    expectFail(
      await patch(`${T}/${tid}/schedule`, { ...ok, firstTimeBlock: 1.5 }),
      'firstTimeBlock',
    );
    expectFail(
      await patch(`${T}/${tid}/schedule`, { ...ok, firstTimeBlock: 5, lastTimeBlock: 4 }),
      'firstTimeBlock',
    );
    expectFail(
      await patch(`${T}/${tid}/schedule`, { ...ok, comfortSettingRef: 'smart99' }),
      'comfortSettingRef',
    );
    expectFail(
      await patch(`${T}/${tid}/schedule`, {}),
      'days',
      'firstTimeBlock',
      'lastTimeBlock',
      'comfortSettingRef',
    );
  });
});

describe('configuration settings', () => {
  it('reads and updates heatRange, coolRange, holdAction, fanMinimumOnTime', async () => {
    const r = await get(`${T}/${tid}/settings`);
    expect(Object.keys(r.body.data).sort()).toEqual([
      'coolRange',
      'fanMinimumOnTime',
      'heatRange',
      'holdAction',
    ]);
    const u = await patch(`${T}/${tid}/settings`, {
      heatRange: { min: 50, max: 75 },
      coolRange: { min: 70, max: 88 },
      holdAction: 'useEndTime4hour',
      fanMinimumOnTime: 55,
    });
    expect(u.status).toBe(200);
    expect(u.body.data).toEqual({
      heatRange: { min: 50, max: 75 },
      coolRange: { min: 70, max: 88 },
      holdAction: 'useEndTime4hour',
      fanMinimumOnTime: 55,
    });
  });

  it('validates ranges, holdAction and fanMinimumOnTime', async () => {
    expectFail(
      await patch(`${T}/${tid}/settings`, { heatRange: { min: 40, max: 70 } }),
      'heatRange.min',
    );
    expectFail(
      await patch(`${T}/${tid}/settings`, { coolRange: { min: 70, max: 95 } }),
      'coolRange.max',
    );
    expectFail(
      await patch(`${T}/${tid}/settings`, { heatRange: { min: 70, max: 60 } }),
      'heatRange.min',
    );
    expectFail(await patch(`${T}/${tid}/settings`, { heatRange: { min: 50 } }), 'heatRange.max');
    expectFail(await patch(`${T}/${tid}/settings`, { holdAction: 'forever' }), 'holdAction');
    expectFail(await patch(`${T}/${tid}/settings`, { holdAction: 'nextTransition' }), 'holdAction');
    expectFail(await patch(`${T}/${tid}/settings`, { fanMinimumOnTime: 56 }), 'fanMinimumOnTime');
    expectFail(await patch(`${T}/${tid}/settings`, { fanMinimumOnTime: 5.5 }), 'fanMinimumOnTime');
    expectFail(await patch(`${T}/${tid}/settings`, { hvacMode: 'cool' }), 'hvacMode');
    expectFail(await patch(`${T}/${tid}/settings`, {}), 'body');
    expectFail(
      await patch(`${T}/${tid}/settings`, { heatRange: { min: 45, max: 60 } }),
      'heatRange',
    );
  });

  it('an older device reports holdAction nextTransition on read', async () => {
    const values = new Set<string>();
    for (const t of demo.thermostats.slice(0, 8))
      values.add((await get(`${T}/${t.thermostatId}/settings`)).body.data.holdAction);
    expect(values.has('nextTransition')).toBe(true);
  });

  it('rejects invalid JSON bodies with 400', async () => {
    const r = await client.request('PATCH', `${T}/${tid}/settings`, {
      token,
      raw: '{nope',
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_json');
  });
});

describe('bulk settings', () => {
  it('applies to 1..25 thermostats and reports a result for each', async () => {
    const ids = demo.thermostats
      .filter((t) => t.thermostatId !== offlineId)
      .slice(0, 25)
      .map((t) => t.thermostatId);
    const r = await patch(`${T}/settings`, { thermostatIds: ids, fanMinimumOnTime: 10 });
    expect(r.status).toBe(200);
    expect(r.body.data.results).toHaveLength(25);
    expect(r.body.data.succeeded).toBe(25);
    expect((await get(`${T}/${ids[24]}/settings`)).body.data.fanMinimumOnTime).toBe(10);
  });

  it('26 ids, 0 ids, bad ids and duplicates are validation errors naming thermostatIds', async () => {
    const ids = demo.thermostats.slice(0, 26).map((t) => t.thermostatId);
    expectFail(
      await patch(`${T}/settings`, { thermostatIds: ids, fanMinimumOnTime: 10 }),
      'thermostatIds',
    );
    expectFail(
      await patch(`${T}/settings`, { thermostatIds: [], fanMinimumOnTime: 10 }),
      'thermostatIds',
    );
    expectFail(await patch(`${T}/settings`, { fanMinimumOnTime: 10 }), 'thermostatIds');
    expectFail(
      await patch(`${T}/settings`, { thermostatIds: ['abc'], fanMinimumOnTime: 10 }),
      'thermostatIds.0',
    );
    expectFail(
      await patch(`${T}/settings`, { thermostatIds: [tid, tid], fanMinimumOnTime: 10 }),
      'thermostatIds.1',
    );
    expectFail(
      await patch(`${T}/settings`, { thermostatIds: [tid], fanMinimumOnTime: 99 }),
      'fanMinimumOnTime',
    );
  });

  it('the offline thermostat fails alone', async () => {
    const r = await patch(`${T}/settings`, {
      thermostatIds: [tid, offlineId],
      holdAction: 'indefinite',
    });
    expect(r.body.data.results[0].status).toBe('success');
    expect(r.body.data.results[1]).toMatchObject({ status: 'error', code: 'thermostat_offline' });
    expect(r.body.data.failed).toBe(1);
  });
});

describe('access control', () => {
  it('sets a passcode that is never returned', async () => {
    const r = await patch(`${T}/${tid}/accessControl`, {
      enabled: true,
      passcode: '0420',
      settings: { temperature: true, schedule: true },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      enabled: true,
      passcode: '****',
      settings: {
        temperature: true,
        systemMode: false,
        schedule: true,
        vacation: false,
        other: false,
      },
    });
    expect(r.text).not.toContain('0420');
    const off = await patch(`${T}/${tid}/accessControl`, { enabled: false });
    expect(off.body.data.passcode).toBeNull();
    expect(off.body.data.enabled).toBe(false);
  });

  it('passcode exactly 4 digits and only when enabled is true', async () => {
    for (const passcode of ['123', '12345', 'abcd', '12a4', 123]) {
      expectFail(await patch(`${T}/${tid}/accessControl`, { enabled: true, passcode }), 'passcode');
    }
    expectFail(
      await patch(`${T}/${tid}/accessControl`, { enabled: false, passcode: '1234' }),
      'passcode',
    );
    expectFail(
      await patch(`${T}/${tid}/accessControl`, { enabled: false, settings: { other: true } }),
      'settings',
    );
    expectFail(await patch(`${T}/${tid}/accessControl`, { passcode: '1234' }), 'enabled');
    expectFail(
      await patch(`${T}/${tid}/accessControl`, { enabled: true, settings: { doors: true } }),
      'settings.doors',
    );
    expectFail(
      await patch(`${T}/${tid}/accessControl`, { enabled: true, settings: { other: 'yes' } }),
      'settings.other',
    );
  });
});

describe('alert settings', () => {
  it('never returns acMaintenanceReminder and adds nextReminderDate', async () => {
    const r = await get(`${T}/${tid}/alertSettings`);
    expect(r.body.data).not.toHaveProperty('acMaintenanceReminder');
    expect(r.body.data.hvacMaintenanceReminder).toHaveProperty('nextReminderDate');
    const u = await patch(`${T}/${tid}/alertSettings`, {
      hvacMaintenanceReminder: {
        enabled: true,
        lastMaintenanceDate: '2024-01-31',
        maintenanceInterval: 1,
        maintenanceIntervalUnits: 'month',
      },
    });
    expect(u.status).toBe(200);
    expect(u.body.data.hvacMaintenanceReminder.nextReminderDate).toBe('2024-02-29');
    expect(u.body.data).not.toHaveProperty('acMaintenanceReminder');
  });

  it('rejects acMaintenanceReminder and invalid alert values, naming the field', async () => {
    expectFail(
      await patch(`${T}/${tid}/alertSettings`, { acMaintenanceReminder: { enabled: true } }),
      'acMaintenanceReminder',
    );
    expectFail(
      await patch(`${T}/${tid}/alertSettings`, {
        hvacMaintenanceReminder: { lastMaintenanceDate: '2024-02-30' },
      }),
      'hvacMaintenanceReminder.lastMaintenanceDate',
    );
    expectFail(
      await patch(`${T}/${tid}/alertSettings`, {
        hvacMaintenanceReminder: { maintenanceIntervalUnits: 'week' },
      }),
      'hvacMaintenanceReminder.maintenanceIntervalUnits',
    );
    expectFail(
      await patch(`${T}/${tid}/alertSettings`, {
        hvacMaintenanceReminder: { nextReminderDate: '2030-01-01' },
      }),
      'hvacMaintenanceReminder.nextReminderDate',
    );
    expectFail(
      await patch(`${T}/${tid}/alertSettings`, { lowTemperatureAlert: { value: -11 } }),
      'lowTemperatureAlert.value',
    );
    expectFail(
      await patch(`${T}/${tid}/alertSettings`, { highTemperatureAlert: { value: 121 } }),
      'highTemperatureAlert.value',
    );
    expectFail(
      await patch(`${T}/${tid}/alertSettings`, { lowHumidityAlert: { value: 0 } }),
      'lowHumidityAlert.value',
    );
    expectFail(
      await patch(`${T}/${tid}/alertSettings`, {
        lowHumidityAlert: { value: 40 },
        highHumidityAlert: { value: 42 },
      }),
      'highHumidityAlert.value',
    );
    expectFail(
      await patch(`${T}/${tid}/alertSettings`, {
        lowTemperatureAlert: { value: 60 },
        highTemperatureAlert: { value: 61 },
      }),
      'highTemperatureAlert.value',
    );
  });
});

describe('envelope and routing', () => {
  it('unknown paths are 404 and wrong methods 405 in the error envelope', async () => {
    const r = await get('/api/v2/nothing');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ status: 'error', code: 'not_found' });
    const m = await client.request('DELETE', `${T}/${tid}/status`, { token });
    expect(m.status).toBe(405);
    expect(m.headers.get('allow')).toBe('GET');
  });
});
