import type { AlertSettings } from '@/lib/thermostat-api/schemas';
import {
  DECIMALS,
  formatDelta,
  formatRange,
  formatTemperature,
  type TemperatureUnit,
  toDisplay,
  toServiceFahrenheit,
} from '@/lib/units';
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
    } else if (
      Number.isNaN(interval) ||
      !Number.isInteger(interval) ||
      interval < limits.min ||
      interval > limits.max
    ) {
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

  // Temperature alerts: °F at the service, the manager's unit here.
  const degrees = (fahrenheit: number) => formatTemperature(fahrenheit, unit);
  const temperatures: Partial<Record<'lowTemperatureAlert' | 'highTemperatureAlert', number>> = {};
  for (const [name, prefix] of [
    ['lowTemperatureAlert', 'lowTemperature'],
    ['highTemperatureAlert', 'highTemperature'],
  ] as const) {
    const now = current[name] ?? DEFAULT_ALERT;
    const valueField = `${prefix}Value` as const;
    const alertChanges: Partial<ThresholdAlert> = {};
    const on = checked(input[`${prefix}Enabled`]);
    if (on !== now.enabled) alertChanges.enabled = on;
    const entered = readNumber(input[valueField]);
    if (entered === undefined) {
      add(valueField, 'Enter a temperature.');
    } else if (Number.isNaN(entered)) {
      add(valueField, 'Enter a number, e.g. 45.');
    } else if (!hasAtMostDecimals(entered, DECIMALS[unit])) {
      add(valueField, `Use at most ${DECIMALS[unit] === 1 ? 'one decimal' : 'two decimals'}.`);
    } else {
      const limits = TEMPERATURE_ALERT_LIMITS;
      const fahrenheit = toServiceFahrenheit(entered, unit, limits, now.value);
      if (fahrenheit === null) {
        add(valueField, `Must be between ${formatRange(limits, unit, ' and ')}.`);
      } else {
        temperatures[name] = fahrenheit;
        if (fahrenheit !== now.value) alertChanges.value = fahrenheit;
      }
    }
    if (Object.keys(alertChanges).length > 0) changes[name] = alertChanges;
  }
  const low = temperatures.lowTemperatureAlert;
  const high = temperatures.highTemperatureAlert;
  if (low !== undefined && high !== undefined && high - low < options.heatCoolMinDelta) {
    add(
      'highTemperatureValue',
      `Keep the high temperature alert at least ${formatDelta(options.heatCoolMinDelta, unit)} above the low one (${degrees(low)}).`,
    );
  }

  // Humidity alerts: whole percent.
  const humidity: Partial<Record<'lowHumidityAlert' | 'highHumidityAlert', number>> = {};
  for (const [name, prefix] of [
    ['lowHumidityAlert', 'lowHumidity'],
    ['highHumidityAlert', 'highHumidity'],
  ] as const) {
    const now = current[name] ?? DEFAULT_ALERT;
    const valueField = `${prefix}Value` as const;
    const alertChanges: Partial<ThresholdAlert> = {};
    const on = checked(input[`${prefix}Enabled`]);
    if (on !== now.enabled) alertChanges.enabled = on;
    const value = readNumber(input[valueField]);
    const limits = HUMIDITY_LIMITS[name];
    if (value === undefined) {
      add(valueField, 'Enter a humidity in %.');
    } else if (
      Number.isNaN(value) ||
      !Number.isInteger(value) ||
      value < limits.min ||
      value > limits.max
    ) {
      add(valueField, `Enter a whole percent from ${limits.min} to ${limits.max}.`);
    } else {
      humidity[name] = value;
      if (value !== now.value) alertChanges.value = value;
    }
    if (Object.keys(alertChanges).length > 0) changes[name] = alertChanges;
  }
  const lowH = humidity.lowHumidityAlert;
  const highH = humidity.highHumidityAlert;
  if (lowH !== undefined && highH !== undefined && highH - lowH < HUMIDITY_MIN_GAP) {
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
