import { z } from 'zod';
import { ACROSS_FIELDS, passedFields } from '@/lib/platform/forms';
import { formatDelta, formatTemperature } from '@/lib/platform/units';
import { HUMIDITY_MIN_GAP, TEMPERATURE_ALERT_LIMITS } from '@/lib/settings/alerts';
import {
  closerThan,
  readNumber,
  typedField,
  typedText,
  wholeNumber,
} from '@/lib/settings/form-data';
import { SMALLEST_HEAT_COOL_GAP, templateSchema } from '../schema';
import { INCLUDE_FIELDS } from './fields';
import { fieldOfPath } from './paths';
import { box, postedField, type SectionContext, temperatureField, templateSays } from './section';
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

/** Any whole number: the template schema says a percent's limits. */
const ANY_WHOLE = { min: Number.NEGATIVE_INFINITY, max: Number.POSITIVE_INFINITY };

/**
 * Alerts: each switch as ticked; a blank value or interval left as each thermostat has it. The
 * limits of a humidity, a date and an interval are the template schema's, said at once.
 */
export function alertsSchema(context: SectionContext) {
  const { unit } = context;
  const temperatureAlert = (field: string, what: string) =>
    temperatureField(context, field, TEMPERATURE_ALERT_LIMITS, `${what} temperature alert`);
  const humidityAlert = typedField(wholeNumber(ANY_WHOLE, 'Enter a whole percent.'));
  return z
    .object({
      maintenanceEnabled: box,
      lastMaintenanceDate: typedText,
      maintenanceInterval: typedText
        .transform(readNumber)
        .refine((interval) => !Number.isNaN(interval), 'Enter a whole number.'),
      maintenanceIntervalUnits: postedField,
      lowTemperatureEnabled: box,
      lowTemperatureValue: temperatureAlert('lowTemperatureValue', 'low'),
      highTemperatureEnabled: box,
      highTemperatureValue: temperatureAlert('highTemperatureValue', 'high'),
      lowHumidityEnabled: box,
      lowHumidityValue: humidityAlert,
      highHumidityEnabled: box,
      highHumidityValue: humidityAlert,
    })
    .superRefine((values, ctx) => {
      const { passed } = passedFields(values, ctx);
      const fail = (field: string, message: string) =>
        ctx.addIssue({ code: 'custom', path: [field], message });
      const { lowTemperatureValue: low, highTemperatureValue: high } = passed;
      if (low !== undefined && closerThan(SMALLEST_HEAT_COOL_GAP, low, high)) {
        fail(
          'highTemperatureValue',
          `Keep the high temperature alert at least ${formatDelta(SMALLEST_HEAT_COOL_GAP, unit)} above the low one (${formatTemperature(low, unit)}).`,
        );
      }
      const { lowHumidityValue: lowH, highHumidityValue: highH } = passed;
      if (closerThan(HUMIDITY_MIN_GAP, lowH, highH)) {
        fail(
          'highHumidityValue',
          `Keep the high humidity alert at least ${HUMIDITY_MIN_GAP} % above the low one (${lowH} %).`,
        );
      }
      templateSays(ctx, templateSchema.shape.alerts, alertsOf(passed), (path) =>
        fieldOfPath(['alerts', ...path], []),
      );
    }, ACROSS_FIELDS)
    .transform(alertsOf);
}

type AlertValues = Partial<{
  maintenanceEnabled: boolean;
  lastMaintenanceDate: string;
  maintenanceInterval: number;
  maintenanceIntervalUnits: string;
  lowTemperatureEnabled: boolean;
  lowTemperatureValue: number;
  highTemperatureEnabled: boolean;
  highTemperatureValue: number;
  lowHumidityEnabled: boolean;
  lowHumidityValue: number;
  highHumidityEnabled: boolean;
  highHumidityValue: number;
}>;

/** The section as far as it was read: a value or interval only where one was. */
function alertsOf(values: AlertValues) {
  const interval = values.maintenanceInterval;
  const alerts: Record<string, unknown> = {
    hvacMaintenanceReminder: {
      enabled: values.maintenanceEnabled,
      ...(values.lastMaintenanceDate !== undefined && {
        lastMaintenanceDate: values.lastMaintenanceDate,
      }),
      ...(interval !== undefined && {
        maintenanceInterval: interval,
        maintenanceIntervalUnits: values.maintenanceIntervalUnits,
      }),
    },
  };
  for (const [name, prefix] of THRESHOLDS) {
    const value = values[`${prefix}Value`];
    alerts[name] = { enabled: values[`${prefix}Enabled`], ...(value !== undefined && { value }) };
  }
  return alerts;
}
