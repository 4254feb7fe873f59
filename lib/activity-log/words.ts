import 'server-only';
import {
  isTemplateBody,
  isWeek,
  templateChangeLines,
  weekInRanges,
} from '@/lib/activity-log/template-words';
import { ROLE_NAMES } from '@/lib/auth/permissions';
import { runStatus } from '@/lib/runs/words';
import type { ActivityEntry } from '@/lib/activity/store';
import { INCIDENT_KINDS, type IncidentKind } from '@/lib/notifications/kinds';
import { DAY_LABELS, type Day, describeRange } from '@/lib/schedule/blocks';
import { describeHoldAction } from '@/lib/settings/configuration';
import { DAYS } from '@/lib/service/schemas';
import { formatTemperature, type TemperatureUnit } from '@/lib/platform/units';
import { modeName, timeZoneName } from '@/lib/platform/words';
import { failureWords } from '@/lib/service/errors';

/**
 * An activity entry's recorded changes in words, for the activity page's details (server only:
 * it reads roles, run states and settings words that client pages have no use for).
 */

const FIELD_NAMES: Record<string, string> = {
  buildingIds: 'Buildings',
  hvacMode: 'HVAC mode',
  isResidentMode: 'Resident mode',
  ssoDefaultRole: 'Company SSO default role',
  fanMinimumOnTime: 'Fan minimum on-time (minutes per hour)',
  kinds: 'Incidents',
  hvacMaintenanceReminder: 'Maintenance reminder',
  fanHeat: 'Fan when heating',
  fanCool: 'Fan when cooling',
  thermostatIds: 'Thermostats',
  ssoDomain: 'Company SSO email domain',
};

/**
 * The alert settings as a change names them (`hvacMaintenanceReminder`), in the words of the
 * alerts page: what an alert-settings entry says it changed.
 */
export const ALERT_NAMES: Record<string, string> = {
  hvacMaintenanceReminder: 'maintenance reminder',
  lowTemperatureAlert: 'low temperature alert',
  highTemperatureAlert: 'high temperature alert',
  lowHumidityAlert: 'low humidity alert',
  highHumidityAlert: 'high humidity alert',
};

/** "maintenance reminder, low temperature alert": the alert settings a change names, in words. */
export function alertNamesInWords(keys: readonly string[]): string {
  return keys.map((key) => ALERT_NAMES[key] ?? fieldName(key).toLowerCase()).join(', ');
}

const ALERT_KEY = `(?:${Object.keys(ALERT_NAMES).join('|')})`;
/** "(hvacMaintenanceReminder, lowTemperatureAlert)": the list an alert-settings summary ends with. */
const ALERT_LIST = new RegExp(`\\((${ALERT_KEY}(?:, ${ALERT_KEY})*)\\)`, 'g');

/**
 * An entry's stored summary with the codes an older writer put in it in words: an alert-settings
 * change written as "Changed alert settings of Unit 101 (hvacMaintenanceReminder)" reads
 * "… (maintenance reminder)". Any other summary as stored.
 */
export function summaryInWords(entry: Pick<ActivityEntry, 'action' | 'summary'>): string {
  if (entry.action !== 'alert_settings.update') return entry.summary;
  return entry.summary.replace(
    ALERT_LIST,
    (_match, keys: string) => `(${alertNamesInWords(keys.split(', '))})`,
  );
}

/** `coolRange` → "Cool range"; a few by name. */
const fieldName = (key: string) => {
  if (FIELD_NAMES[key]) return FIELD_NAMES[key];
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * Recorded fields whose numbers carry a unit: temperatures are °F, as the service holds them (and
 * as every change is recorded), humidities are %. Fields inside one inherit its unit
 * (`lowTemperatureAlert.value`).
 */
const FIELD_UNITS: Record<string, 'F' | '%'> = {
  heatRange: 'F',
  coolRange: 'F',
  desiredHeat: 'F',
  desiredCool: 'F',
  lowTemperatureAlert: 'F',
  highTemperatureAlert: 'F',
  lowHumidityAlert: '%',
  highHumidityAlert: '%',
};

/**
 * Recorded keys that hold Setpoint's own identifiers (a run, a template, the entry or run undone,
 * a job): nothing a person can use, so not shown.
 */
const HIDDEN_KEYS = new Set([
  'runId',
  'templateId',
  'undoOf',
  'undoOfEntry',
  'retryOf',
  'jobId',
  // The service's own name for a comfort setting ("smart1"): the entry's words name the setting.
  'comfortSettingRef',
]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A uuid, or a list or `{ from, to }` of nothing else: an identifier, not something to read. */
function isIdentifier(value: unknown): boolean {
  if (typeof value === 'string') return UUID.test(value);
  if (Array.isArray(value)) return value.length > 0 && value.every(isIdentifier);
  if (value && typeof value === 'object' && 'from' in value && 'to' in value) {
    const { from, to } = value as { from: unknown; to: unknown };
    const ids = [from, to].filter((end) => end !== null && end !== undefined);
    return ids.length > 0 && ids.every(isIdentifier);
  }
  return false;
}

const shown = (key: string, value: unknown) => !HIDDEN_KEYS.has(key) && !isIdentifier(value);

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What kind of run a run's entry is about, as its lists say it. */
const RUN_KINDS: Record<string, string> = {
  template: 'Template run',
  undo: 'Undo run',
  configuration: 'Bulk configuration',
};

const INTERVAL_UNITS: Record<string, string> = { month: 'months', hour: 'hours of running' };
const FAN_VALUES: Record<string, string> = { auto: 'auto', on: 'always on' };

/** A recorded code in words, by the field that holds it; any other text as recorded. */
function textWords(key: string, value: string): string {
  if (/mode$/i.test(key)) return modeName(value);
  if (/role$/i.test(key)) return ROLE_NAMES[value as keyof typeof ROLE_NAMES] ?? value;
  if (key === 'holdAction') return describeHoldAction(value);
  if (key === 'buildingIds' && value === 'all') return 'all buildings';
  if (key === 'kinds') return INCIDENT_KINDS[value as IncidentKind]?.name ?? value;
  if (key === 'kind') return RUN_KINDS[value] ?? value;
  if (key === 'days') return DAY_LABELS[value as Day] ?? value;
  if (key === 'timeZone') return timeZoneName(value);
  if (key === 'maintenanceIntervalUnits') return INTERVAL_UNITS[value] ?? value;
  if (key === 'fanHeat' || key === 'fanCool') return FAN_VALUES[value] ?? value;
  return value;
}

/** The maintenance reminder as the alerts page says it: "on, last done 2026-05-01, every 6 months". */
function reminderWords(record: Record<string, unknown>): string | null {
  const { enabled, lastMaintenanceDate, maintenanceInterval, maintenanceIntervalUnits } = record;
  const known = [
    'enabled',
    'lastMaintenanceDate',
    'maintenanceInterval',
    'maintenanceIntervalUnits',
  ];
  if (!Object.keys(record).every((key) => known.includes(key))) return null;
  const hours = maintenanceIntervalUnits === 'hour';
  const parts: string[] = [];
  if (typeof enabled === 'boolean') parts.push(enabled ? 'on' : 'off');
  if (typeof lastMaintenanceDate === 'string' && lastMaintenanceDate) {
    parts.push(`last done ${lastMaintenanceDate}`);
  }
  if (typeof maintenanceInterval === 'number') {
    parts.push(
      `every ${plural(maintenanceInterval, hours ? 'hour of running' : 'month', hours ? 'hours of running' : 'months')}`,
    );
  } else if (typeof maintenanceIntervalUnits === 'string') {
    parts.push(
      `counted in ${INTERVAL_UNITS[maintenanceIntervalUnits] ?? maintenanceIntervalUnits}`,
    );
  }
  return parts.length > 0 ? parts.join(', ') : null;
}

/** At most this many thermostat ids are listed; the rest are counted. */
const IDS_LISTED = 10;

/** Recorded values in words, temperatures in the reader's unit. */
function wordsIn(reader: TemperatureUnit) {
  const numberWords = (value: number, unit: 'F' | '%' | undefined): string => {
    if (unit === 'F') return formatTemperature(value, reader);
    if (unit === '%') return `${value} %`;
    return String(value);
  };
  const valueWords = (key: string, value: unknown, unit = FIELD_UNITS[key]): string => {
    if (value === null || value === undefined || value === '') return '—';
    if (typeof value === 'boolean') return value ? 'on' : 'off';
    if (typeof value === 'string') return textWords(key, value);
    if (typeof value === 'number') return numberWords(value, unit);
    // A week reads as its ranges, never as its 336 half-hour blocks.
    if (isWeek(value)) return weekInRanges(value).join('; ');
    // Building ids read as how many buildings, not as ids.
    if (Array.isArray(value) && key === 'buildingIds') {
      return value.length === 0 ? 'none' : plural(value.length, 'building');
    }
    // Thermostats added: how many, and the first few ids.
    if (Array.isArray(value) && key === 'thermostatIds') {
      const listed = value.slice(0, IDS_LISTED).map(String).join(', ');
      const more = value.length > IDS_LISTED ? ` and ${value.length - IDS_LISTED} more` : '';
      return value.length === 0
        ? 'none'
        : `${plural(value.length, 'thermostat')}: ${listed}${more}`;
    }
    if (Array.isArray(value)) return value.map((item) => valueWords(key, item, unit)).join(', ');
    const record = value as Record<string, unknown>;
    if (key === 'hvacMaintenanceReminder') {
      const words = reminderWords(record);
      if (words) return words;
    }
    if ('min' in record && 'max' in record) {
      return `${valueWords(key, record.min, unit)} to ${valueWords(key, record.max, unit)}`;
    }
    if ('from' in record && 'to' in record) {
      return `${valueWords(key, record.from, unit)} → ${valueWords(key, record.to, unit)}`;
    }
    // A group's new name or filter is recorded as `{ before, after }`.
    if ('before' in record && 'after' in record && Object.keys(record).length === 2) {
      return `${valueWords(key, record.before, unit)} → ${valueWords(key, record.after, unit)}`;
    }
    return Object.entries(record)
      .filter(([inner, item]) => shown(inner, item))
      .map(
        ([inner, item]) =>
          `${fieldName(inner).toLowerCase()} ${valueWords(inner, item, FIELD_UNITS[inner] ?? unit)}`,
      )
      .join(', ');
  };
  return valueWords;
}

/**
 * A bulk or planned run's recorded state in the words every list shows it in ("Done with 3
 * failures"), from the counts its entry recorded beside it; null when they are not there.
 */
function runStateWords(changes: Record<string, unknown>): string | null {
  const { state } = changes;
  const count = (key: string) => (typeof changes[key] === 'number' ? changes[key] : 0);
  if (typeof state !== 'string' || typeof changes.total !== 'number') return null;
  const known = ['planning', 'planned', 'queued', 'running', 'cancelled', 'done'];
  if (!known.includes(state)) return null;
  const blocked = count('blocked');
  return runStatus({
    state: state as Parameters<typeof runStatus>[0]['state'],
    total: changes.total,
    applied: count('applied'),
    failed: count('failed'),
    notSent: count('notSent'),
    cancelled: count('cancelled'),
    cancelRequestedAt: null,
    skipped: count('unchanged') + blocked,
    blocked,
  }).label;
}

/**
 * An activity entry's recorded changes as lines a person reads ("Heat range: 60 °F to 72 °F →
 * 62 °F to 72 °F"), not JSON. Temperatures are recorded in °F, as the service holds them, and
 * read in the reader's unit, each with its unit. Codes read in words (modes, roles, the hold
 * action, a run's state and kind, days, time zones, the maintenance reminder); Setpoint's own
 * identifiers and the service's comfort-setting refs are left out, and building ids read as a
 * count. A template reads section by section, a week as ranges ("Mon–Fri 06:00–22:00 Home,
 * 22:00–06:00 Sleep"), never as its 336 half-hour blocks; a schedule change as when it applies.
 */
export function changeLines(
  changes: Record<string, unknown>,
  unit: TemperatureUnit = 'F',
): [string, string][] {
  const valueWords = wordsIn(unit);
  // A template entry: its sections in words (a schedule as ranges), a change as what changed.
  if (
    'before' in changes &&
    'after' in changes &&
    (isTemplateBody(changes.before) || isTemplateBody(changes.after))
  ) {
    const { before, after, ...rest } = changes;
    return [
      ...templateChangeLines(before, after, unit, (value) => valueWords('template', value)),
      ...changeLines(rest, unit),
    ];
  }
  const range = scheduleRangeOf(changes);
  return Object.entries(changes).flatMap(([key, value]): [string, string][] => {
    // A schedule range: one line of when, as the entry's words say it.
    if (range && (key === 'firstSlot' || key === 'lastSlot')) return [];
    if (range && key === 'days') return [['When', describeRange(range)]];
    if (!shown(key, value)) return [];
    if (key === 'state') {
      const words = runStateWords(changes);
      return words ? [[fieldName(key), words]] : [];
    }
    return [[fieldName(key), valueWords(key, value)]];
  });
}

/** The range a schedule change recorded (`days`, `firstSlot`, `lastSlot`), or null. */
function scheduleRangeOf(
  changes: Record<string, unknown>,
): { days: Day[]; firstSlot: number; lastSlot: number } | null {
  const { days, firstSlot, lastSlot } = changes;
  if (!Array.isArray(days) || typeof firstSlot !== 'number' || typeof lastSlot !== 'number') {
    return null;
  }
  const known = days.filter((day): day is Day => (DAYS as readonly unknown[]).includes(day));
  return known.length === days.length && known.length > 0
    ? { days: known, firstSlot, lastSlot }
    : null;
}

/**
 * Why an entry failed, in words (`rate_limited` → "the service was busy"), never the recorded
 * code. A run's entry records its failures in words already ("2 failed", "cancelled").
 */
export function errorWords(entry: Pick<ActivityEntry, 'error' | 'runId'>): string {
  if (!entry.error) return '';
  return entry.runId ? entry.error : failureWords(entry.error);
}
