import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewBulkChange } from '@/lib/bulk/runs';
import type { DatabaseHandle } from '@/lib/db/client';
import { listHeatCoolGaps } from '@/lib/comfort/heat-cool-gaps-store';
import type { Member } from '@/lib/auth/store';
import { addThermostat, ensureBuilding } from '@/lib/portfolio/store';
import { saveReading } from '@/lib/readings/store';
import {
  heatCoolGapOf,
  heatCoolGapRange,
  heatCoolGapRule,
  heatCoolGapWords,
  validateConfiguration,
} from '@/lib/settings/configuration';
import { databaseTargets, useDatabase } from '../support/database';
import { createFirstOwner, createOrganizationWithOwner, inviteAndAccept } from '../support/members';

/**
 * One heat–cool gap rule: a thermostat's own minimum gap where a status of it says it (read now,
 * or kept in the readings store), the service's default of 5 °F only where none does; a bulk
 * change keeps the largest gap among the thermostats selected, and says whose it is.
 */

describe('the gap rule, in words', () => {
  it('one thermostat: the gap read now, else the one kept, else the default', () => {
    const read = { status: 'fulfilled' as const, value: { heatCoolMinDelta: 3 } };
    const failed = { status: 'rejected' as const, reason: new Error('down') };
    expect(heatCoolGapOf(read)).toBe(3);
    expect(heatCoolGapOf(read, 4)).toBe(3);
    expect(heatCoolGapOf(failed, 2)).toBe(2);
    expect(heatCoolGapOf(failed, null)).toBe(5);
    expect(heatCoolGapOf(failed)).toBe(5);
  });

  it('many thermostats: the largest of their own gaps, and whose it is', () => {
    expect(
      heatCoolGapRule([
        { label: 'Unit 1', gap: 3 },
        { label: 'Unit 2', gap: 2 },
      ]),
    ).toEqual({ gap: 3, holders: ['Unit 1'], assumed: false });
    expect(
      heatCoolGapRule([
        { label: 'Unit 1', gap: 4 },
        { label: 'Unit 2', gap: 3 },
        { label: 'Unit 3', gap: 4 },
      ]),
    ).toEqual({ gap: 4, holders: ['Unit 1', 'Unit 3'], assumed: false });
    // Not read yet: the service's default is assumed for it, and it is named.
    expect(
      heatCoolGapRule([
        { label: 'Unit 1', gap: 3 },
        { label: 'Unit 9', gap: null },
      ]),
    ).toEqual({ gap: 5, holders: ['Unit 9'], assumed: true });
    // A thermostat whose own gap is the default's is named before one only assumed to have it.
    expect(
      heatCoolGapRule([
        { label: 'Unit 9', gap: null },
        { label: 'Unit 5', gap: 5 },
      ]),
    ).toEqual({ gap: 5, holders: ['Unit 5'], assumed: false });
    expect(heatCoolGapRule([])).toEqual({ gap: 5, holders: [], assumed: true });
  });

  it('says why the gap is what it is, in the member’s unit', () => {
    expect(heatCoolGapWords({ gap: 3, holders: ['Unit 1'], assumed: false }, 'F')).toBe(
      '3 °F is the largest minimum heat–cool gap among the selected thermostats (Unit 1).',
    );
    expect(
      heatCoolGapWords({ gap: 4, holders: ['Unit 1', 'Unit 3', 'Unit 8'], assumed: false }, 'F'),
    ).toBe(
      '4 °F is the largest minimum heat–cool gap among the selected thermostats (Unit 1 and 2 more).',
    );
    expect(heatCoolGapWords({ gap: 5, holders: ['Unit 9'], assumed: true }, 'F')).toBe(
      'Unit 9 has not been read yet, so the service’s default minimum gap of 5 °F is assumed.',
    );
    expect(heatCoolGapWords({ gap: 3.6, holders: ['Unit 1'], assumed: false }, 'C')).toMatch(
      /^2 °C is the largest/,
    );
  });

  it('the form states one gap where every thermostat shares it, else the rule and its span', () => {
    expect(heatCoolGapRange([3, 3], 'F')).toBe('3 °F');
    expect(heatCoolGapRange([null, 5], 'F')).toBe('5 °F');
    expect(heatCoolGapRange([], 'F')).toBe('5 °F');
    expect(heatCoolGapRange([2, null, 3], 'F')).toBe(
      'the largest minimum heat–cool gap among the selected thermostats (2 °F to 5 °F across yours)',
    );
  });

  it('a range too close says the gap and why, and the default words stay for one thermostat', () => {
    const values = { heatMin: '63', heatMax: '72', coolMin: '65', coolMax: '75' };
    const bulk = validateConfiguration(values, {
      unit: 'F',
      heatCoolMinDelta: 3,
      gapWords:
        '3 °F is the largest minimum heat–cool gap among the selected thermostats (Unit 1).',
    });
    expect(bulk.ok).toBe(false);
    if (!bulk.ok) {
      expect(bulk.fieldErrors.coolMin).toEqual([
        'Keep the cool minimum at least 3 °F above the heat minimum (63 °F): 3 °F is the largest minimum heat–cool gap among the selected thermostats (Unit 1).',
      ]);
      expect(bulk.fieldErrors.coolMax).toBeUndefined();
    }
    const one = validateConfiguration(values, { unit: 'F', heatCoolMinDelta: 3 });
    expect(one.ok).toBe(false);
    if (!one.ok) {
      expect(one.fieldErrors.coolMin?.[0]).toMatch(
        /heat and cool setpoints must stay 3 °F apart\.$/,
      );
    }
    expect(
      validateConfiguration({ ...values, heatMin: '62' }, { unit: 'F', heatCoolMinDelta: 3 }).ok,
    ).toBe(true);
  });
});

const NORTH = '00000000000000000000a0a1';
const SOUTH = '00000000000000000000b0b1';
const id = (n: number) => String(300000000000 + n);
/** Three ranges 3 °F apart: heat 62–72, cool 65–75. */
const THREE_APART = { heatMin: '62', heatMax: '72', coolMin: '65', coolMax: '75' };

describe.each(databaseTargets)(
  'a bulk change keeps each thermostat’s own gap on $name',
  ({ target }) => {
    let handle: DatabaseHandle;
    let owner: Member;
    let southManager: Member;

    /** A status kept for the thermostat, as a read of the service leaves it. */
    async function readWithGap(member: Member, thermostatId: string, gap: number) {
      await saveReading({
        orgId: member.orgId,
        thermostatId,
        status: {
          isResidentMode: true,
          setPoint: { desiredHeat: 68, desiredCool: 75 },
          hvacMode: 'auto',
          connected: true,
          heatCoolMinDelta: gap,
        },
        sample: {
          temperature: 70,
          humidity: 40,
          desiredHeat: 68,
          desiredCool: 75,
          hvacMode: 'auto',
          equipment: null,
          connected: true,
        },
      });
    }

    beforeAll(async () => {
      handle = await useDatabase(await target());
      owner = await createFirstOwner('owner@gap.example', 'Gap Property');
      await ensureBuilding({
        orgId: owner.orgId,
        buildingId: NORTH,
        name: 'North',
        timeZone: 'UTC',
      });
      await ensureBuilding({
        orgId: owner.orgId,
        buildingId: SOUTH,
        name: 'South',
        timeZone: 'UTC',
      });
      for (const [n, buildingId] of [
        [1, NORTH],
        [2, NORTH],
        [3, NORTH],
        [4, SOUTH],
      ] as const) {
        await addThermostat({
          orgId: owner.orgId,
          thermostatId: id(n),
          buildingId,
          unitLabel: `Unit ${n}`,
        });
      }
      await readWithGap(owner, id(1), 3);
      await readWithGap(owner, id(2), 4);
      // id(3) has never been read.
      await readWithGap(owner, id(4), 2);
      southManager = await inviteAndAccept(owner.orgId, 'south@gap.example', 'building_manager', [
        SOUTH,
      ]);
      // Another organisation's reading of the same thermostat id is never its gap here.
      const other = await createOrganizationWithOwner('owner@elsewhere.example', 'Elsewhere');
      await ensureBuilding({ orgId: other.orgId, buildingId: NORTH, name: 'N', timeZone: 'UTC' });
      await addThermostat({
        orgId: other.orgId,
        thermostatId: id(3),
        buildingId: NORTH,
        unitLabel: 'X',
      });
      await readWithGap(other, id(3), 1);
    });

    afterAll(async () => {
      await handle.close();
    });

    it('reads each thermostat’s kept gap, in scope only, null where none is kept', async () => {
      const gaps = await listHeatCoolGaps({ scope: owner });
      expect(new Map(gaps.map((g) => [g.thermostatId, g.gap]))).toEqual(
        new Map([
          [id(1), 3],
          [id(2), 4],
          [id(3), null],
          [id(4), 2],
        ]),
      );
      expect(await listHeatCoolGaps({ scope: southManager })).toEqual([
        { thermostatId: id(4), gap: 2 },
      ]);
      expect(await listHeatCoolGaps({ scope: owner, thermostatIds: [] })).toEqual([]);
    });

    it('ranges 3 °F apart go to a thermostat whose own gap is 3 °F, saying the rule', async () => {
      const reviewed = await reviewBulkChange({
        member: owner,
        thermostatIds: [id(1)],
        values: THREE_APART,
      });
      expect(reviewed.ok).toBe(true);
      if (!reviewed.ok) return;
      expect(reviewed.review.gap).toBe(
        'Each cool limit stays at least 3 °F above its heat limit. 3 °F is the largest minimum heat–cool gap among the selected thermostats (Unit 1).',
      );
      // A change without both ranges has no gap to keep.
      const fan = await reviewBulkChange({
        member: owner,
        thermostatIds: [id(1)],
        values: { fanMinimumOnTime: '10' },
      });
      expect(fan.ok && fan.review.gap).toBe(undefined);
    });

    it('with a thermostat whose gap is larger, or not known, the larger one is kept and named', async () => {
      const wider = await reviewBulkChange({
        member: owner,
        thermostatIds: [id(1), id(2)],
        values: THREE_APART,
      });
      expect(wider).toMatchObject({ ok: false, code: 'invalid' });
      if (!wider.ok) {
        expect(wider.fieldErrors?.coolMin).toEqual([
          'Keep the cool minimum at least 4 °F above the heat minimum (62 °F): 4 °F is the largest minimum heat–cool gap among the selected thermostats (Unit 2).',
        ]);
      }
      const unread = await reviewBulkChange({
        member: owner,
        thermostatIds: [id(1), id(3)],
        values: THREE_APART,
      });
      expect(unread).toMatchObject({ ok: false, code: 'invalid' });
      if (!unread.ok) {
        expect(unread.fieldErrors?.coolMin?.[0]).toMatch(
          /at least 5 °F above .*: Unit 3 has not been read yet, so the service’s default minimum gap of 5 °F is assumed\.$/,
        );
      }
      // Each thermostat's own: 4 °F apart suits both once the gap-4 one is the widest.
      const fourApart = { heatMin: '61', heatMax: '71', coolMin: '65', coolMax: '75' };
      expect(
        (
          await reviewBulkChange({
            member: owner,
            thermostatIds: [id(1), id(2)],
            values: fourApart,
          })
        ).ok,
      ).toBe(true);
    });

    it('a building manager’s change is checked against their thermostats’ gaps', async () => {
      const twoApart = { heatMin: '63', heatMax: '73', coolMin: '65', coolMax: '75' };
      expect(
        (await reviewBulkChange({ member: southManager, thermostatIds: [id(4)], values: twoApart }))
          .ok,
      ).toBe(true);
      // Outside their buildings: refused for scope before any gap is read.
      expect(
        await reviewBulkChange({ member: southManager, thermostatIds: [id(1)], values: twoApart }),
      ).toMatchObject({ ok: false, code: 'forbidden' });
    });
  },
);
