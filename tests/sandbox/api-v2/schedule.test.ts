import { describe, expect, it } from 'vitest';
import { expectFail, THERMOSTATS, withApiSession } from '../helpers';

const api = withApiSession();
const schedule = () => `${THERMOSTATS}/${api.thermostatId}/schedule`;

describe('schedule', () => {
  it('reads 7 days Monday first with 48 blocks each', async () => {
    const reply = await api.get(schedule());
    expect(reply.body.data.days.map((day: { day: string }) => day.day)).toEqual([
      'monday',
      'tuesday',
      'wednesday',
      'thursday',
      'friday',
      'saturday',
      'sunday',
    ]);
    for (const day of reply.body.data.days) expect(day.blocks).toHaveLength(48);
    expect(typeof reply.body.data.timeZone).toBe('string');
  });

  it('updates a range of blocks on chosen days only', async () => {
    const reply = await api.patch(schedule(), {
      days: ['monday', 'wednesday'],
      firstTimeBlock: 10,
      lastTimeBlock: 12,
      comfortSettingRef: 'away',
    });
    expect(reply.status).toBe(200);
    const days = reply.body.data.days;
    expect(days[0].blocks.slice(10, 13)).toEqual(['away', 'away', 'away']);
    expect(days[2].blocks[11]).toBe('away');
    expect(days[1].blocks[11]).toBe('sleep');
    const single = await api.patch(schedule(), {
      days: ['sunday'],
      firstTimeBlock: 47,
      lastTimeBlock: 47,
      comfortSettingRef: 'home',
    });
    expect(single.body.data.days[6].blocks[47]).toBe('home');
  });

  it('validates days, blocks 0..47, order and the comfort setting ref', async () => {
    const valid = {
      days: ['monday'],
      firstTimeBlock: 0,
      lastTimeBlock: 1,
      comfortSettingRef: 'home',
    };
    const update = (changes: Record<string, unknown>) =>
      api.patch(schedule(), { ...valid, ...changes });
    expectFail(await update({ days: ['Monday'] }), 'days.0');
    expectFail(await update({ days: [] }), 'days');
    expectFail(await update({ days: ['monday', 'monday'] }), 'days.1');
    expectFail(await update({ firstTimeBlock: -1 }), 'firstTimeBlock');
    expectFail(await update({ lastTimeBlock: 48 }), 'lastTimeBlock');
    expectFail(await update({ firstTimeBlock: 1.5 }), 'firstTimeBlock');
    expectFail(await update({ firstTimeBlock: 5, lastTimeBlock: 4 }), 'firstTimeBlock');
    expectFail(await update({ comfortSettingRef: 'smart99' }), 'comfortSettingRef');
    expectFail(
      await api.patch(schedule(), {}),
      'days',
      'firstTimeBlock',
      'lastTimeBlock',
      'comfortSettingRef',
    );
  });
});
