import { describe, expect, it } from 'vitest';
import { expectError, expectFail, THERMOSTATS, withApiSession } from '../helpers';

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
      holdAction: '4hour',
      fanMinimumOnTime: 55,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toEqual({
      heatRange: { min: 50, max: 75 },
      coolRange: { min: 70, max: 88 },
      holdAction: '4hour',
      fanMinimumOnTime: 55,
    });
    expect((await api.get(settings())).body.data).toEqual(updated.body.data);
  });

  it('holdAction reads and writes exactly the production values', async () => {
    for (const holdAction of ['indefinite', 'nextTransition', '2hour', '4hour', 'askMe']) {
      const reply = await api.patch(settings(), { holdAction });
      expect(reply.status, holdAction).toBe(200);
      expect(reply.body.data.holdAction).toBe(holdAction);
      expect((await api.get(settings())).body.data.holdAction).toBe(holdAction);
    }
  });

  it("the consumer API's hold names are refused, naming the production value", async () => {
    await api.patch(settings(), { holdAction: 'askMe' });
    const legacy: Array<[string, string]> = [
      ['nextPeriod', 'nextTransition'],
      ['useEndTime2hour', '2hour'],
      ['useEndTime4hour', '4hour'],
    ];
    for (const [old, production] of legacy) {
      const reply = await api.patch(settings(), { holdAction: old });
      expectFail(reply, 'holdAction');
      expect(reply.body.data.holdAction).toContain(`use ${production}`);
      const bulk = await api.patch(BULK, { thermostatIds: [api.thermostatId], holdAction: old });
      expectFail(bulk, 'holdAction');
      expect(bulk.body.data.holdAction).toContain(`use ${production}`);
    }
    expect((await api.get(settings())).body.data.holdAction).toBe('askMe');
  });

  it('validates ranges, holdAction and fanMinimumOnTime', async () => {
    const update = (body: unknown) => api.patch(settings(), body);
    expectFail(await update({ heatRange: { min: 40, max: 70 } }), 'heatRange.min');
    expectFail(await update({ coolRange: { min: 70, max: 95 } }), 'coolRange.max');
    expectFail(await update({ heatRange: { min: 70, max: 60 } }), 'heatRange.min');
    expectFail(await update({ heatRange: { min: 50 } }), 'heatRange.max');
    expectFail(await update({ holdAction: 'forever' }), 'holdAction');
    expectFail(await update({ holdAction: 'NextTransition' }), 'holdAction');
    expectFail(await update({ holdAction: 2 }), 'holdAction');
    expectFail(await update({ fanMinimumOnTime: 56 }), 'fanMinimumOnTime');
    expectFail(await update({ fanMinimumOnTime: 5.5 }), 'fanMinimumOnTime');
    expectFail(await update({ hvacMode: 'cool' }), 'hvacMode');
    expectFail(await update({}), 'body');
    expectFail(await update({ heatRange: { min: 45, max: 60 } }), 'heatRange');
  });

  it('the demo fixture mixes the production hold actions: mostly nextTransition', async () => {
    const counts: Record<string, number> = {};
    for (const { thermostatId } of api.demo.thermostats) {
      const { holdAction } = (await api.get(settings(thermostatId))).body.data;
      counts[holdAction] = (counts[holdAction] ?? 0) + 1;
    }
    expect(Object.keys(counts).sort()).toEqual(['2hour', 'askMe', 'indefinite', 'nextTransition']);
    expect(counts.askMe).toBe(1);
    expect(counts.indefinite).toBe(1);
    expect(counts.nextTransition).toBeGreaterThan(counts['2hour'] ?? 0);
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
    expect(Object.keys(reply.body.data).sort()).toEqual(['failed', 'results', 'succeeded']);
    expect(reply.body.data.results).toHaveLength(25);
    expect(reply.body.data.succeeded).toBe(25);
    expect(reply.body.data.failed).toBe(0);
    expect(reply.body.data.results[0]).toEqual({
      thermostatId: ids[0],
      status: 'success',
      data: (await api.get(settings(ids[0]))).body.data,
    });
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
    expect(reply.body.data.results[1]).toEqual({
      thermostatId: api.offlineId,
      status: 'error',
      message: { error: 'thermostat_offline', description: expect.any(String) },
      code: 409,
    });
    expect(reply.body.data.failed).toBe(1);
  });

  it('an item whose comfort settings fall outside a new range fails with field errors', async () => {
    const reply = await api.patch(BULK, {
      thermostatIds: [api.thermostatId],
      heatRange: { min: 45, max: 60 },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data.results[0]).toEqual({
      thermostatId: api.thermostatId,
      status: 'fail',
      data: { heatRange: expect.any(String) },
    });
    expect(reply.body.data).toMatchObject({ succeeded: 0, failed: 1 });
  });

  it('the single update of an offline thermostat answers 409 in the error envelope', async () => {
    expectError(
      await api.patch(settings(api.offlineId), { holdAction: 'indefinite' }),
      409,
      'thermostat_offline',
    );
  });
});
