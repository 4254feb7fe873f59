import { z } from 'zod';
import { BLOCKS_PER_DAY } from '@/lib/schedule/blocks';
import { DAYS } from '@/lib/service/schemas';
import { templateSchema } from '../schema';
import { INCLUDE_FIELDS, RANGE_ROWS, type RangeColumn, rangeField } from './fields';
import { fieldOfPath } from './paths';
import { box, postedField, templateSays } from './section';
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

/** A half-hour boundary posted as its block number, within limits; undefined when not one. */
const halfHour = (min: number, max: number) =>
  postedField.transform((raw) => {
    if (!/^\d{1,2}$/.test(raw)) return undefined;
    const value = Number(raw);
    return value >= min && value <= max ? value : undefined;
  });

const ROWS = Array.from({ length: RANGE_ROWS }, (_, row) => row);

/**
 * Schedule ranges: each row with anything chosen, and the row each came from; start and end are
 * times (the end is the end of the last half hour), a range never passes midnight.
 */
export const scheduleRangesSchema = z
  .object(
    Object.fromEntries(
      ROWS.flatMap((row) => [
        ...DAYS.map((day) => [rangeField(row, day), box]),
        [rangeField(row, 'from'), halfHour(0, BLOCKS_PER_DAY - 1)],
        [rangeField(row, 'to'), halfHour(1, BLOCKS_PER_DAY)],
        [rangeField(row, 'name'), postedField],
      ]),
    ) as Record<string, z.ZodType<unknown, unknown>>,
  )
  .superRefine((values, ctx) => {
    const fail = (field: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [field], message });
    const { ranges, rowOf } = rangesOf(values);
    ranges.forEach(({ days, firstSlot: first, lastSlot, name }, index) => {
      const field = (column: RangeColumn) => rangeField(rowOf[index] ?? index, column);
      if (days.length === 0) fail(field('days'), 'Choose at least one day.');
      if (!name) fail(field('name'), 'Name the comfort setting, or clear the row.');
      if (first === undefined) fail(field('from'), 'Choose the start time.');
      if (lastSlot === undefined) fail(field('to'), 'Choose the end time.');
      else if (first !== undefined && lastSlot + 1 <= first)
        fail(field('to'), 'End after the start (a range never passes midnight).');
    });
    templateSays(ctx, templateSchema.shape.scheduleRanges, ranges, (path) =>
      fieldOfPath(['scheduleRanges', ...path], [], rowOf),
    );
  })
  .transform(rangesOf);

/** The rows with a day or a name chosen, as ranges as far as they were read, and their rows. */
function rangesOf(values: Partial<Record<string, unknown>>) {
  const rowOf: number[] = [];
  const ranges: {
    days: (typeof DAYS)[number][];
    firstSlot?: number;
    lastSlot?: number;
    name: string;
  }[] = [];
  for (const row of ROWS) {
    const field = (column: RangeColumn) => values[rangeField(row, column)];
    const days = DAYS.filter((day) => field(day) === true);
    const name = String(field('name') ?? '').trim();
    if (days.length === 0 && !name) continue;
    const end = field('to') as number | undefined;
    rowOf.push(row);
    ranges.push({
      days,
      firstSlot: field('from') as number | undefined,
      lastSlot: end === undefined ? undefined : end - 1,
      name,
    });
  }
  return { ranges, rowOf };
}
