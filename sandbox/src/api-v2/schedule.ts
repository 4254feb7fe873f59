import { sendSuccess } from '../http-util';
import { type ApiRoute, thermostatRoute } from '../routing';
import { DAYS, type Thermostat } from '../store';
import { requireOnline, scheduleRecord } from '../thermostats';
import { FieldErrors, oneOf, rejectUnknown } from '../validation';
import { THERMOSTATS } from './paths';

const UPDATE_FIELDS = ['days', 'firstTimeBlock', 'lastTimeBlock', 'comfortSettingRef'];

/** 48 half-hour slots a day: slot n runs from n x 30 min to (n + 1) x 30 min. */
const SLOTS_PER_DAY = 48;
/** `lastTimeBlock` `"23:59"` is the end of the day: the range then includes slot 47. */
const END_OF_DAY = '23:59';
const FIRST_MESSAGE = 'Must be a time of day "HH:MM" on the half hour, "00:00" to "23:30".';
const LAST_MESSAGE =
  'Must be a time of day "HH:MM" on the half hour; "23:59" for the end of the day.';

/**
 * A range update. `start` is the first slot changed (firstTimeBlock's), `end` the slot the range
 * stops before (lastTimeBlock's; 48 for "23:59"): slots start..end-1 get the comfort setting.
 */
interface ScheduleUpdate {
  dayIndexes: number[];
  start: number;
  end: number;
  comfortSettingRef: string;
}

function parseDays(errors: FieldErrors, days: unknown): number[] {
  const dayIndexes: number[] = [];
  if (!Array.isArray(days) || days.length === 0) {
    errors.add('days', `Must be a non-empty array of: ${DAYS.join(', ')}.`);
    return dayIndexes;
  }
  days.forEach((value, position) => {
    const day = oneOf(errors, `days.${position}`, value, DAYS);
    if (day === undefined) return;
    if (dayIndexes.includes(DAYS.indexOf(day))) errors.add(`days.${position}`, 'Duplicate day.');
    dayIndexes.push(DAYS.indexOf(day));
  });
  return dayIndexes;
}

/** The slot a time of day "HH:MM" on the half hour starts (0..47), or null. */
function slotOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = /^([01]\d|2[0-3]):(00|30)$/.exec(value);
  if (!match) return null;
  return Number(match[1]) * 2 + (match[2] === '30' ? 1 : 0);
}

/** firstTimeBlock: "00:00".."23:30" on the half hour; the range includes its slot. */
function parseFirst(errors: FieldErrors, value: unknown): number | undefined {
  const slot = slotOf(value);
  if (slot === null) {
    errors.add('firstTimeBlock', FIRST_MESSAGE);
    return undefined;
  }
  return slot;
}

/** lastTimeBlock: "00:30".."23:30" on the half hour, or "23:59"; the range stops before it. */
function parseLast(errors: FieldErrors, value: unknown): number | undefined {
  if (value === END_OF_DAY) return SLOTS_PER_DAY;
  const slot = slotOf(value);
  if (slot === null) {
    errors.add('lastTimeBlock', LAST_MESSAGE);
    return undefined;
  }
  if (slot === 0) {
    errors.add('lastTimeBlock', `"00:00" starts the day and never ends a range. ${LAST_MESSAGE}`);
    return undefined;
  }
  return slot;
}

/** A range update: the same slots on each named day get one comfort setting. */
function parseScheduleUpdate(
  thermostat: Thermostat,
  body: Record<string, unknown>,
): ScheduleUpdate {
  const errors = new FieldErrors();
  rejectUnknown(errors, body, UPDATE_FIELDS);
  for (const field of UPDATE_FIELDS) if (!(field in body)) errors.add(field, 'Required.');
  const dayIndexes = 'days' in body ? parseDays(errors, body.days) : [];
  const start = 'firstTimeBlock' in body ? parseFirst(errors, body.firstTimeBlock) : undefined;
  const end = 'lastTimeBlock' in body ? parseLast(errors, body.lastTimeBlock) : undefined;
  if (start !== undefined && end !== undefined && end <= start) {
    errors.add(
      'lastTimeBlock',
      'Must be after firstTimeBlock: the range includes firstTimeBlock and stops before lastTimeBlock.',
    );
  }
  const ref = body.comfortSettingRef;
  if (
    'comfortSettingRef' in body &&
    (typeof ref !== 'string' ||
      !thermostat.comfortSettings.some((setting) => setting.comfortSettingRef === ref))
  ) {
    errors.add('comfortSettingRef', 'Unknown comfort setting for this thermostat.');
  }
  errors.throwIfAny();
  return {
    dayIndexes,
    start: start as number,
    end: end as number,
    comfortSettingRef: ref as string,
  };
}

/** `GET` and `PATCH /{thermostatId}/schedule` (200 with the schedule, in the GET's shape). */
export const scheduleRoutes: ApiRoute[] = [
  thermostatRoute('GET', `${THERMOSTATS}/:id/schedule`, ({ res, thermostat }) => {
    sendSuccess(res, scheduleRecord(thermostat));
  }),
  thermostatRoute('PATCH', `${THERMOSTATS}/:id/schedule`, ({ res, thermostat, body }) => {
    const update = parseScheduleUpdate(thermostat, body);
    requireOnline(thermostat);
    for (const dayIndex of update.dayIndexes) {
      const blocks = thermostat.schedule[dayIndex];
      if (!blocks) continue;
      for (let slot = update.start; slot < update.end; slot++) {
        blocks[slot] = update.comfortSettingRef;
      }
    }
    sendSuccess(res, scheduleRecord(thermostat));
  }),
];
