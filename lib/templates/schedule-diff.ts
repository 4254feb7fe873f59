import { applyRange } from '@/lib/schedule/blocks';
import type { ScheduleRange } from '@/lib/service/schemas';
import { DAYS } from '@/lib/service/schemas';

/**
 * The fewest schedule range updates that turn one week into another.
 *
 * An update (`days`, `firstSlot`, `lastSlot`, `comfortSettingRef`) sets one block range
 * of one day to a comfort setting, on any set of days at once (the days need not be adjacent; the
 * range never wraps past midnight). Updates run in order, so a later one may paint over an
 * earlier one: "Sleep all day, then Home 06:30–22:30" is two updates where painting each run
 * separately is three.
 *
 * What is guaranteed (docs/templates.md says it in words; the unit tests check each):
 * 1. Applying `updates` in order to `current` gives exactly `target`; an unchanged week gives none.
 * 2. Never more updates than the fewest list in which an update spans only days that are to end
 *    up identical ("same-target" lists, computed exactly below, by interval dynamic programming).
 * 3. When `provenFewest` is true, no list of range updates at all is shorter. An exhaustive search
 *    proves it; it is bounded (`nodeLimit`), and when the bound cuts it short the best list found
 *    so far is returned with `provenFewest: false`. Weeks that differ in a few runs, as a template
 *    and a thermostat's week usually do, are proven well within the bound.
 *
 * The exact problem (repaint a grid with rectangles of arbitrary day sets, in order) is a
 * two-dimensional "strange printer"; its one-dimensional form has a cubic dynamic program, used
 * here per target day, but sharing updates between days with different targets has no known
 * efficient exact method, hence the bounded search for that part.
 */

/** A week as `lib/schedule/load.ts` reads it: 7 days (Monday first) of 48 comfort-setting refs. */
export type Week = readonly (readonly string[])[];

export type ScheduleDiff = {
  /** In the order they must be sent. */
  updates: ScheduleRange[];
  /** Whether no shorter list of range updates exists at all (see guarantee 3). */
  provenFewest: boolean;
};

/**
 * Search nodes before giving up on a proof. A node costs about 10–50 µs on a 7 x 48 week, so a
 * thermostat's plan stays within a fraction of a second even when the proof is cut short.
 */
export const DEFAULT_NODE_LIMIT = 4000;

export function diffSchedule(
  current: Week,
  target: Week,
  options: { nodeLimit?: number } = {},
): ScheduleDiff {
  const grid = gridOf(current, target);
  if (grid.wrongCount === 0) return { updates: [], provenFewest: true };
  const baseline = sameTargetStrokes(grid);
  const search = searchFewer(grid, baseline.length, options.nodeLimit ?? DEFAULT_NODE_LIMIT);
  const strokes = search.strokes ?? baseline;
  const updates = strokes.map((stroke) => updateOf(grid, stroke));
  // A plan that did not reach the target would write a wrong schedule to real thermostats.
  if (!sameWeek(applyUpdates(current, updates), target)) {
    throw new Error('schedule diff: the computed updates do not give the target week');
  }
  return { updates, provenFewest: search.complete };
}

/** The week after the updates, as the service applies them (one after another). */
export function applyUpdates(week: Week, updates: readonly ScheduleRange[]): string[][] {
  return updates.reduce(
    (result, update) => applyRange(result, update, update.comfortSettingRef),
    week.map((day) => [...day]),
  );
}

/** The fewest-update list among those whose updates span only days with the same target. */
export function sameTargetUpdates(current: Week, target: Week): ScheduleRange[] {
  const grid = gridOf(current, target);
  return sameTargetStrokes(grid).map((stroke) => updateOf(grid, stroke));
}

export function sameWeek(a: Week, b: Week): boolean {
  return a.length === b.length && a.every((day, d) => sameDay(day, b[d] ?? []));
}

const sameDay = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, i) => value === b[i]);

// ---------------------------------------------------------------------------------------------
// The grid: refs numbered, cells indexed day x blocks + block.

type Grid = {
  days: number;
  blocks: number;
  /** The target's value of every cell. */
  target: Int32Array;
  /** Cells whose current value is not the target's. */
  wrong: Uint8Array;
  wrongCount: number;
  /** Ref of each value number. */
  refs: string[];
};

/** One update in numbers: `days` is a bit mask (bit d = day d). */
type Stroke = { days: number; first: number; last: number; value: number };

function gridOf(current: Week, target: Week): Grid {
  const days = target.length;
  const blocks = target[0]?.length ?? 0;
  if (days === 0 || days > DAYS.length || current.length !== days) {
    throw new Error(`schedule diff: expected 1 to ${DAYS.length} days in both weeks`);
  }
  const numbers = new Map<string, number>();
  const numberOf = (ref: string) => {
    const known = numbers.get(ref);
    if (known !== undefined) return known;
    numbers.set(ref, numbers.size);
    return numbers.size - 1;
  };
  const cells = days * blocks;
  const grid: Grid = {
    days,
    blocks,
    target: new Int32Array(cells),
    wrong: new Uint8Array(cells),
    wrongCount: 0,
    refs: [],
  };
  for (let d = 0; d < days; d++) {
    const want = target[d] ?? [];
    const have = current[d] ?? [];
    if (want.length !== blocks || have.length !== blocks) {
      throw new Error(`schedule diff: every day needs ${blocks} blocks`);
    }
    for (let i = 0; i < blocks; i++) {
      grid.target[d * blocks + i] = numberOf(want[i] as string);
      if (have[i] !== want[i]) {
        grid.wrong[d * blocks + i] = 1;
        grid.wrongCount++;
      }
    }
  }
  grid.refs = [...numbers.keys()];
  return grid;
}

function updateOf(grid: Grid, stroke: Stroke): ScheduleRange {
  return {
    // Monday first, as the service lists them.
    days: DAYS.filter((_, d) => d < grid.days && stroke.days & (1 << d)),
    firstSlot: stroke.first,
    lastSlot: stroke.last,
    comfortSettingRef: grid.refs[stroke.value] as string,
  };
}

// ---------------------------------------------------------------------------------------------
// One day: the strange printer, and which stretches to repaint.

/**
 * `cost[i * n + j]`: the fewest strokes that paint `row[i..j]` from nothing, every stroke inside
 * i..j. The classic recurrence: block i is painted alone, or its stroke also paints a later block
 * k of the same value and everything between is painted over it afterwards.
 */
type PrinterTable = { n: number; cost: Int32Array; partner: Int32Array };

function printerTable(row: ArrayLike<number>): PrinterTable {
  const n = row.length;
  const cost = new Int32Array(n * n);
  const partner = new Int32Array(n * n).fill(-1);
  for (let i = n - 1; i >= 0; i--) {
    cost[i * n + i] = 1;
    for (let j = i + 1; j < n; j++) {
      let best = 1 + (cost[(i + 1) * n + j] as number);
      let bestK = -1;
      for (let k = i + 1; k <= j; k++) {
        if (row[k] !== row[i]) continue;
        const between = k === i + 1 ? 0 : (cost[(i + 1) * n + k - 1] as number);
        const total = between + (cost[k * n + j] as number);
        if (total < best) {
          best = total;
          bestK = k;
        }
      }
      cost[i * n + j] = best;
      partner[i * n + j] = bestK;
    }
  }
  return { n, cost, partner };
}

type DayStroke = { first: number; last: number; value: number };

/**
 * The strokes behind `cost[i..j]`, in painting order. `base` is the stroke that starts at i with
 * i's value, and nothing painted before it overlaps it, so it can be stretched left (the
 * recurrence's second case) without changing anything else.
 */
function strokesOf(
  table: PrinterTable,
  row: ArrayLike<number>,
  i: number,
  j: number,
): { strokes: DayStroke[]; base: DayStroke } {
  const k = table.partner[i * table.n + j] as number;
  if (k < 0) {
    const base = { first: i, last: i, value: row[i] as number };
    const rest = i < j ? strokesOf(table, row, i + 1, j).strokes : [];
    return { strokes: [base, ...rest], base };
  }
  const tail = strokesOf(table, row, k, j);
  tail.base.first = i;
  const between = k > i + 1 ? strokesOf(table, row, i + 1, k - 1).strokes : [];
  return { strokes: [...tail.strokes, ...between], base: tail.base };
}

/**
 * The fewest strokes that turn a day into `row` where `wrong` marks the blocks that differ: the
 * day splits into stretches left alone (all right already) and stretches painted whole, whose
 * cost is the printer's. Exactly optimal for one day (or days that share every stroke).
 */
function fixDay(row: ArrayLike<number>, wrong: ArrayLike<number>): DayStroke[] {
  const { table, from } = dayTable(row, wrong);
  const strokes: DayStroke[] = [];
  for (let r = row.length; r > 0; ) {
    const l = from[r] as number;
    if (l < 0) {
      r--;
      continue;
    }
    strokes.push(...strokesOf(table, row, l, r - 1).strokes);
    r = l;
  }
  return strokes;
}

/** `fixDay`'s count alone. */
function dayCost(row: ArrayLike<number>, wrong: ArrayLike<number>): number {
  return dayTable(row, wrong).best[row.length] as number;
}

/** More strokes than any day needs; fits the Int32Array the costs live in. */
const UNREACHABLE = 1 << 30;

function dayTable(row: ArrayLike<number>, wrong: ArrayLike<number>) {
  const n = row.length;
  const table = printerTable(row);
  const best = new Int32Array(n + 1);
  /** Where the stretch ending before block r starts; -1: block r - 1 is left alone. */
  const from = new Int32Array(n + 1);
  for (let r = 1; r <= n; r++) {
    best[r] = UNREACHABLE;
    if (!wrong[r - 1]) {
      best[r] = best[r - 1] as number;
      from[r] = -1;
    }
    for (let l = 0; l < r; l++) {
      const total = (best[l] as number) + (table.cost[l * n + r - 1] as number);
      if (total < (best[r] as number)) {
        best[r] = total;
        from[r] = l;
      }
    }
  }
  return { table, best, from };
}

/**
 * Days with the same target day share every stroke: a stroke that helps one of them is harmless
 * to the others (it paints their target too), so each group is one day whose wrong blocks are
 * those wrong on any of its days. Optimal among lists whose updates never mix target days.
 */
function sameTargetStrokes(grid: Grid): Stroke[] {
  const { blocks } = grid;
  const groups = new Map<string, { days: number; row: Int32Array; wrong: Uint8Array }>();
  for (let d = 0; d < grid.days; d++) {
    const row = grid.target.subarray(d * blocks, (d + 1) * blocks);
    const key = row.join(',');
    const group = groups.get(key) ?? { days: 0, row, wrong: new Uint8Array(blocks) };
    groups.set(key, group);
    group.days |= 1 << d;
    for (let i = 0; i < blocks; i++) if (grid.wrong[d * blocks + i]) group.wrong[i] = 1;
  }
  return [...groups.values()].flatMap((group) =>
    fixDay(group.row, group.wrong).map((stroke) => ({ ...stroke, days: group.days })),
  );
}

// ---------------------------------------------------------------------------------------------
// The whole week: a bounded exhaustive search for a shorter list.

/**
 * Backwards, the search is a covering problem. The last update must paint only blocks whose
 * target is its comfort setting; once painted, a block no longer constrains earlier updates (it
 * is painted over). So going back from the last update, a state is the set of blocks already
 * settled, an update may paint blocks that are settled or want its value, and the goal is that
 * every wrong block is settled (a block never painted must already be right).
 *
 * Settling more never hurts (what is allowed from a state is allowed from any larger one), so it
 * is enough to try updates that cannot be made larger: for each value, every range that cannot
 * be widened, on every day that allows it; and to drop one that settles a subset of what another
 * settles. States are remembered, and a branch is cut when its lower bound (the most any single
 * day needs, by the one-day printer, and the number of values still wanted) cannot beat the best
 * list so far. Together these keep the search exact: finishing it proves the result fewest.
 */
function searchFewer(
  grid: Grid,
  bound: number,
  nodeLimit: number,
): { strokes: Stroke[] | null; complete: boolean } {
  const search = new CoverSearch(grid);
  search.best = bound;
  search.nodeLimit = nodeLimit;
  search.visit(0);
  return {
    strokes: search.bestPath ? [...search.bestPath].reverse() : null,
    complete: !search.aborted,
  };
}

type Candidate = Stroke & { settles: number; settlesWrong: number };

class CoverSearch {
  readonly settled: Uint8Array;
  /** Unsettled blocks per value, and unsettled wrong blocks per value. */
  readonly open: Int32Array;
  readonly openWrong: Int32Array;
  wrongLeft: number;
  best = Number.MAX_SAFE_INTEGER;
  bestPath: Stroke[] | null = null;
  nodeLimit = DEFAULT_NODE_LIMIT;
  nodes = 0;
  aborted = false;
  private readonly path: Stroke[] = [];
  private readonly seen = new Map<string, number>();
  private readonly dayBounds = new Map<string, number>();

  constructor(private readonly grid: Grid) {
    this.settled = new Uint8Array(grid.target.length);
    this.open = new Int32Array(grid.refs.length);
    this.openWrong = new Int32Array(grid.refs.length);
    grid.target.forEach((value, cell) => {
      this.open[value] = (this.open[value] as number) + 1;
      if (grid.wrong[cell]) this.openWrong[value] = (this.openWrong[value] as number) + 1;
    });
    this.wrongLeft = grid.wrongCount;
  }

  visit(depth: number): void {
    if (++this.nodes > this.nodeLimit) {
      this.aborted = true;
      return;
    }
    if (this.wrongLeft === 0) {
      if (depth < this.best) {
        this.best = depth;
        this.bestPath = [...this.path];
      }
      return;
    }
    const lower = this.lowerBound();
    if (depth + lower >= this.best) return;
    const key = this.stateKey();
    const seenAt = this.seen.get(key);
    if (seenAt !== undefined && seenAt <= depth) return;
    this.seen.set(key, depth);
    for (const candidate of this.candidates()) {
      const painted = this.paint(candidate);
      this.path.push(candidate);
      this.visit(depth + 1);
      this.path.pop();
      this.unpaint(painted);
      if (this.aborted || depth + lower >= this.best) return;
    }
  }

  /** At least as many updates as any one day needs alone, and one per value still wanted. */
  private lowerBound(): number {
    let bound = 0;
    for (const count of this.openWrong) if (count > 0) bound++;
    const { blocks, target, wrong } = this.grid;
    for (let d = 0; d < this.grid.days; d++) {
      // The day without its settled blocks (they constrain nothing, so dropping them changes
      // no day's cost) and with equal neighbours merged (they can always be painted alike):
      // the one-day optimum of what is left bounds any list, which restricted to it is one.
      const row: number[] = [];
      const rowWrong: number[] = [];
      for (let cell = d * blocks; cell < (d + 1) * blocks; cell++) {
        if (this.settled[cell]) continue;
        if (row.at(-1) === target[cell]) {
          if (wrong[cell]) rowWrong[rowWrong.length - 1] = 1;
          continue;
        }
        row.push(target[cell] as number);
        rowWrong.push(wrong[cell] as number);
      }
      if (row.length <= bound) continue;
      const key = `${row.join(',')}|${rowWrong.join('')}`;
      let cost = this.dayBounds.get(key);
      if (cost === undefined) {
        cost = dayCost(row, rowWrong);
        this.dayBounds.set(key, cost);
      }
      bound = Math.max(bound, cost);
    }
    return bound;
  }

  private stateKey(): string {
    const codes: number[] = [];
    for (let start = 0; start < this.settled.length; start += 16) {
      let code = 0;
      const end = Math.min(start + 16, this.settled.length);
      for (let cell = start; cell < end; cell++) code = code * 2 + (this.settled[cell] as number);
      codes.push(code);
    }
    return String.fromCharCode(...codes);
  }

  /** Every update that cannot be made larger, most wrong blocks settled first. */
  private candidates(): Candidate[] {
    const { days, blocks, target, wrong } = this.grid;
    const cells = days * blocks;
    // Per day: unsettled (and unsettled wrong) blocks before each block.
    const openBefore = new Int32Array(days * (blocks + 1));
    const wrongBefore = new Int32Array(days * (blocks + 1));
    for (let d = 0; d < days; d++) {
      for (let i = 0; i < blocks; i++) {
        const cell = d * blocks + i;
        const at = d * (blocks + 1) + i;
        const open = this.settled[cell] ? 0 : 1;
        openBefore[at + 1] = (openBefore[at] as number) + open;
        wrongBefore[at + 1] = (wrongBefore[at] as number) + (open && wrong[cell] ? 1 : 0);
      }
    }
    const count = (prefix: Int32Array, mask: number, first: number, last: number) => {
      let total = 0;
      for (let d = 0; d < days; d++) {
        if (!(mask & (1 << d))) continue;
        const at = d * (blocks + 1);
        total += (prefix[at + last + 1] as number) - (prefix[at + first] as number);
      }
      return total;
    };
    const found: Candidate[] = [];
    const reach = new Int32Array(cells);
    for (let value = 0; value < this.grid.refs.length; value++) {
      if (this.open[value] === 0) continue;
      const allowed = (cell: number) => this.settled[cell] === 1 || target[cell] === value;
      // reach[cell]: the last block of the allowed run from this block on (-1: not allowed).
      for (let d = 0; d < days; d++) {
        for (let i = blocks - 1; i >= 0; i--) {
          const cell = d * blocks + i;
          reach[cell] = !allowed(cell)
            ? -1
            : i + 1 < blocks && allowed(cell + 1)
              ? (reach[cell + 1] as number)
              : i;
        }
      }
      for (let first = 0; first < blocks; first++) {
        const ends = new Set<number>();
        for (let d = 0; d < days; d++) {
          const end = reach[d * blocks + first] as number;
          if (end >= 0) ends.add(end);
        }
        for (const last of ends) {
          let mask = 0;
          let widerLeft = first > 0;
          for (let d = 0; d < days; d++) {
            if ((reach[d * blocks + first] as number) < last) continue;
            mask |= 1 << d;
            if (first > 0 && !allowed(d * blocks + first - 1)) widerLeft = false;
          }
          // Widening left keeps every day: the wider range is found from an earlier start.
          if (widerLeft) continue;
          const settles = count(openBefore, mask, first, last);
          if (settles === 0) continue;
          const settlesWrong = count(wrongBefore, mask, first, last);
          found.push({ days: mask, first, last, value, settles, settlesWrong });
        }
      }
    }
    return this.undominated(found).sort(
      (a, b) => b.settlesWrong - a.settlesWrong || b.settles - a.settles,
    );
  }

  /** Drops each update whose newly settled blocks another update settles too. */
  private undominated(found: Candidate[]): Candidate[] {
    const { days, blocks } = this.grid;
    // Per day, the first unsettled block at or after i and the last at or before i.
    const next = new Int32Array(days * (blocks + 1));
    const previous = new Int32Array(days * blocks);
    for (let d = 0; d < days; d++) {
      next[d * (blocks + 1) + blocks] = blocks;
      for (let i = blocks - 1; i >= 0; i--) {
        next[d * (blocks + 1) + i] = this.settled[d * blocks + i]
          ? (next[d * (blocks + 1) + i + 1] as number)
          : i;
      }
      let last = -1;
      for (let i = 0; i < blocks; i++) {
        if (!this.settled[d * blocks + i]) last = i;
        previous[d * blocks + i] = last;
      }
    }
    const within = (small: Candidate, large: Candidate) => {
      for (let d = 0; d < days; d++) {
        if (!(small.days & (1 << d))) continue;
        const from = next[d * (blocks + 1) + small.first] as number;
        if (from > small.last) continue;
        const to = previous[d * blocks + small.last] as number;
        if (!(large.days & (1 << d)) || large.first > from || to > large.last) return false;
      }
      return true;
    };
    const kept: Candidate[] = [];
    for (const candidate of [...found].sort((a, b) => b.settles - a.settles)) {
      if (!kept.some((larger) => within(candidate, larger))) kept.push(candidate);
    }
    return kept;
  }

  private paint(stroke: Stroke): number[] {
    const { blocks, target, wrong } = this.grid;
    const painted: number[] = [];
    for (let d = 0; d < this.grid.days; d++) {
      if (!(stroke.days & (1 << d))) continue;
      for (let i = stroke.first; i <= stroke.last; i++) {
        const cell = d * blocks + i;
        if (this.settled[cell]) continue;
        this.settled[cell] = 1;
        painted.push(cell);
        const value = target[cell] as number;
        this.open[value] = (this.open[value] as number) - 1;
        if (wrong[cell]) {
          this.openWrong[value] = (this.openWrong[value] as number) - 1;
          this.wrongLeft--;
        }
      }
    }
    return painted;
  }

  private unpaint(painted: number[]): void {
    const { target, wrong } = this.grid;
    for (const cell of painted) {
      this.settled[cell] = 0;
      const value = target[cell] as number;
      this.open[value] = (this.open[value] as number) + 1;
      if (wrong[cell]) {
        this.openWrong[value] = (this.openWrong[value] as number) + 1;
        this.wrongLeft++;
      }
    }
  }
}
