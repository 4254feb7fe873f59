import { describe, expect, it } from 'vitest';
import { expectFail, THERMOSTATS, withApiSession } from '../helpers';

const api = withApiSession();
const createIn = (buildingId: string, body: unknown) =>
  api.post(`${THERMOSTATS}/${buildingId}/thermostats`, body);

describe('create', () => {
  it('creates a thermostat in a building (201) with a generated 12-digit id', async () => {
    const buildingId = api.demo.buildings[2]?.buildingId as string;
    const reply = await createIn(buildingId, {
      isResidentMode: true,
      name: 'Unit 999',
      hvacMode: 'heat',
    });
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({
      buildingId,
      name: 'Unit 999',
      hvacMode: 'heat',
      isResidentMode: true,
    });
    expect(reply.body.data.thermostatId).toMatch(/^\d{12}$/);
    expect((await api.get(`${THERMOSTATS}/${reply.body.data.thermostatId}/status`)).status).toBe(
      200,
    );
  });

  it('validates create: isResidentMode required, mode, name length, duplicate id', async () => {
    const buildingId = api.demo.buildings[0]?.buildingId as string;
    expectFail(await createIn(buildingId, { name: 'x' }), 'isResidentMode');
    expectFail(await createIn(buildingId, { isResidentMode: true, hvacMode: 'turbo' }), 'hvacMode');
    expectFail(await createIn(buildingId, { isResidentMode: true, name: 'n'.repeat(65) }), 'name');
    const duplicate = await createIn(buildingId, {
      isResidentMode: true,
      thermostatId: api.thermostatId,
    });
    expect(duplicate.status).toBe(409);
    expect((await createIn('0123456789abcdef01234567', { isResidentMode: true })).status).toBe(404);
  });
});

describe('move', () => {
  it('moves a thermostat to another building of the account', async () => {
    const target = api.demo.buildings[4]?.buildingId as string;
    const move = `${THERMOSTATS}/${api.thermostatId}`;
    const reply = await api.patch(move, { buildingId: target });
    expect(reply.status).toBe(200);
    expect(reply.body.data.buildingId).toBe(target);
    const schedule = (await api.get(`${THERMOSTATS}/${api.thermostatId}/schedule`)).body.data;
    expect(schedule.timeZone).toBe(api.demo.buildings[4]?.timeZone);
    expectFail(await api.patch(move, { buildingId: 'not-hex' }), 'buildingId');
    expectFail(await api.patch(move, {}), 'buildingId');
  });
});
