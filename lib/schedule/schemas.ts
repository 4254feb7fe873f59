import { z } from 'zod';
import type { ScheduleRange } from '@/lib/service/schemas';
import { DAYS } from '@/lib/service/schemas';
import { BLOCKS_PER_DAY } from './blocks';

/**
 * The schema the schedule action validates a range edit with (and the unit tests test). Input
 * is what a form posts: strings, and `days` as the list of checked boxes.
 */

const blockField = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{1,2}$/, message)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(0, message)
        .max(BLOCKS_PER_DAY - 1, message),
    );

/** One range edit: `from` is the first block, `to` the last block (inclusive). */
export const scheduleRangeSchema = z
  .object({
    days: z
      .array(z.enum(DAYS, { error: 'Choose days of the week.' }), { error: 'Choose days.' })
      .min(1, 'Choose at least one day.')
      .refine((days) => new Set(days).size === days.length, 'Choose each day once.'),
    from: blockField('Choose a start time.'),
    to: blockField('Choose an end time.'),
    comfortSettingRef: z
      .string({ error: 'Choose a comfort setting.' })
      .trim()
      .min(1, 'Choose a comfort setting.')
      .max(64, 'Choose a comfort setting.'),
  })
  .refine((range) => range.from <= range.to, {
    path: ['to'],
    message: 'The end must be after the start.',
  })
  .transform(
    ({ days, from, to, comfortSettingRef }): ScheduleRange => ({
      // Monday first, as the service orders them.
      days: DAYS.filter((day) => days.includes(day)),
      firstSlot: from,
      lastSlot: to,
      comfortSettingRef,
    }),
  );

export type ScheduleRangeField = 'days' | 'from' | 'to' | 'comfortSettingRef';

/** Service field paths (`days.2`, `firstSlot` ...) as the schedule form's fields. */
export function scheduleFieldOf(path: string): ScheduleRangeField | 'form' {
  const head = path.split('.')[0];
  if (head === 'days') return 'days';
  if (head === 'firstSlot') return 'from';
  if (head === 'lastSlot') return 'to';
  if (head === 'comfortSettingRef') return 'comfortSettingRef';
  return 'form';
}
