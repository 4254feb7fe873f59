import { describe, expect, it } from 'vitest';
import { expectFail, THERMOSTATS, withApiSession } from '../helpers';

const api = withApiSession();
const settings = (id = api.thermostatId) => `${THERMOSTATS}/${id}/settings`;
const BULK = `${THERMOSTATS}/settings`;

describe('configuration settings', () => {
  it('reads and updates heatRange, coolRange, holdAction, fanMinimumOnTime', async () => {
    const reply = await api.get(settings());
    expect(Object.keys(reply.body.data).sort()).toEqual([
      'coolRange',
      'fanMinimumOnTime',
      'heatRange',
      'holdAction',
    ]);
    const updated = await api.patch(settings(), {
      heatRange: { min: 50, max: 75 },
      coolRange: { min: 70, max: 88 },
      holdAction: 'useEndTime4hour',
      fanMinimumOnTime: 55,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toEqual({
      heatRange: { min: 50, max: 75 },
      coolRange: { min: 70, max: 88 },
      holdAction: 'useEndTime4hour',
      fanMinimumOnTime: 55,
    });
  });

  it('validates ranges, holdAction and fanMinimumOnTime', async () => {
    const update = (body: unknown) => api.patch(settings(), body);
    expectFail(await update({ heatRange: { min: 40, max: 70 } }), 'heatRange.min');
    expectFail(await update({ coolRange: { min: 70, max: 95 } }), 'coolRange.max');
    expectFail(await update({ heatRange: { min: 70, max: 60 } }), 'heatRange.min');
    expectFail(await update({ heatRange: { min: 50 } }), 'heatRange.max');
    expectFail(await update({ holdAction: 'forever' }), 'holdAction');
    expectFail(await update({ holdAction: 'nextTransition' }), 'holdAction');
    expectFail(await update({ fanMinimumOnTime: 56 }), 'fanMinimumOnTime');
    expectFail(await update({ fanMinimumOnTime: 5.5 }), 'fanMinimumOnTime');
    expectFail(await update({ hvacMode: 'cool' }), 'hvacMode');
    expectFail(await update({}), 'body');
    expectFail(await update({ heatRange: { min: 45, max: 60 } }), 'heatRange');
  });

  it('an older device reports holdAction nextTransition on read', async () => {
    const values = new Set<string>();
    for (const { thermostatId } of api.demo.thermostats.slice(0, 8))
      values.add((await api.get(settings(thermostatId))).body.data.holdAction);
    expect(values.has('nextTransition')).toBe(true);
  });
});

describe('bulk settings', () => {
  it('applies to 1..25 thermostats and reports a result for each', async () => {
    const ids = api.demo.thermostats
      .filter((thermostat) => thermostat.thermostatId !== api.offlineId)
      .slice(0, 25)
      .map((thermostat) => thermostat.thermostatId);
    const reply = await api.patch(BULK, { thermostatIds: ids, fanMinimumOnTime: 10 });
    expect(reply.status).toBe(200);
    expect(reply.body.data.results).toHaveLength(25);
    expect(reply.body.data.succeeded).toBe(25);
    expect((await api.get(settings(ids[24]))).body.data.fanMinimumOnTime).toBe(10);
  });

  it('26 ids, 0 ids, bad ids and duplicates are validation errors naming thermostatIds', async () => {
    const ids = api.demo.thermostats.slice(0, 26).map((thermostat) => thermostat.thermostatId);
    const id = api.thermostatId;
    const bulk = (body: unknown) => api.patch(BULK, body);
    expectFail(await bulk({ thermostatIds: ids, fanMinimumOnTime: 10 }), 'thermostatIds');
    expectFail(await bulk({ thermostatIds: [], fanMinimumOnTime: 10 }), 'thermostatIds');
    expectFail(await bulk({ fanMinimumOnTime: 10 }), 'thermostatIds');
    expectFail(await bulk({ thermostatIds: ['abc'], fanMinimumOnTime: 10 }), 'thermostatIds.0');
    expectFail(await bulk({ thermostatIds: [id, id], fanMinimumOnTime: 10 }), 'thermostatIds.1');
    expectFail(await bulk({ thermostatIds: [id], fanMinimumOnTime: 99 }), 'fanMinimumOnTime');
  });

  it('the offline thermostat fails alone', async () => {
    const reply = await api.patch(BULK, {
      thermostatIds: [api.thermostatId, api.offlineId],
      holdAction: 'indefinite',
    });
    expect(reply.body.data.results[0].status).toBe('success');
    expect(reply.body.data.results[1]).toMatchObject({
      status: 'error',
      code: 'thermostat_offline',
    });
    expect(reply.body.data.failed).toBe(1);
  });
});
