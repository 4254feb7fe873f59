import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyUpdates,
  diffSchedule,
  sameTargetUpdates,
  type Week,
} from '@/lib/templates/schedule-diff';
import type { ScheduleRange } from '@/lib/service/schemas';
import { DAYS } from '@/lib/service/schemas';
import { fillDay, residentialSchedule } from '@/sandbox/src/store';

// ---------------------------------------------------------------------------------------------
// Weeks of the sandbox's fixtures: its default week, and the office and quiet-hours profiles as
// sandbox/src/fixtures.ts builds them.

const fill = fillDay;
const residential = residentialSchedule;
const week = (dayOf: (dayIndex: number) => string[]) => DAYS.map((_, index) => dayOf(index));
const allDay = (ref: string) => week(() => new Array<string>(48).fill(ref));
const office = () =>
  week((index) => {
    const day = new Array<string>(48).fill('away');
    return index < 5 ? fill(day, 15, 36, 'smart1') : day;
  });
const quiet = () => residential().map((day) => fill(fill(day, 0, 11, 'smart2'), 44, 47, 'smart2'));

const update = (
  days: (typeof DAYS)[number][],
  firstSlot: number,
  lastSlot: number,
  comfortSettingRef: string,
): ScheduleRange => ({ days, firstSlot, lastSlot, comfortSettingRef });

describe('diffSchedule: examples', () => {
  it('sends nothing for an unchanged week', () => {
    expect(diffSchedule(residential(), residential())).toEqual({
      updates: [],
      provenFewest: true,
    });
  });

  it('paints a big range and then a smaller one inside it, when that is fewer', () => {
    // Sleep 00:00–06:30, Home 06:30–22:30, Sleep after: three runs, two updates.
    const target = week(() => fill(new Array<string>(48).fill('sleep'), 13, 44, 'home'));
    const result = diffSchedule(allDay('away'), target);
    expect(result.updates).toEqual([
      update([...DAYS], 0, 47, 'sleep'),
      update([...DAYS], 13, 44, 'home'),
    ]);
    expect(result.provenFewest).toBe(true);
  });

  it('groups days that are not next to each other into one update', () => {
    const target = residential();
    fill(target[0] as string[], 20, 23, 'home');
    fill(target[4] as string[], 20, 23, 'home');
    expect(diffSchedule(residential(), target).updates).toEqual([
      update(['monday', 'friday'], 20, 23, 'home'),
    ]);
  });

  it('shares updates between days whose targets differ (fewer than per-kind-of-day lists)', () => {
    // Residential to office: everything Away, then Office Hours on weekdays: 2 updates, where
    // lists that never mix weekdays with weekends need 3.
    const result = diffSchedule(residential(), office());
    expect(result.updates).toEqual([
      update([...DAYS], 0, 47, 'away'),
      update(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'], 15, 36, 'smart1'),
    ]);
    expect(result.provenFewest).toBe(true);
    expect(sameTargetUpdates(residential(), office())).toHaveLength(3);
  });

  it('proves the fleet fixtures’ changes fewest, quickly', () => {
    const weeks = { residential, office, quiet, home: () => allDay('home') };
    const expected: [keyof typeof weeks, keyof typeof weeks, number][] = [
      ['residential', 'quiet', 2],
      ['quiet', 'residential', 4],
      ['office', 'residential', 4],
      ['home', 'residential', 4],
      ['office', 'quiet', 5],
    ];
    for (const [from, to, count] of expected) {
      const started = performance.now();
      const result = diffSchedule(weeks[from](), weeks[to]());
      expect(performance.now() - started).toBeLessThan(1000);
      expect(result.updates, `${from} to ${to}`).toHaveLength(count);
      expect(result.provenFewest).toBe(true);
      expect(applyUpdates(weeks[from](), result.updates)).toEqual(weeks[to]());
    }
  });

  it('refuses weeks of different shapes', () => {
    expect(() => diffSchedule(residential(), residential().slice(0, 6))).toThrow(/days/);
    const short = residential();
    short[2] = (short[2] as string[]).slice(0, 47);
    expect(() => diffSchedule(residential(), short)).toThrow(/blocks/);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties on whole weeks

const REFS = ['home', 'away', 'sleep', 'smart1', 'smart2'];

/** A realistic week: one background setting and a few runs, the same on some days. */
const runWeek = (refs: string[]) =>
  fc
    .record({
      background: fc.constantFrom(...refs),
      kinds: fc.array(
        fc.array(
          fc.record({
            first: fc.integer({ min: 0, max: 47 }),
            length: fc.integer({ min: 1, max: 20 }),
            ref: fc.constantFrom(...refs),
          }),
          { maxLength: 5 },
        ),
        { minLength: 1, maxLength: 3 },
      ),
      kindOfDay: fc.array(fc.nat(), { minLength: 7, maxLength: 7 }),
    })
    .map(({ background, kinds, kindOfDay }) =>
      kindOfDay.map((n) => {
        const day = new Array<string>(48).fill(background);
        for (const run of kinds[n % kinds.length] ?? [])
          fill(day, run.first, Math.min(47, run.first + run.length - 1), run.ref);
        return day;
      }),
    );

const randomWeek = fc.array(
  fc.array(fc.constantFrom(...REFS.slice(0, 3)), { minLength: 48, maxLength: 48 }),
  {
    minLength: 7,
    maxLength: 7,
  },
);

const anyWeek = fc.oneof(runWeek(REFS), runWeek(REFS.slice(0, 3)), randomWeek);

function expectWellFormed(updates: readonly ScheduleRange[]) {
  for (const u of updates) {
    expect(u.days.length).toBeGreaterThan(0);
    // Each day once, Monday first: what the service (and lib/schedule/schemas.ts) takes.
    expect(u.days).toEqual(DAYS.filter((day) => u.days.includes(day)));
    expect(Number.isInteger(u.firstSlot) && Number.isInteger(u.lastSlot)).toBe(true);
    expect(0 <= u.firstSlot && u.firstSlot <= u.lastSlot).toBe(true);
    expect(u.lastSlot).toBeLessThanOrEqual(47);
  }
}

describe('diffSchedule: properties on whole weeks', () => {
  it('applying the updates to any current week gives the target, never more than the same-target list', () => {
    fc.assert(
      fc.property(anyWeek, anyWeek, (current, target) => {
        const result = diffSchedule(current, target, { nodeLimit: 800 });
        expectWellFormed(result.updates);
        expect(applyUpdates(current, result.updates)).toEqual(target);
        const sameTarget = sameTargetUpdates(current, target);
        expect(applyUpdates(current, sameTarget)).toEqual(target);
        expect(result.updates.length).toBeLessThanOrEqual(sameTarget.length);
      }),
      { numRuns: 60 },
    );
  });

  it('is never longer than a list known to work, when proven fewest', () => {
    const change = fc.record({
      days: fc.subarray([...DAYS], { minLength: 1 }),
      first: fc.integer({ min: 0, max: 47 }),
      length: fc.integer({ min: 1, max: 48 }),
      ref: fc.constantFrom(...REFS),
    });
    fc.assert(
      fc.property(runWeek(REFS), fc.array(change, { maxLength: 4 }), (current, changes) => {
        const known = changes.map((c) =>
          update(c.days, c.first, Math.min(47, c.first + c.length - 1), c.ref),
        );
        const target = applyUpdates(current, known);
        const result = diffSchedule(current, target);
        expect(applyUpdates(current, result.updates)).toEqual(target);
        if (result.provenFewest) expect(result.updates.length).toBeLessThanOrEqual(known.length);
      }),
      { numRuns: 40 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Minimality, by brute force on grids small enough to try every list of updates

/**
 * The fewest updates from `current` to `target`, by breadth-first search over every grid
 * reachable with updates of any non-empty day set (`allowed` may restrict them), any block
 * range and any value present: nothing clever, so it can check the clever code.
 */
function fewestByBruteForce(
  current: Week,
  target: Week,
  allowed: (daysMask: number) => boolean = () => true,
): number {
  const days = current.length;
  const blocks = current[0]?.length ?? 0;
  const values = [...new Set([...current.flat(), ...target.flat()])];
  const k = values.length;
  const cells = days * blocks;
  const place = Array.from({ length: cells }, (_, cell) => k ** cell);
  const encode = (grid: Week) =>
    grid
      .flat()
      .reduce((code, ref, cell) => code + values.indexOf(ref) * (place[cell] as number), 0);
  const updates: { cells: number[]; value: number }[] = [];
  for (let mask = 1; mask < 1 << days; mask++) {
    if (!allowed(mask)) continue;
    for (let first = 0; first < blocks; first++)
      for (let last = first; last < blocks; last++)
        for (let value = 0; value < k; value++) {
          const covered: number[] = [];
          for (let d = 0; d < days; d++)
            if (mask & (1 << d)) for (let i = first; i <= last; i++) covered.push(d * blocks + i);
          updates.push({ cells: covered, value });
        }
  }
  const goal = encode(target);
  const seen = new Uint8Array(k ** cells);
  let frontier = [encode(current)];
  seen[frontier[0] as number] = 1;
  for (let depth = 0; frontier.length > 0; depth++) {
    if (frontier.includes(goal)) return depth;
    const next: number[] = [];
    for (const state of frontier) {
      for (const { cells: covered, value } of updates) {
        let after = state;
        for (const cell of covered) {
          const unit = place[cell] as number;
          after += (value - (Math.floor(after / unit) % k)) * unit;
        }
        if (!seen[after]) {
          seen[after] = 1;
          next.push(after);
        }
      }
    }
    frontier = next;
  }
  throw new Error('unreachable target');
}

/** (days, blocks, values): at most ~20,000 grids each, so the search takes milliseconds. */
const SHAPES = [
  { days: 1, blocks: 8, values: 3 },
  { days: 2, blocks: 4, values: 3 },
  { days: 3, blocks: 3, values: 3 },
  { days: 3, blocks: 4, values: 2 },
  { days: 4, blocks: 3, values: 2 },
  { days: 6, blocks: 2, values: 2 },
];

const smallGrids = fc.constantFrom(...SHAPES).chain(({ days, blocks, values }) => {
  const grid = fc.array(
    fc.array(fc.constantFrom(...REFS.slice(0, values)), { minLength: blocks, maxLength: blocks }),
    { minLength: days, maxLength: days },
  );
  return fc.record({ current: grid, target: grid });
});

describe('diffSchedule: minimality by brute force on small grids', () => {
  it('no shorter list of updates exists, and the search says it proved so', () => {
    fc.assert(
      fc.property(smallGrids, ({ current, target }) => {
        const result = diffSchedule(current, target);
        expect(applyUpdates(current, result.updates)).toEqual(target);
        expect(result.provenFewest).toBe(true);
        expect(result.updates).toHaveLength(fewestByBruteForce(current, target));
      }),
      { numRuns: 120 },
    );
  });

  it('the same-target list is the fewest among lists whose updates never mix target days', () => {
    fc.assert(
      fc.property(smallGrids, ({ current, target }) => {
        const kinds = target.map((day) => day.join(','));
        const sameKind = (mask: number) => {
          const chosen = kinds.filter((_, d) => mask & (1 << d));
          return chosen.every((kind) => kind === chosen[0]);
        };
        const list = sameTargetUpdates(current, target);
        expect(applyUpdates(current, list)).toEqual(target);
        expect(list).toHaveLength(fewestByBruteForce(current, target, sameKind));
      }),
      { numRuns: 100 },
    );
  });
});
