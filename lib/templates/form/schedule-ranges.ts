import { BLOCKS_PER_DAY } from '@/lib/schedule/blocks';
import { DAYS } from '@/lib/service/schemas';
import { INCLUDE_FIELDS, RANGE_ROWS, type RangeColumn, rangeField } from './fields';
import type { FormReader } from './reader';
import type { TemplateDraft } from './types';
import type { FormWriter } from './writer';

/**
 * The schedule ranges section (a one-off change's): rows of days, a start and an end time and a
 * comfort setting's name, `range.<row>.<column>`.
 */

export function scheduleRangeValues(draft: TemplateDraft, { values, tick, on }: FormWriter) {
  values[INCLUDE_FIELDS.scheduleRanges] = tick(draft.scheduleRanges !== undefined);
  draft.scheduleRanges?.slice(0, RANGE_ROWS).forEach((range, row) => {
    for (const day of DAYS) values[rangeField(row, day)] = on(range.days.includes(day));
    values[rangeField(row, 'from')] = String(range.firstSlot);
    // The end is a time: the end of the last block.
    values[rangeField(row, 'to')] = String(range.lastSlot + 1);
    values[rangeField(row, 'name')] = range.name;
  });
}

/**
 * Schedule ranges: each row with anything chosen (none unless ticked), and the row each came
 * from; start and end are times (the end is the end of the last half hour), a range never passes
 * midnight.
 */
export function parseScheduleRanges({ add, text, checked }: FormReader): {
  ranges?: Record<string, unknown>[];
  rowOf: number[];
} {
  const rowOf: number[] = [];
  if (!checked(INCLUDE_FIELDS.scheduleRanges)) return { rowOf };
  const ranges: Record<string, unknown>[] = [];
  for (let row = 0; row < RANGE_ROWS; row++) {
    const field = (column: RangeColumn) => rangeField(row, column);
    const days = DAYS.filter((day) => checked(field(day)));
    const name = text(field('name')).trim();
    const from = text(field('from'));
    const to = text(field('to'));
    if (days.length === 0 && !name) continue;
    const first = halfHour(from, 0, BLOCKS_PER_DAY - 1);
    const end = halfHour(to, 1, BLOCKS_PER_DAY);
    if (days.length === 0) add(field('days'), 'Choose at least one day.');
    if (!name) add(field('name'), 'Name the comfort setting, or clear the row.');
    if (first === undefined) add(field('from'), 'Choose the start time.');
    if (end === undefined) add(field('to'), 'Choose the end time.');
    else if (first !== undefined && end <= first)
      add(field('to'), 'End after the start (a range never passes midnight).');
    rowOf.push(row);
    ranges.push({
      days,
      firstSlot: first,
      lastSlot: end === undefined ? undefined : end - 1,
      name,
    });
  }
  return { ranges, rowOf };
}

/** A half-hour boundary posted as its block number, within limits; undefined when not one. */
function halfHour(raw: string, min: number, max: number): number | undefined {
  if (!/^\d{1,2}$/.test(raw)) return undefined;
  const value = Number(raw);
  return value >= min && value <= max ? value : undefined;
}
