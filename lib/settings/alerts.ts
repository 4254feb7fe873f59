import type { AlertSettings } from '@/lib/service/schemas';
import {
  DECIMALS,
  formatDelta,
  formatRange,
  formatTemperature,
  type TemperatureUnit,
  toDisplay,
  toServiceFahrenheit,
} from '@/lib/platform/units';
import { hasAtMostDecimals, readNumber } from './form-data';

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
/** A whole number within the limits (never NaN). */
const isWholeIn = (value: number, limits: { min: number; max: number }) =>
  Number.isInteger(value) && value >= limits.min && value <= limits.max;
const checked = (value: unknown) => value === 'on' || value === 'true' || value === true;
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export function validateAlerts(
  input: AlertInput,
  options: {
    unit: TemperatureUnit;
    heatCoolMinDelta: number;
    current: AlertSettings;
    /** Today in the building's time zone (YYYY-MM-DD): maintenance cannot have happened later. */
    today: string;
  },
): AlertResult {
  const { unit, current } = options;
  const errors: AlertErrors = {};
  const add = (field: AlertField, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  const changes: AlertChanges = {};

  // HVAC maintenance reminder.
  const reminder = current.hvacMaintenanceReminder;
  const reminderChanges: NonNullable<AlertChanges['hvacMaintenanceReminder']> = {};
  const enabled = checked(input.maintenanceEnabled);
  if (enabled !== reminder.enabled) reminderChanges.enabled = enabled;
  const date = text(input.lastMaintenanceDate);
  if (date === '') {
    if (enabled) add('lastMaintenanceDate', 'Enter the date of the last maintenance.');
  } else if (!isCalendarDate(date)) {
    add('lastMaintenanceDate', 'Enter a real date (YYYY-MM-DD).');
  } else if (date > options.today) {
    add('lastMaintenanceDate', 'The last maintenance cannot be in the future.');
  } else if (date !== reminder.lastMaintenanceDate) {
    reminderChanges.lastMaintenanceDate = date;
  }
  const units = text(input.maintenanceIntervalUnits) || reminder.maintenanceIntervalUnits;
  if (units !== 'month' && units !== 'hour') {
    add('maintenanceIntervalUnits', 'Choose months or hours.');
  } else {
    if (units !== reminder.maintenanceIntervalUnits)
      reminderChanges.maintenanceIntervalUnits = units;
    const interval = readNumber(input.maintenanceInterval);
    const limits = INTERVAL_LIMITS[units];
    if (interval === undefined) {
      add('maintenanceInterval', 'Enter how often maintenance is due.');
    } else if (!isWholeIn(interval, limits)) {
      add(
        'maintenanceInterval',
        `Enter whole ${units === 'month' ? 'months' : 'hours'} from ${limits.min} to ${limits.max.toLocaleString('en-US')}.`,
      );
    } else if (
      interval !== reminder.maintenanceInterval ||
      reminderChanges.maintenanceIntervalUnits
    ) {
      reminderChanges.maintenanceInterval = interval;
    }
  }
  if (Object.keys(reminderChanges).length > 0) changes.hvacMaintenanceReminder = reminderChanges;

  /**
   * One threshold alert: its switch, and its value as `parse` reads it (an error goes under the
   * value's field). Records what changed; gives the value, if good, for the pair's gap check.
   */
  const threshold = (
    name: ThresholdName,
    prefix: 'lowTemperature' | 'highTemperature' | 'lowHumidity' | 'highHumidity',
    parse: (raw: unknown, now: number) => { value: number } | { error: string },
  ): number | undefined => {
    const now = current[name] ?? DEFAULT_ALERT;
    const alertChanges: Partial<ThresholdAlert> = {};
    const on = checked(input[`${prefix}Enabled`]);
    if (on !== now.enabled) alertChanges.enabled = on;
    const read = parse(input[`${prefix}Value`], now.value);
    if ('error' in read) add(`${prefix}Value`, read.error);
    else if (read.value !== now.value) alertChanges.value = read.value;
    if (Object.keys(alertChanges).length > 0) changes[name] = alertChanges;
    return 'value' in read ? read.value : undefined;
  };
  const tooClose = (low: number | undefined, high: number | undefined, gap: number) =>
    low !== undefined && high !== undefined && high - low < gap;

  // Temperature alerts: °F at the service, the manager's unit here.
  const degrees = (fahrenheit: number) => formatTemperature(fahrenheit, unit);
  const temperature = (raw: unknown, now: number) => {
    const entered = readNumber(raw);
    if (entered === undefined) return { error: 'Enter a temperature.' };
    if (Number.isNaN(entered)) return { error: 'Enter a number, e.g. 45.' };
    if (!hasAtMostDecimals(entered, DECIMALS[unit])) {
      return { error: `Use at most ${DECIMALS[unit] === 1 ? 'one decimal' : 'two decimals'}.` };
    }
    const limits = TEMPERATURE_ALERT_LIMITS;
    const fahrenheit = toServiceFahrenheit(entered, unit, limits, now);
    if (fahrenheit === null)
      return { error: `Must be between ${formatRange(limits, unit, ' and ')}.` };
    return { value: fahrenheit };
  };
  const low = threshold('lowTemperatureAlert', 'lowTemperature', temperature);
  const high = threshold('highTemperatureAlert', 'highTemperature', temperature);
  if (low !== undefined && tooClose(low, high, options.heatCoolMinDelta)) {
    add(
      'highTemperatureValue',
      `Keep the high temperature alert at least ${formatDelta(options.heatCoolMinDelta, unit)} above the low one (${degrees(low)}).`,
    );
  }

  // Humidity alerts: whole percent.
  const humidity = (limits: { min: number; max: number }) => (raw: unknown) => {
    const value = readNumber(raw);
    if (value === undefined) return { error: 'Enter a humidity in %.' };
    if (!isWholeIn(value, limits)) {
      return { error: `Enter a whole percent from ${limits.min} to ${limits.max}.` };
    }
    return { value };
  };
  const lowH = threshold(
    'lowHumidityAlert',
    'lowHumidity',
    humidity(HUMIDITY_LIMITS.lowHumidityAlert),
  );
  const highH = threshold(
    'highHumidityAlert',
    'highHumidity',
    humidity(HUMIDITY_LIMITS.highHumidityAlert),
  );
  if (tooClose(lowH, highH, HUMIDITY_MIN_GAP)) {
    add(
      'highHumidityValue',
      `Keep the high humidity alert at least ${HUMIDITY_MIN_GAP} % above the low one (${lowH} %).`,
    );
  }

  if (Object.keys(errors).length > 0) return { ok: false, fieldErrors: errors };
  return { ok: true, changes };
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
