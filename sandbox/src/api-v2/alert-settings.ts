import { sendSuccess } from '../http-util';
import { type ApiRoute, thermostatRoute } from '../routing';
import type { AlertSettings, Thermostat } from '../store';
import { alertSettingsRecord, requireOnline } from '../thermostats';
import {
  boolean,
  decimal,
  FieldErrors,
  integer,
  isObject,
  isoDate,
  oneOf,
  rejectUnknown,
  requireAnyOf,
} from '../validation';
import { THERMOSTATS } from './paths';

const ALERT_FIELDS = [
  'hvacMaintenanceReminder',
  'lowTemperatureAlert',
  'highTemperatureAlert',
  'lowHumidityAlert',
  'highHumidityAlert',
];
const REMINDER = 'hvacMaintenanceReminder';
const REMINDER_FIELDS = [
  'enabled',
  'lastMaintenanceDate',
  'maintenanceInterval',
  'maintenanceIntervalUnits',
];
/** Each threshold alert with the range of its `value`. */
const THRESHOLD_ALERTS = [
  ['lowTemperatureAlert', -10, 120],
  ['highTemperatureAlert', -10, 120],
  ['lowHumidityAlert', 1, 95],
  ['highHumidityAlert', 6, 100],
] as const;
const MIN_HUMIDITY_GAP = 5;

function patchReminder(errors: FieldErrors, next: AlertSettings, value: unknown): void {
  if (!isObject(value)) {
    errors.add(REMINDER, 'Must be an object.');
    return;
  }
  rejectUnknown(errors, value, REMINDER_FIELDS, REMINDER, {
    nextReminderDate: 'Read-only: computed from lastMaintenanceDate and the interval.',
  });
  const reminder = next.hvacMaintenanceReminder;
  if ('enabled' in value)
    reminder.enabled = boolean(errors, `${REMINDER}.enabled`, value.enabled) ?? reminder.enabled;
  if ('lastMaintenanceDate' in value)
    reminder.lastMaintenanceDate =
      isoDate(errors, `${REMINDER}.lastMaintenanceDate`, value.lastMaintenanceDate) ??
      reminder.lastMaintenanceDate;
  if ('maintenanceIntervalUnits' in value)
    reminder.maintenanceIntervalUnits =
      oneOf(errors, `${REMINDER}.maintenanceIntervalUnits`, value.maintenanceIntervalUnits, [
        'month',
        'hour',
      ] as const) ?? reminder.maintenanceIntervalUnits;
  if ('maintenanceInterval' in value)
    reminder.maintenanceInterval =
      integer(errors, `${REMINDER}.maintenanceInterval`, value.maintenanceInterval, 1, 10_000) ??
      reminder.maintenanceInterval;
  if (reminder.maintenanceIntervalUnits === 'month' && reminder.maintenanceInterval > 60) {
    errors.add(`${REMINDER}.maintenanceInterval`, 'Must be between 1 and 60 months.');
  }
}

function patchThresholds(
  errors: FieldErrors,
  next: AlertSettings,
  body: Record<string, unknown>,
): void {
  for (const [name, min, max] of THRESHOLD_ALERTS) {
    const value = body[name];
    if (value === undefined) continue;
    if (!isObject(value)) {
      errors.add(name, 'Must be an object with enabled and value.');
      continue;
    }
    rejectUnknown(errors, value, ['enabled', 'value'], name);
    if ('enabled' in value)
      next[name].enabled = boolean(errors, `${name}.enabled`, value.enabled) ?? next[name].enabled;
    if ('value' in value) {
      const threshold = name.includes('Humidity')
        ? integer(errors, `${name}.value`, value.value, min, max)
        : decimal(errors, `${name}.value`, value.value, min, max, ' F');
      if (threshold !== undefined) next[name].value = threshold;
    }
  }
}

/** A low and high pair must stay `gap` apart; the error names the value(s) the body changed. */
function checkGap(
  errors: FieldErrors,
  body: Record<string, unknown>,
  low: 'lowTemperatureAlert' | 'lowHumidityAlert',
  high: 'highTemperatureAlert' | 'highHumidityAlert',
  next: AlertSettings,
  gap: number,
  message: string,
): void {
  if (next[high].value - next[low].value >= gap) return;
  errors.add(low in body ? `${low}.value` : `${high}.value`, message);
  if (high in body) errors.add(`${high}.value`, message);
}

function patchAlerts(thermostat: Thermostat, body: Record<string, unknown>): void {
  const errors = new FieldErrors();
  rejectUnknown(errors, body, ALERT_FIELDS, '', {
    acMaintenanceReminder:
      'acMaintenanceReminder was removed in API v2; use hvacMaintenanceReminder.',
    id: 'Read-only: the thermostat id, given by the path.',
  });
  requireAnyOf(errors, body, ALERT_FIELDS);
  const next = structuredClone(thermostat.alertSettings);
  if (body[REMINDER] !== undefined) patchReminder(errors, next, body[REMINDER]);
  patchThresholds(errors, next, body);
  errors.throwIfAny();
  const delta = thermostat.heatCoolMinDelta;
  checkGap(
    errors,
    body,
    'lowTemperatureAlert',
    'highTemperatureAlert',
    next,
    delta,
    `Low and high temperature alerts must be at least ${delta} F apart.`,
  );
  checkGap(
    errors,
    body,
    'lowHumidityAlert',
    'highHumidityAlert',
    next,
    MIN_HUMIDITY_GAP,
    `Low and high humidity alerts must be at least ${MIN_HUMIDITY_GAP} % apart.`,
  );
  errors.throwIfAny();
  requireOnline(thermostat);
  thermostat.alertSettings = next;
}

/** `GET` and `PATCH /{thermostatId}/alertSettings`: both answer 200 with the record (with `id`). */
export const alertSettingsRoutes: ApiRoute[] = [
  thermostatRoute('GET', `${THERMOSTATS}/:id/alertSettings`, ({ res, thermostat }) => {
    sendSuccess(res, alertSettingsRecord(thermostat));
  }),
  thermostatRoute('PATCH', `${THERMOSTATS}/:id/alertSettings`, ({ res, thermostat, body }) => {
    patchAlerts(thermostat, body);
    sendSuccess(res, alertSettingsRecord(thermostat));
  }),
];
