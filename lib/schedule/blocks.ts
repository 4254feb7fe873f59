import { DAYS } from '@/lib/service/schemas';
import { dateTimeFormat } from '@/lib/platform/time-format';

/**
 * Block and time math for the weekly schedule. A schedule is a template of 7 days (Monday first)
 * x 48 half-hour blocks of local wall-clock time in the building's zone: block n covers
 * n x 30 min to (n + 1) x 30 min. On a daylight-saving day the template still has 48 blocks; the
 * skipped hour's blocks simply never become current, the repeated hour's blocks are current twice.
 */

export type Day = (typeof DAYS)[number];
export const BLOCKS_PER_DAY = 48;

export const DAY_LABELS: Record<Day, string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

/** "07:30" for block 15; block 48 (the end of the day) is "24:00". */
export function blockTime(block: number): string {
  const minutes = block * 30;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** "07:30–08:00": the span of blocks first..last inclusive. */
export function blockSpan(first: number, last: number = first): string {
  return `${blockTime(first)}–${blockTime(last + 1)}`;
}

export type BlockPosition = { dayIndex: number; block: number };

const WEEKDAY_INDEX: Record<string, number> = {
  Mon: 0,
  Tue: 1,
  Wed: 2,
  Thu: 3,
  Fri: 4,
  Sat: 5,
  Sun: 6,
};

function wallClock(timeZone: string): Intl.DateTimeFormat {
  return dateTimeFormat({
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
}

/** The block that is current at `instant` in `timeZone` (local wall-clock day and half hour). */
export function currentBlock(instant: Date, timeZone: string): BlockPosition {
  const parts = wallClock(timeZone).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  const dayIndex = WEEKDAY_INDEX[part('weekday')];
  if (dayIndex === undefined) throw new Error(`unexpected weekday ${part('weekday')}`);
  // Some engines write midnight as 24 even with h23; it is hour 0 of the same day.
  const hour = Number(part('hour')) % 24;
  const minute = Number(part('minute'));
  return { dayIndex, block: hour * 2 + (minute >= 30 ? 1 : 0) };
}

export type SlotRange = {
  days: Day[];
  firstSlot: number;
  lastSlot: number;
};

/** The rectangle between two corners of a selection: the days between them and the blocks between them. */
export function rangeBetween(anchor: BlockPosition, focus: BlockPosition): SlotRange {
  const fromDay = Math.min(anchor.dayIndex, focus.dayIndex);
  const toDay = Math.max(anchor.dayIndex, focus.dayIndex);
  return {
    days: DAYS.slice(fromDay, toDay + 1),
    firstSlot: Math.min(anchor.block, focus.block),
    lastSlot: Math.max(anchor.block, focus.block),
  };
}

export function inRange(range: SlotRange, dayIndex: number, block: number): boolean {
  const day = DAYS[dayIndex];
  return (
    day !== undefined &&
    range.days.includes(day) &&
    block >= range.firstSlot &&
    block <= range.lastSlot
  );
}

/** A copy of the week's blocks with the range set to `ref` (what the service does with the PATCH). */
export function applyRange(week: string[][], range: SlotRange, ref: string): string[][] {
  return week.map((blocks, dayIndex) =>
    blocks.map((current, block) => (inRange(range, dayIndex, block) ? ref : current)),
  );
}

export type ArrowKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight' | 'Home' | 'End';

/** Where the keyboard focus goes in the grid (days across, half hours down), kept inside it. */
export function moveFocus(position: BlockPosition, key: ArrowKey): BlockPosition {
  const clampDay = (d: number) => Math.min(6, Math.max(0, d));
  const clampBlock = (b: number) => Math.min(BLOCKS_PER_DAY - 1, Math.max(0, b));
  switch (key) {
    case 'ArrowUp':
      return { ...position, block: clampBlock(position.block - 1) };
    case 'ArrowDown':
      return { ...position, block: clampBlock(position.block + 1) };
    case 'ArrowLeft':
      return { ...position, dayIndex: clampDay(position.dayIndex - 1) };
    case 'ArrowRight':
      return { ...position, dayIndex: clampDay(position.dayIndex + 1) };
    case 'Home':
      return { ...position, block: 0 };
    case 'End':
      return { ...position, block: BLOCKS_PER_DAY - 1 };
  }
}

/** Runs of consecutive blocks of one day that use `ref`, as [first, last] pairs. */
export function runsOf(blocks: readonly string[], ref: string): [number, number][] {
  const runs: [number, number][] = [];
  blocks.forEach((value, block) => {
    if (value !== ref) return;
    const last = runs.at(-1);
    if (last && last[1] === block - 1) last[1] = block;
    else runs.push([block, block]);
  });
  return runs;
}

/**
 * Where the week uses `ref`, in words: consecutive days with the same times are grouped, e.g.
 * ["Monday–Friday 07:00–09:00, 17:00–22:00", "Sunday 00:00–24:00"]. Empty when unused.
 */
export function describeUsage(week: readonly (readonly string[])[], ref: string): string[] {
  const perDay = week.map((blocks) =>
    runsOf(blocks, ref)
      .map(([first, last]) => blockSpan(first, last))
      .join(', '),
  );
  const lines: string[] = [];
  let start = 0;
  while (start < perDay.length) {
    let end = start;
    while (end + 1 < perDay.length && perDay[end + 1] === perDay[start]) end++;
    const times = perDay[start];
    if (times) lines.push(`${dayNames(start, end)} ${times}`);
    start = end + 1;
  }
  return lines;
}

function dayNames(from: number, to: number): string {
  const name = (index: number) => DAY_LABELS[DAYS[index] as Day];
  if (from === to) return name(from);
  if (to === from + 1) return `${name(from)}, ${name(to)}`;
  return `${name(from)}–${name(to)}`;
}

/** "Monday–Wednesday 07:00–09:30" for a range, as the activity log and messages say it. */
export function describeRange(range: SlotRange): string {
  const indices = range.days.map((day) => DAYS.indexOf(day)).sort((a, b) => a - b);
  const contiguous = indices.every((index, i) => i === 0 || index === (indices[i - 1] ?? 0) + 1);
  const days =
    contiguous && indices.length > 0
      ? dayNames(indices[0] ?? 0, indices.at(-1) ?? 0)
      : indices.map((index) => DAY_LABELS[DAYS[index] as Day]).join(', ');
  return `${days} ${blockSpan(range.firstSlot, range.lastSlot)}`;
}
