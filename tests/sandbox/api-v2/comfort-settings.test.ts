import { describe, expect, it } from 'vitest';
import { expectFail, THERMOSTATS, withApiSession } from '../helpers';

const api = withApiSession();
const comfortSettings = (id = api.thermostatId) => `${THERMOSTATS}/${id}/comfortSettings`;

describe('comfort settings', () => {
  it('reads every setting of the thermostat, each with its ref', async () => {
    const reply = await api.get(comfortSettings());
    expect(Array.isArray(reply.body.data)).toBe(true);
    for (const setting of reply.body.data) {
      expect(Object.keys(setting).sort()).toEqual([
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
    for (const { thermostatId } of api.demo.thermostats.slice(0, 12)) {
      const list = (await api.get(comfortSettings(thermostatId))).body.data ?? [];
      custom += list.filter((setting: { comfortSettingRef: string }) =>
        setting.comfortSettingRef.startsWith('smart'),
      ).length;
    }
    expect(custom).toBeGreaterThan(0);
  });

  it('creates (201, smartN ref), updates by ref and deletes (204)', async () => {
    const created = await api.post(comfortSettings(), {
      name: 'Holiday',
      desiredHeat: 64,
      desiredCool: 80,
      fanHeat: 'auto',
      fanCool: 'on',
    });
    expect(created.status).toBe(201);
    const ref = created.body.data.comfortSettingRef as string;
    expect(ref).toMatch(/^smart\d+$/);
    const updated = await api.patch(comfortSettings(), {
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
    expect((await api.delete(`${comfortSettings()}/${ref}`)).status).toBe(204);
    expect((await api.delete(`${comfortSettings()}/${ref}`)).status).toBe(404);
  });

  it('setpoints must be inside the ranges and heatCoolMinDelta apart', async () => {
    const status = (await api.get(`${THERMOSTATS}/${api.thermostatId}/status`)).body.data;
    const delta = status.heatCoolMinDelta as number;
    const create = (body: unknown) => api.post(comfortSettings(), body);
    const update = (body: unknown) => api.patch(comfortSettings(), body);
    expectFail(
      await create({ name: 'A', desiredHeat: 72, desiredCool: 72 + delta - 1 }),
      'desiredHeat',
      'desiredCool',
    );
    expectFail(await create({ name: 'B', desiredHeat: 40, desiredCool: 80 }), 'desiredHeat');
    expectFail(await create({ name: 'C', desiredHeat: 60, desiredCool: 95 }), 'desiredCool');
    expectFail(await create({ name: 'D', desiredHeat: 60.123, desiredCool: 80 }), 'desiredHeat');
    expectFail(await create({ desiredHeat: 60, desiredCool: 80 }), 'name');
    expectFail(
      await create({ name: 'E', desiredHeat: 60, desiredCool: 80, fanHeat: 'max' }),
      'fanHeat',
    );
    const narrowed = await api.patch(`${THERMOSTATS}/${api.thermostatId}/settings`, {
      heatRange: { min: 55, max: 72 },
    });
    expect(narrowed.status).toBe(200);
    expectFail(await create({ name: 'F', desiredHeat: 74, desiredCool: 80 }), 'desiredHeat');
    expectFail(await update({ comfortSettingRef: 'home', desiredCool: 70 }), 'desiredCool');
    expectFail(await update({ comfortSettingRef: 'nope', name: 'x' }), 'comfortSettingRef');
    expectFail(await update({ name: 'x' }), 'comfortSettingRef');
    expectFail(await update({ comfortSettingRef: 'home', name: 'Away' }), 'name');
  });

  it('a comfort setting used by the schedule (or a default) cannot be deleted', async () => {
    const created = await api.post(comfortSettings(), {
      name: 'Night Owl',
      desiredHeat: 66,
      desiredCool: 79,
    });
    const ref = created.body.data.comfortSettingRef as string;
    await api.patch(`${THERMOSTATS}/${api.thermostatId}/schedule`, {
      days: ['saturday'],
      firstTimeBlock: '00:00',
      lastTimeBlock: '02:00',
      comfortSettingRef: ref,
    });
    expectFail(await api.delete(`${comfortSettings()}/${ref}`), 'comfortSettingRef');
    expectFail(await api.delete(`${comfortSettings()}/home`), 'comfortSettingRef');
  });
});
