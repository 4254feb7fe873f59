import { describe, expect, it } from 'vitest';
import { expectFail, THERMOSTATS, withApiSession } from '../helpers';

const api = withApiSession();
const schedule = () => `${THERMOSTATS}/${api.thermostatId}/schedule`;
const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** A comfort setting that no slot of the fixture's schedule uses, so every change shows. */
async function freshRef(): Promise<string> {
  const created = await api.post(`${THERMOSTATS}/${api.thermostatId}/comfortSettings`, {
    name: 'Marker',
    desiredHeat: 66,
    desiredCool: 80,
  });
  expect(created.status, created.text).toBe(201);
  return created.body.data.comfortSettingRef as string;
}

/** The slots (0..47) of a day that hold `ref`. */
const slotsWith = (blocks: string[], ref: string) =>
  blocks.flatMap((value, slot) => (value === ref ? [slot] : []));

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe('schedule', () => {
  it('reads 7 days Monday first with 48 blocks each, and no time zone', async () => {
    const reply = await api.get(schedule());
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body.data)).toEqual(['days']);
    expect(reply.body.data.days.map((day: { day: string }) => day.day)).toEqual(WEEK);
    for (const day of reply.body.data.days) {
      expect(Object.keys(day).sort()).toEqual(['blocks', 'day']);
      expect(day.blocks).toHaveLength(48);
    }
  });

  it('includes firstTimeBlock and stops before lastTimeBlock, on the chosen days only', async () => {
    const ref = await freshRef();
    const before = (await api.get(schedule())).body.data;
    const reply = await api.patch(schedule(), {
      days: ['monday', 'wednesday'],
      firstTimeBlock: '05:00',
      lastTimeBlock: '06:30',
      comfortSettingRef: ref,
    });
    expect(reply.status, reply.text).toBe(200);
    expect(Object.keys(reply.body.data)).toEqual(['days']);
    const days = reply.body.data.days;
    // 05:00 is slot 10, 06:30 slot 13: slots 10, 11 and 12 change, 13 does not.
    expect(slotsWith(days[0].blocks, ref)).toEqual([10, 11, 12]);
    expect(slotsWith(days[2].blocks, ref)).toEqual([10, 11, 12]);
    expect(days[0].blocks[13]).toBe(before.days[0].blocks[13]);
    expect(days[0].blocks[9]).toBe(before.days[0].blocks[9]);
    expect(days[1].blocks).toEqual(before.days[1].blocks);
    expect((await api.get(schedule())).body.data).toEqual(reply.body.data);
  });

  it('a single slot is "07:00"-"07:30"; "23:59" includes the last slot 23:30-24:00', async () => {
    const ref = await freshRef();
    const single = await api.patch(schedule(), {
      days: ['tuesday'],
      firstTimeBlock: '07:00',
      lastTimeBlock: '07:30',
      comfortSettingRef: ref,
    });
    expect(slotsWith(single.body.data.days[1].blocks, ref)).toEqual([14]);
    const last = await api.patch(schedule(), {
      days: ['sunday'],
      firstTimeBlock: '23:30',
      lastTimeBlock: '23:59',
      comfortSettingRef: ref,
    });
    expect(slotsWith(last.body.data.days[6].blocks, ref)).toEqual([47]);
    const evening = await api.patch(schedule(), {
      days: ['saturday'],
      firstTimeBlock: '18:30',
      lastTimeBlock: '23:59',
      comfortSettingRef: ref,
    });
    expect(slotsWith(evening.body.data.days[5].blocks, ref)).toEqual(range(37, 47));
    const beforeMidnight = await api.patch(schedule(), {
      days: ['friday'],
      firstTimeBlock: '22:00',
      lastTimeBlock: '23:30',
      comfortSettingRef: ref,
    });
    expect(slotsWith(beforeMidnight.body.data.days[4].blocks, ref)).toEqual([44, 45, 46]);
  });

  it('a whole day is "00:00"-"23:59"', async () => {
    const ref = await freshRef();
    const reply = await api.patch(schedule(), {
      days: WEEK,
      firstTimeBlock: '00:00',
      lastTimeBlock: '23:59',
      comfortSettingRef: ref,
    });
    expect(reply.status).toBe(200);
    for (const day of reply.body.data.days)
      expect(slotsWith(day.blocks, ref)).toEqual(range(0, 47));
    const morning = await api.patch(schedule(), {
      days: ['monday'],
      firstTimeBlock: '00:00',
      lastTimeBlock: '00:30',
      comfortSettingRef: 'home',
    });
    expect(slotsWith(morning.body.data.days[0].blocks, 'home')).toEqual([0]);
  });

  it('refuses indexes, "24:00", unaligned or unpadded times, and reversed or empty ranges', async () => {
    const valid = {
      days: ['monday'],
      firstTimeBlock: '00:00',
      lastTimeBlock: '01:00',
      comfortSettingRef: 'home',
    };
    const update = (changes: Record<string, unknown>) =>
      api.patch(schedule(), { ...valid, ...changes });
    const before = (await api.get(schedule())).body.data;
    for (const firstTimeBlock of [0, 10, '24:00', '7:00', '07:15', '07:00:00', '23:59', '', null]) {
      const reply = await update({ firstTimeBlock });
      expectFail(reply, 'firstTimeBlock');
      expect(reply.body.data.firstTimeBlock).toContain('"HH:MM" on the half hour');
    }
    for (const lastTimeBlock of [1, 47, 48, '24:00', '7:00', '07:15', '23:45', '00:00', 'noon']) {
      const reply = await update({ lastTimeBlock });
      expectFail(reply, 'lastTimeBlock');
      expect(reply.body.data.lastTimeBlock).toContain('"HH:MM" on the half hour');
      expect(reply.body.data.lastTimeBlock).toContain('"23:59"');
    }
    expectFail(await update({ firstTimeBlock: '08:00', lastTimeBlock: '07:00' }), 'lastTimeBlock');
    expectFail(await update({ firstTimeBlock: '08:00', lastTimeBlock: '08:00' }), 'lastTimeBlock');
    expect((await api.get(schedule())).body.data).toEqual(before);
  });

  it('validates days and the comfort setting ref', async () => {
    const valid = {
      days: ['monday'],
      firstTimeBlock: '00:00',
      lastTimeBlock: '01:00',
      comfortSettingRef: 'home',
    };
    const update = (changes: Record<string, unknown>) =>
      api.patch(schedule(), { ...valid, ...changes });
    expectFail(await update({ days: ['Monday'] }), 'days.0');
    expectFail(await update({ days: ['mon'] }), 'days.0');
    expectFail(await update({ days: [] }), 'days');
    expectFail(await update({ days: 'monday' }), 'days');
    expectFail(await update({ days: ['monday', 'monday'] }), 'days.1');
    expectFail(await update({ comfortSettingRef: 'smart99' }), 'comfortSettingRef');
    expectFail(await update({ timeZone: 'UTC' }), 'timeZone');
    expectFail(
      await api.patch(schedule(), {}),
      'days',
      'firstTimeBlock',
      'lastTimeBlock',
      'comfortSettingRef',
    );
  });
});
