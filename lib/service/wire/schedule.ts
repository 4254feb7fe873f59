import { z } from 'zod';
import { DAYS, type Schedule, type ScheduleRange } from '@/lib/service/schemas';

/**
 * The schedule resource on the wire. A read is the week, Monday first, each day's 48 half-hour
 * slots naming a comfort setting ref (the sandbox's choice where the spec shows no shape; days
 * may come in any order). A range update names its slots by time of day, as the production
 * reference shows: `firstTimeBlock` is the first slot's start (`"07:00"`), `lastTimeBlock` the
 * end of the range, excluded (`"18:30"`), with `"23:59"` for the end of the day (so the last
 * slot, 23:30-24:00, is included). Setpoint's own ranges count slots 0..47, both ends included.
 */

export const SLOTS_PER_DAY = 48;
/** `lastTimeBlock` for a range that runs to the end of the day. */
export const END_OF_DAY = '23:59';

const dayEntry = z.looseObject({
  // Any case: the reference does not show the names' spelling (the sandbox sends lowercase).
  day: z.preprocess((day) => (typeof day === 'string' ? day.toLowerCase() : day), z.enum(DAYS)),
  blocks: z.array(z.string()).length(SLOTS_PER_DAY),
});

export const scheduleSchema = z
  .looseObject({ days: z.array(dayEntry).min(1).max(7) })
  .refine((week) => new Set(week.days.map((entry) => entry.day)).size === week.days.length, {
    message: 'a day is listed twice',
    path: ['days'],
  })
  .transform(
    (wire): Schedule => ({
      days: wire.days.map((entry) => ({ day: entry.day, blocks: [...entry.blocks] })),
    }),
  );

/** `"07:30"` for slot 15 (its start); slot 48 is `"24:00"`. */
export function slotStart(slot: number): string {
  const minutes = slot * 30;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** A range update as the service takes it. */
export type WireScheduleRange = {
  days: (typeof DAYS)[number][];
  firstTimeBlock: string;
  lastTimeBlock: string;
  comfortSettingRef: string;
};

export function toWireRange(range: ScheduleRange): WireScheduleRange {
  const { firstSlot, lastSlot } = range;
  if (
    !Number.isInteger(firstSlot) ||
    !Number.isInteger(lastSlot) ||
    firstSlot < 0 ||
    lastSlot >= SLOTS_PER_DAY ||
    firstSlot > lastSlot
  ) {
    throw new RangeError(`not a range of slots: ${firstSlot}..${lastSlot}`);
  }
  return {
    days: [...range.days],
    firstTimeBlock: slotStart(firstSlot),
    lastTimeBlock: lastSlot === SLOTS_PER_DAY - 1 ? END_OF_DAY : slotStart(lastSlot + 1),
    comfortSettingRef: range.comfortSettingRef,
  };
}

/** The slot a time of day on the half hour starts (`"07:30"` is 15); null for any other text. */
function slotAt(time: string): number | null {
  const match = /^(\d{2}):(00|30)$/.exec(time);
  if (!match) return null;
  const slot = Number(match[1]) * 2 + (match[2] === '30' ? 1 : 0);
  return slot <= SLOTS_PER_DAY ? slot : null;
}

/** A range update as the service takes it, back as Setpoint's slots; null when it is not one. */
export function fromWireRange(wire: WireScheduleRange): ScheduleRange | null {
  const firstSlot = slotAt(wire.firstTimeBlock);
  const end = wire.lastTimeBlock === END_OF_DAY ? SLOTS_PER_DAY : slotAt(wire.lastTimeBlock);
  if (firstSlot === null || end === null || end >= SLOTS_PER_DAY + 1 || end <= firstSlot) {
    return null;
  }
  if (end === SLOTS_PER_DAY && wire.lastTimeBlock !== END_OF_DAY) return null;
  return {
    days: [...wire.days],
    firstSlot,
    lastSlot: end - 1,
    comfortSettingRef: wire.comfortSettingRef,
  };
}
