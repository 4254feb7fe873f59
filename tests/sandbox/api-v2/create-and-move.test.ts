import { describe, expect, it } from 'vitest';
import { expectError, expectFail, THERMOSTATS, withApiSession } from '../helpers';

const api = withApiSession();
const createIn = (buildingId: string, body: unknown) =>
  api.post(`${THERMOSTATS}/${buildingId}/thermostats`, body);
const SUMMARY_KEYS = [
  'buildingId',
  'hvacModes',
  'id',
  'name',
  'thermostatName',
  'timeZoneOffsetMinutes',
];
/** UTC offsets (minutes) of the demo fixture's zones in mid-January and mid-July. */
const OFFSETS: Record<string, [number, number]> = {
  'America/New_York': [-300, -240],
  'America/Chicago': [-360, -300],
  'America/Phoenix': [-420, -420],
  'America/Los_Angeles': [-480, -420],
  'America/Denver': [-420, -360],
  'America/Toronto': [-300, -240],
};
const buildingIn = (timeZone: string) => {
  const building = api.demo.buildings.find((candidate) => candidate.timeZone === timeZone);
  if (!building) throw new Error(`no demo building in ${timeZone}`);
  return building.buildingId;
};

describe('create', () => {
  it('creates a thermostat in a building: 201 with the thermostat summary', async () => {
    await api.client.setClock('2021-01-15T12:00:00Z');
    const buildingId = buildingIn('America/New_York');
    const reply = await createIn(buildingId, {
      isResidentMode: true,
      name: 'Unit 999',
      hvacMode: 'heat',
      hvacModes: ['heat', 'cool', 'auto', 'off'],
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.status).toBe('success');
    const summary = reply.body.data;
    expect(Object.keys(summary).sort()).toEqual(SUMMARY_KEYS);
    expect(summary).toEqual({
      id: expect.stringMatching(/^\d{12}$/),
      buildingId,
      name: 'Unit 999',
      thermostatName: 'Unit 999',
      timeZoneOffsetMinutes: -300,
      hvacModes: ['heat', 'cool', 'auto', 'off'],
    });
    const status = await api.get(`${THERMOSTATS}/${summary.id}/status`);
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({
      id: summary.id,
      hvacMode: 'heat',
      isResidentMode: true,
    });
    const device = (await api.client.control('GET', `/thermostats/${summary.id}`)).body;
    expect(device).toMatchObject({
      buildingId,
      supportedModes: ['heat', 'cool', 'auto', 'off'],
      holdAction: 'nextTransition',
    });
  });

  it('registers a given serial; defaults: all five modes, empty names', async () => {
    const buildingId = api.demo.buildings[2]?.buildingId as string;
    const reply = await createIn(buildingId, {
      isResidentMode: false,
      thermostatId: '612345678901',
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.data).toMatchObject({
      id: '612345678901',
      buildingId,
      name: '',
      thermostatName: '',
      hvacModes: ['heat', 'auxHeatOnly', 'cool', 'auto', 'off'],
    });
    expectError(
      await createIn(buildingId, { isResidentMode: true, thermostatId: '612345678901' }),
      409,
      'thermostat_exists',
    );
  });

  it("timeZoneOffsetMinutes is the building's UTC offset at the sandbox clock", async () => {
    for (const [month, index] of [
      ['01', 0],
      ['07', 1],
    ] as const) {
      await api.client.setClock(`2021-${month}-15T12:00:00Z`);
      for (const building of api.demo.buildings) {
        const reply = await createIn(building.buildingId, { isResidentMode: true });
        expect(reply.status).toBe(201);
        expect(reply.body.data.timeZoneOffsetMinutes, `${building.timeZone} ${month}`).toBe(
          OFFSETS[building.timeZone]?.[index],
        );
      }
    }
  });

  it('validates create: isResidentMode required, modes, name length, id; supportedModes is refused', async () => {
    const buildingId = api.demo.buildings[0]?.buildingId as string;
    expectFail(await createIn(buildingId, { name: 'x' }), 'isResidentMode');
    expectFail(await createIn(buildingId, { isResidentMode: true, hvacMode: 'turbo' }), 'hvacMode');
    expectFail(
      await createIn(buildingId, {
        isResidentMode: true,
        hvacModes: ['heat', 'off'],
        hvacMode: 'cool',
      }),
      'hvacMode',
    );
    expectFail(await createIn(buildingId, { isResidentMode: true, hvacModes: [] }), 'hvacModes');
    expectFail(
      await createIn(buildingId, { isResidentMode: true, hvacModes: ['heat', 'warp'] }),
      'hvacModes.1',
    );
    expectFail(
      await createIn(buildingId, { isResidentMode: true, supportedModes: ['heat', 'off'] }),
      'supportedModes',
    );
    expectFail(await createIn(buildingId, { isResidentMode: true, name: 'n'.repeat(65) }), 'name');
    expectFail(
      await createIn(buildingId, { isResidentMode: true, thermostatId: '12345' }),
      'thermostatId',
    );
    expectError(
      await createIn(buildingId, { isResidentMode: true, thermostatId: api.thermostatId }),
      409,
      'thermostat_exists',
    );
    expectError(
      await createIn('0123456789abcdef01234567', { isResidentMode: true }),
      404,
      'building_not_found',
    );
  });
});

describe('move', () => {
  it('moves a thermostat to another building: 200 with the thermostat summary', async () => {
    await api.client.setClock('2021-07-15T12:00:00Z');
    const target = buildingIn('America/Phoenix');
    const move = `${THERMOSTATS}/${api.thermostatId}`;
    const before = (await api.client.control('GET', `/thermostats/${api.thermostatId}`)).body;
    const reply = await api.patch(move, { buildingId: target });
    expect(reply.status, reply.text).toBe(200);
    expect(Object.keys(reply.body.data).sort()).toEqual(SUMMARY_KEYS);
    expect(reply.body.data).toEqual({
      id: api.thermostatId,
      buildingId: target,
      name: before.name,
      thermostatName: before.thermostatName,
      timeZoneOffsetMinutes: -420,
      hvacModes: before.supportedModes,
    });
    const listed = (await api.client.portfolio()).thermostats.find(
      (thermostat) => thermostat.thermostatId === api.thermostatId,
    );
    expect(listed?.buildingId).toBe(target);
    const schedule = (await api.get(`${THERMOSTATS}/${api.thermostatId}/schedule`)).body.data;
    expect(schedule).not.toHaveProperty('timeZone');
  });

  it('renames the portal name and the device name with the move', async () => {
    const target = api.demo.buildings[3]?.buildingId as string;
    const move = `${THERMOSTATS}/${api.thermostatId}`;
    const reply = await api.patch(move, {
      buildingId: target,
      name: 'Suite 410 (portal)',
      thermostatName: 'Suite 410',
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toMatchObject({
      buildingId: target,
      name: 'Suite 410 (portal)',
      thermostatName: 'Suite 410',
    });
    const device = (await api.client.control('GET', `/thermostats/${api.thermostatId}`)).body;
    expect(device).toMatchObject({ name: 'Suite 410 (portal)', thermostatName: 'Suite 410' });
    const onlyName = await api.patch(move, { buildingId: target, thermostatName: '' });
    expect(onlyName.body.data).toMatchObject({ name: 'Suite 410 (portal)', thermostatName: '' });
  });

  it('validates the move body', async () => {
    const move = `${THERMOSTATS}/${api.thermostatId}`;
    const target = api.demo.buildings[4]?.buildingId as string;
    expectFail(await api.patch(move, { buildingId: 'not-hex' }), 'buildingId');
    expectFail(await api.patch(move, { buildingId: target.toUpperCase() }), 'buildingId');
    expectFail(await api.patch(move, {}), 'buildingId');
    expectFail(await api.patch(move, { name: 'x' }), 'buildingId');
    expectFail(await api.patch(move, { buildingId: target, name: 'n'.repeat(65) }), 'name');
    expectFail(
      await api.patch(move, { buildingId: target, thermostatName: 'n'.repeat(65) }),
      'thermostatName',
    );
    expectFail(await api.patch(move, { buildingId: target, hvacModes: ['heat'] }), 'hvacModes');
    expectFail(await api.patch(move, { buildingId: '0123456789abcdef01234567' }), 'buildingId');
  });

  it('moving an offline thermostat is allowed (cloud side only)', async () => {
    const target = api.demo.buildings[0]?.buildingId as string;
    const reply = await api.patch(`${THERMOSTATS}/${api.offlineId}`, { buildingId: target });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data.buildingId).toBe(target);
  });
});
