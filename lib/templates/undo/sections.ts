import type { AlertChanges } from '@/lib/settings/alerts';
import {
  nameKey,
  type TemplateAccessControl,
  type TemplateAlerts,
  type TemplateComfortSetting,
  type TemplateConfiguration,
  templateAlertsSchema,
  templateComfortSettingSchema,
  templateConfigurationSchema,
} from '@/lib/templates/schema';
import { LOCK_AREAS } from '@/lib/service/schemas';

/**
 * A thermostat's state as the service reads it, turned into template sections: what an undo
 * goes back to, or what a change left. A read can hold what a template cannot (a hold action
 * no thermostat accepts, a reminder without a date): such a field is left out with a note in
 * words, so one odd field never costs the rest of an undo. Pure: data in, data out.
 */

/** A section, and a note for each field that could not be kept in it. */
export type Section<T> = { value: T | undefined; notes: string[] };

type Range = { min: number; max: number };

/** The fields of a comfort setting a template holds (the read's ref and extras dropped). */
export function comfortSettingOf(setting: {
  name: string;
  desiredHeat: number;
  desiredCool: number;
  fanHeat: string;
  fanCool: string;
}): Section<TemplateComfortSetting> {
  const parsed = templateComfortSettingSchema.safeParse({
    name: setting.name,
    desiredHeat: setting.desiredHeat,
    desiredCool: setting.desiredCool,
    fanHeat: setting.fanHeat,
    fanCool: setting.fanCool,
  });
  if (parsed.success) return { value: parsed.data, notes: [] };
  return {
    value: undefined,
    notes: [
      `Comfort setting “${setting.name}” is not restored: ${parsed.error.issues[0]?.message ?? 'its values cannot be set again'}`,
    ],
  };
}

/**
 * The week by comfort-setting name (Monday first), from refs and the settings that own them;
 * undefined when a block names a ref none of the settings has.
 */
export function weekByNames(
  week: readonly (readonly string[])[],
  settings: readonly { comfortSettingRef: string; name: string }[],
): string[][] | undefined {
  const names = new Map(settings.map((setting) => [setting.comfortSettingRef, setting.name]));
  const byName = week.map((day) => day.map((ref) => names.get(ref)));
  if (byName.some((day) => day.some((name) => name === undefined || name.trim() === '')))
    return undefined;
  return byName as string[][];
}

type ConfigurationRead = Partial<{
  heatRange: Range;
  coolRange: Range;
  holdAction: string;
  fanMinimumOnTime: number;
}>;

/** Configuration fields as a template section; a field the service would not take back is left out. */
export function configurationOf(read: ConfigurationRead): Section<TemplateConfiguration> {
  const notes: string[] = [];
  const value: Record<string, unknown> = {};
  const fields = templateConfigurationSchema.shape;
  const keep = <K extends keyof ConfigurationRead>(key: K, raw: unknown, words: string) => {
    if (raw === undefined) return;
    const parsed = fields[key].safeParse(raw);
    if (parsed.success) value[key] = parsed.data;
    else notes.push(`The ${words} is not restored: ${describeValue(raw)} cannot be set again.`);
  };
  keep('heatRange', read.heatRange && pickRange(read.heatRange), 'heat range');
  keep('coolRange', read.coolRange && pickRange(read.coolRange), 'cool range');
  keep('holdAction', read.holdAction, 'hold action');
  keep('fanMinimumOnTime', read.fanMinimumOnTime, 'fan minimum on-time');
  return {
    value: Object.keys(value).length > 0 ? (value as TemplateConfiguration) : undefined,
    notes,
  };
}

const pickRange = (range: Range): Range => ({ min: range.min, max: range.max });

type ReminderRead = Partial<{
  enabled: boolean;
  lastMaintenanceDate: string | null;
  maintenanceInterval: number;
  /** `month` or `hour`; a unit the service added since is not restored (the template refuses it). */
  maintenanceIntervalUnits: string;
}>;
type ThresholdRead = Partial<{ enabled: boolean; value: number }>;
type AlertsRead = Partial<{
  hvacMaintenanceReminder: ReminderRead;
  lowTemperatureAlert: ThresholdRead;
  highTemperatureAlert: ThresholdRead;
  lowHumidityAlert: ThresholdRead;
  highHumidityAlert: ThresholdRead;
}>;

const ALERT_NAMES = [
  'hvacMaintenanceReminder',
  'lowTemperatureAlert',
  'highTemperatureAlert',
  'lowHumidityAlert',
  'highHumidityAlert',
] as const;

const ALERT_WORDS: Record<(typeof ALERT_NAMES)[number], string> = {
  hvacMaintenanceReminder: 'maintenance reminder',
  lowTemperatureAlert: 'low temperature alert',
  highTemperatureAlert: 'high temperature alert',
  lowHumidityAlert: 'low humidity alert',
  highHumidityAlert: 'high humidity alert',
};

/**
 * Alert settings as a template section, each alert only with the fields in `fields` (all when
 * absent). An interval travels with its unit, as the service and the template take them; a
 * reminder without a date keeps the rest.
 */
export function alertsOf(read: AlertsRead, fields?: AlertChanges): Section<TemplateAlerts> {
  const notes: string[] = [];
  const value: Record<string, unknown> = {};
  const shape = templateAlertsSchema.shape;
  for (const name of ALERT_NAMES) {
    const wanted = fields ? fields[name] : read[name];
    if (wanted === undefined) continue;
    const now = read[name] as Record<string, unknown> | undefined;
    if (!now) {
      notes.push(`The ${ALERT_WORDS[name]} is not restored: it was not set before.`);
      continue;
    }
    let keys = Object.keys(wanted).filter((key) => key !== 'nextReminderDate');
    if (keys.includes('maintenanceInterval') || keys.includes('maintenanceIntervalUnits'))
      keys = [...new Set([...keys, 'maintenanceInterval', 'maintenanceIntervalUnits'])];
    const alert: Record<string, unknown> = {};
    for (const key of keys) {
      if (now[key] === null || now[key] === undefined) {
        notes.push(`The ${ALERT_WORDS[name]}’s ${wordsOf(key)} is not restored: it had none.`);
      } else alert[key] = now[key];
    }
    if (Object.keys(alert).length === 0) continue;
    const parsed = shape[name].safeParse(alert);
    if (parsed.success) value[name] = parsed.data;
    else
      notes.push(
        `The ${ALERT_WORDS[name]} is not restored: ${parsed.error.issues[0]?.message ?? 'its values cannot be set again'}`,
      );
  }
  return { value: Object.keys(value).length > 0 ? (value as TemplateAlerts) : undefined, notes };
}

/** Locks as a template holds them: never a passcode, whatever the input carries. */
export function lockStateOf(state: {
  enabled: boolean;
  settings?: Partial<Record<(typeof LOCK_AREAS)[number], boolean>>;
}): TemplateAccessControl {
  if (!state.enabled) return { enabled: false };
  return {
    enabled: true,
    settings: Object.fromEntries(
      LOCK_AREAS.map((area) => [area, state.settings?.[area] === true]),
    ) as Record<(typeof LOCK_AREAS)[number], boolean>,
  };
}

/** Whether two names are the same setting at the service (trimmed, ignoring case). */
export const sameName = (a: string, b: string) => nameKey(a) === nameKey(b);

const wordsOf = (key: string) => key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

function describeValue(raw: unknown): string {
  if (typeof raw === 'string') return `“${raw}”`;
  if (raw && typeof raw === 'object' && 'min' in raw && 'max' in raw)
    return `${String(raw.min)}–${String(raw.max)} °F`;
  return String(raw);
}
