import { z } from 'zod';
import type { AlertSettings } from '@/lib/service/schemas';
import { ACROSS_FIELDS, passedFields } from '@/lib/platform/forms';
import {
  formatDelta,
  formatTemperature,
  type TemperatureUnit,
  toDisplay,
} from '@/lib/platform/units';
import {
  checkedBy,
  closerThan,
  isWholeIn,
  readNumber,
  temperature,
  tickedBox,
  typedField,
  typedText,
  wholeNumber,
} from './form-data';

/**
 * Alert settings as a manager edits them: the HVAC maintenance reminder and the four threshold
 * alerts of the service contract (there is no AC maintenance reminder in version 2). Checked
 * before anything is sent; only what changed is sent.
 */

export const ALERT_FIELDS = [
  'maintenanceEnabled',
  'lastMaintenanceDate',
  'maintenanceInterval',
  'maintenanceIntervalUnits',
  'lowTemperatureEnabled',
  'lowTemperatureValue',
  'highTemperatureEnabled',
  'highTemperatureValue',
  'lowHumidityEnabled',
  'lowHumidityValue',
  'highHumidityEnabled',
  'highHumidityValue',
] as const;
export type AlertField = (typeof ALERT_FIELDS)[number];
export type AlertInput = Partial<Record<AlertField, unknown>>;
export type AlertErrors = Partial<Record<AlertField | 'form', string[]>>;

export const TEMPERATURE_ALERT_LIMITS = { min: -10, max: 120 } as const;
export const HUMIDITY_LIMITS = {
  lowHumidityAlert: { min: 1, max: 95 },
  highHumidityAlert: { min: 6, max: 100 },
} as const;
export const HUMIDITY_MIN_GAP = 5;
export const INTERVAL_LIMITS = {
  month: { min: 1, max: 60 },
  hour: { min: 1, max: 10_000 },
} as const;

type ThresholdAlert = { enabled: boolean; value: number };
const DEFAULT_ALERT: ThresholdAlert = { enabled: false, value: 0 };

export type AlertChanges = {
  hvacMaintenanceReminder?: Partial<{
    enabled: boolean;
    lastMaintenanceDate: string;
    maintenanceInterval: number;
    maintenanceIntervalUnits: 'month' | 'hour';
  }>;
  lowTemperatureAlert?: Partial<ThresholdAlert>;
  highTemperatureAlert?: Partial<ThresholdAlert>;
  lowHumidityAlert?: Partial<ThresholdAlert>;
  highHumidityAlert?: Partial<ThresholdAlert>;
};

export type AlertResult =
  | { ok: true; changes: AlertChanges }
  | { ok: false; fieldErrors: AlertErrors };

type ThresholdName =
  | 'lowTemperatureAlert'
  | 'highTemperatureAlert'
  | 'lowHumidityAlert'
  | 'highHumidityAlert';
/** Each threshold alert and the prefix of its fields (`lowTemperatureEnabled`, `…Value`). */
const THRESHOLDS = [
  ['lowTemperatureAlert', 'lowTemperature'],
  ['highTemperatureAlert', 'highTemperature'],
  ['lowHumidityAlert', 'lowHumidity'],
  ['highHumidityAlert', 'highHumidity'],
] as const;

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export type AlertOptions = {
  unit: TemperatureUnit;
  heatCoolMinDelta: number;
  current: AlertSettings;
  /** Today in the building's time zone (YYYY-MM-DD): maintenance cannot have happened later. */
  today: string;
};

/** The alerts form's schema: what it gives is the changes to send, only what differs from `current`. */
function alertsSchema(options: AlertOptions) {
  const { unit, current } = options;
  const reminder = current.hvacMaintenanceReminder;
  const now = (name: ThresholdName) => current[name] ?? DEFAULT_ALERT;
  const degrees = (fahrenheit: number) => formatTemperature(fahrenheit, unit);
  // Temperature alerts: °F at the service, the manager's unit here.
  const temperatureAlert = (name: ThresholdName) =>
    typedField(
      temperature({ unit, limits: TEMPERATURE_ALERT_LIMITS, kept: now(name).value, example: '45' }),
      'Enter a temperature.',
    );
  // Humidity alerts: whole percent.
  const humidityAlert = (name: keyof typeof HUMIDITY_LIMITS) => {
    const limits = HUMIDITY_LIMITS[name];
    return typedField(
      wholeNumber(limits, `Enter a whole percent from ${limits.min} to ${limits.max}.`),
      'Enter a humidity in %.',
    );
  };
  return z
    .object({
      maintenanceEnabled: tickedBox,
      lastMaintenanceDate: typedField(
        z.string().superRefine((date, ctx) => {
          const problem = !isCalendarDate(date)
            ? 'Enter a real date (YYYY-MM-DD).'
            : date > options.today
              ? 'The last maintenance cannot be in the future.'
              : null;
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }),
      ),
      // Its limits are its unit's: checked across the fields.
      maintenanceInterval: typedText.transform(readNumber),
      // Left blank: the unit it has.
      maintenanceIntervalUnits: typedText
        .transform((units) => units ?? reminder.maintenanceIntervalUnits)
        .pipe(z.enum(['month', 'hour'], 'Choose months or hours.')),
      lowTemperatureEnabled: tickedBox,
      lowTemperatureValue: temperatureAlert('lowTemperatureAlert'),
      highTemperatureEnabled: tickedBox,
      highTemperatureValue: temperatureAlert('highTemperatureAlert'),
      lowHumidityEnabled: tickedBox,
      lowHumidityValue: humidityAlert('lowHumidityAlert'),
      highHumidityEnabled: tickedBox,
      highHumidityValue: humidityAlert('highHumidityAlert'),
    })
    .superRefine((values, ctx) => {
      const { passed, refused } = passedFields(values, ctx);
      const fail = (field: AlertField, message: string) =>
        ctx.addIssue({ code: 'custom', path: [field], message });
      // The HVAC maintenance reminder: a date while it is on, an interval within its unit's limits.
      if (
        values.maintenanceEnabled &&
        passed.lastMaintenanceDate === undefined &&
        !refused('lastMaintenanceDate')
      ) {
        fail('lastMaintenanceDate', 'Enter the date of the last maintenance.');
      }
      const units = passed.maintenanceIntervalUnits;
      if (units !== undefined) {
        const interval = values.maintenanceInterval;
        const limits = INTERVAL_LIMITS[units];
        if (interval === undefined) {
          fail('maintenanceInterval', 'Enter how often maintenance is due.');
        } else if (!isWholeIn(interval, limits)) {
          fail(
            'maintenanceInterval',
            `Enter whole ${units === 'month' ? 'months' : 'hours'} from ${limits.min} to ${limits.max.toLocaleString('en-US')}.`,
          );
        }
      }
      // Each pair of threshold alerts: the high one far enough above the low one.
      const { lowTemperatureValue: low, highTemperatureValue: high } = passed;
      if (low !== undefined && closerThan(options.heatCoolMinDelta, low, high)) {
        fail(
          'highTemperatureValue',
          `Keep the high temperature alert at least ${formatDelta(options.heatCoolMinDelta, unit)} above the low one (${degrees(low)}).`,
        );
      }
      const { lowHumidityValue: lowH, highHumidityValue: highH } = passed;
      if (closerThan(HUMIDITY_MIN_GAP, lowH, highH)) {
        fail(
          'highHumidityValue',
          `Keep the high humidity alert at least ${HUMIDITY_MIN_GAP} % above the low one (${lowH} %).`,
        );
      }
    }, ACROSS_FIELDS)
    .transform((values) => {
      const changes: AlertChanges = {};
      const reminderChanges: NonNullable<AlertChanges['hvacMaintenanceReminder']> = {};
      const { maintenanceEnabled: enabled, lastMaintenanceDate: date } = values;
      const { maintenanceIntervalUnits: units, maintenanceInterval: interval } = values;
      if (enabled !== reminder.enabled) reminderChanges.enabled = enabled;
      if (date !== undefined && date !== reminder.lastMaintenanceDate) {
        reminderChanges.lastMaintenanceDate = date;
      }
      if (units !== reminder.maintenanceIntervalUnits) {
        reminderChanges.maintenanceIntervalUnits = units;
      }
      if (
        interval !== undefined &&
        (interval !== reminder.maintenanceInterval || reminderChanges.maintenanceIntervalUnits)
      ) {
        reminderChanges.maintenanceInterval = interval;
      }
      if (Object.keys(reminderChanges).length > 0)
        changes.hvacMaintenanceReminder = reminderChanges;
      for (const [name, prefix] of THRESHOLDS) {
        const alertChanges: Partial<ThresholdAlert> = {};
        const on = values[`${prefix}Enabled`];
        const value = values[`${prefix}Value`];
        if (on !== now(name).enabled) alertChanges.enabled = on;
        if (value !== now(name).value) alertChanges.value = value;
        if (Object.keys(alertChanges).length > 0) changes[name] = alertChanges;
      }
      return { changes };
    });
}

export function validateAlerts(input: AlertInput, options: AlertOptions): AlertResult {
  return checkedBy<AlertField, { changes: AlertChanges }>(alertsSchema(options), input);
}

/** Service paths (`hvacMaintenanceReminder.lastMaintenanceDate`) as form fields. */
/** The alerts form's field for a field path in the service's validation answer. */
export function alertFieldOf(path: string): AlertField | 'form' {
  const map: Record<string, AlertField> = {
    'hvacMaintenanceReminder.enabled': 'maintenanceEnabled',
    'hvacMaintenanceReminder.lastMaintenanceDate': 'lastMaintenanceDate',
    'hvacMaintenanceReminder.maintenanceInterval': 'maintenanceInterval',
    'hvacMaintenanceReminder.maintenanceIntervalUnits': 'maintenanceIntervalUnits',
    'lowTemperatureAlert.enabled': 'lowTemperatureEnabled',
    'lowTemperatureAlert.value': 'lowTemperatureValue',
    'highTemperatureAlert.enabled': 'highTemperatureEnabled',
    'highTemperatureAlert.value': 'highTemperatureValue',
    'lowHumidityAlert.enabled': 'lowHumidityEnabled',
    'lowHumidityAlert.value': 'lowHumidityValue',
    'highHumidityAlert.enabled': 'highHumidityEnabled',
    'highHumidityAlert.value': 'highHumidityValue',
  };
  return map[path] ?? 'form';
}

/** The form's starting values, in the manager's unit. */
export function alertFormValues(
  current: AlertSettings,
  unit: TemperatureUnit,
): Record<AlertField, string> {
  const r = current.hvacMaintenanceReminder;
  const alert = (a: ThresholdAlert | undefined) => a ?? DEFAULT_ALERT;
  const on = (a: ThresholdAlert | undefined) => (alert(a).enabled ? 'on' : '');
  return {
    maintenanceEnabled: r.enabled ? 'on' : '',
    lastMaintenanceDate: r.lastMaintenanceDate ?? '',
    maintenanceInterval: String(r.maintenanceInterval),
    maintenanceIntervalUnits: r.maintenanceIntervalUnits,
    lowTemperatureEnabled: on(current.lowTemperatureAlert),
    lowTemperatureValue: String(toDisplay(alert(current.lowTemperatureAlert).value, unit)),
    highTemperatureEnabled: on(current.highTemperatureAlert),
    highTemperatureValue: String(toDisplay(alert(current.highTemperatureAlert).value, unit)),
    lowHumidityEnabled: on(current.lowHumidityAlert),
    lowHumidityValue: String(alert(current.lowHumidityAlert).value),
    highHumidityEnabled: on(current.highHumidityAlert),
    highHumidityValue: String(alert(current.highHumidityAlert).value),
  };
}
