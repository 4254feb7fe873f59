import { sendSuccess } from '../http-util';
import { type ApiRoute, thermostatRoute } from '../routing';
import { DAYS, type Thermostat } from '../store';
import { requireOnline, scheduleRecord } from '../thermostats';
import { FieldErrors, integer, oneOf, rejectUnknown } from '../validation';
import { THERMOSTATS } from './paths';

const UPDATE_FIELDS = ['days', 'firstTimeBlock', 'lastTimeBlock', 'comfortSettingRef'];

interface ScheduleUpdate {
  dayIndexes: number[];
  firstTimeBlock: number;
  lastTimeBlock: number;
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

/** A range update: the same blocks on each named day get one comfort setting. */
function parseScheduleUpdate(
  thermostat: Thermostat,
  body: Record<string, unknown>,
): ScheduleUpdate {
  const errors = new FieldErrors();
  rejectUnknown(errors, body, UPDATE_FIELDS);
  for (const field of UPDATE_FIELDS) if (!(field in body)) errors.add(field, 'Required.');
  const dayIndexes = 'days' in body ? parseDays(errors, body.days) : [];
  const firstTimeBlock =
    'firstTimeBlock' in body
      ? integer(errors, 'firstTimeBlock', body.firstTimeBlock, 0, 47)
      : undefined;
  const lastTimeBlock =
    'lastTimeBlock' in body
      ? integer(errors, 'lastTimeBlock', body.lastTimeBlock, 0, 47)
      : undefined;
  if (
    firstTimeBlock !== undefined &&
    lastTimeBlock !== undefined &&
    firstTimeBlock > lastTimeBlock
  ) {
    errors.add('firstTimeBlock', 'Must not be after lastTimeBlock.');
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
    firstTimeBlock: firstTimeBlock as number,
    lastTimeBlock: lastTimeBlock as number,
    comfortSettingRef: ref as string,
  };
}

/** `GET` and `PATCH /{thermostatId}/schedule`. */
export const scheduleRoutes: ApiRoute[] = [
  thermostatRoute('GET', `${THERMOSTATS}/:id/schedule`, ({ ctx, res, thermostat }) => {
    sendSuccess(res, scheduleRecord(ctx, thermostat));
  }),
  thermostatRoute('PATCH', `${THERMOSTATS}/:id/schedule`, ({ ctx, res, thermostat, body }) => {
    const update = parseScheduleUpdate(thermostat, body);
    requireOnline(thermostat);
    for (const dayIndex of update.dayIndexes) {
      const blocks = thermostat.schedule[dayIndex];
      if (!blocks) continue;
      for (let block = update.firstTimeBlock; block <= update.lastTimeBlock; block++) {
        blocks[block] = update.comfortSettingRef;
      }
    }
    sendSuccess(res, scheduleRecord(ctx, thermostat));
  }),
];
