import { formatDelta } from '@/lib/platform/units';
import { type AlertField, HUMIDITY_MIN_GAP, TEMPERATURE_ALERT_LIMITS } from '@/lib/settings/alerts';
import { readNumber } from '@/lib/settings/form-data';
import { SMALLEST_HEAT_COOL_GAP } from '../schema';
import { INCLUDE_FIELDS } from './fields';
import type { FormReader } from './reader';
import type { TemplateDraft } from './types';
import type { FormWriter } from './writer';

/**
 * The alert settings section: the fields of a thermostat's own alert form, by the same names (so
 * their checks and error placement are reused).
 */

const THRESHOLDS = [
  ['lowTemperatureAlert', 'lowTemperature', 'temperature'],
  ['highTemperatureAlert', 'highTemperature', 'temperature'],
  ['lowHumidityAlert', 'lowHumidity', 'humidity'],
  ['highHumidityAlert', 'highHumidity', 'humidity'],
] as const;

export function alertValues(draft: TemplateDraft, { values, tick, temperature, on }: FormWriter) {
  const alerts = draft.alerts;
  values[INCLUDE_FIELDS.alerts] = tick(alerts !== undefined);
  const reminder = alerts?.hvacMaintenanceReminder;
  values.maintenanceEnabled = on(reminder?.enabled);
  values.lastMaintenanceDate = reminder?.lastMaintenanceDate ?? '';
  values.maintenanceInterval =
    reminder?.maintenanceInterval === undefined ? '' : String(reminder.maintenanceInterval);
  values.maintenanceIntervalUnits = reminder?.maintenanceIntervalUnits ?? 'month';
  for (const [name, prefix, measure] of THRESHOLDS) {
    const alert = alerts?.[name];
    values[`${prefix}Enabled`] = on(alert?.enabled);
    if (measure === 'temperature') temperature(`${prefix}Value`, alert?.value);
    else values[`${prefix}Value`] = alert?.value === undefined ? '' : String(alert.value);
  }
}

/** Alerts: each switch as ticked; a blank value or interval left as each thermostat has it. */
export function parseAlerts({ unit, add, text, checked, temperature, degrees }: FormReader) {
  if (!checked(INCLUDE_FIELDS.alerts)) return undefined;
  const reminder: Record<string, unknown> = { enabled: checked('maintenanceEnabled') };
  const date = text('lastMaintenanceDate').trim();
  if (date) reminder.lastMaintenanceDate = date;
  const interval = readNumber(text('maintenanceInterval'));
  if (Number.isNaN(interval)) add('maintenanceInterval', 'Enter a whole number.');
  else if (interval !== undefined) {
    reminder.maintenanceInterval = interval;
    reminder.maintenanceIntervalUnits = text('maintenanceIntervalUnits');
  }
  const alerts: Record<string, unknown> = { hvacMaintenanceReminder: reminder };
  const values: Partial<Record<(typeof THRESHOLDS)[number][0], number>> = {};
  for (const [name, prefix, measure] of THRESHOLDS) {
    const alert: Record<string, unknown> = { enabled: checked(`${prefix}Enabled`) };
    const field = `${prefix}Value` as AlertField;
    if (text(field).trim() !== '') {
      const value =
        measure === 'temperature'
          ? temperature(
              field,
              TEMPERATURE_ALERT_LIMITS,
              `${prefix.startsWith('low') ? 'low' : 'high'} temperature alert`,
            )
          : humidity(text(field), (message) => add(field, message));
      if (value !== undefined) {
        alert.value = value;
        values[name] = value;
      }
    }
    alerts[name] = alert;
  }
  const { lowTemperatureAlert: low, highTemperatureAlert: high } = values;
  if (low !== undefined && high !== undefined && high - low < SMALLEST_HEAT_COOL_GAP) {
    add(
      'highTemperatureValue',
      `Keep the high temperature alert at least ${formatDelta(SMALLEST_HEAT_COOL_GAP, unit)} above the low one (${degrees(low)}).`,
    );
  }
  const { lowHumidityAlert: lowH, highHumidityAlert: highH } = values;
  if (lowH !== undefined && highH !== undefined && highH - lowH < HUMIDITY_MIN_GAP) {
    add(
      'highHumidityValue',
      `Keep the high humidity alert at least ${HUMIDITY_MIN_GAP} % above the low one (${lowH} %).`,
    );
  }
  return alerts;
}

function humidity(raw: string, fail: (message: string) => void): number | undefined {
  const value = readNumber(raw);
  if (value === undefined || Number.isNaN(value) || !Number.isInteger(value)) {
    fail('Enter a whole percent.');
    return undefined;
  }
  return value;
}
