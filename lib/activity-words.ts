import 'server-only';
import { ROLE_NAMES } from '@/lib/auth/permissions';
import { runStatus } from '@/lib/bulk/words';
import { INCIDENT_KINDS, type IncidentKind } from '@/lib/notifications/kinds';
import { describeHoldAction } from '@/lib/settings/configuration';
import { formatTemperature, type TemperatureUnit } from '@/lib/units';
import type { ActivityEntry } from '@/lib/db/queries';
import { failureWords, modeName } from '@/lib/words';

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
};

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
const HIDDEN_KEYS = new Set(['runId', 'templateId', 'undoOf', 'undoOfEntry', 'retryOf', 'jobId']);

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

const plural = (n: number, one: string) => `${n} ${n === 1 ? one : `${one}s`}`;

/** A recorded code in words, by the field that holds it; any other text as recorded. */
function textWords(key: string, value: string): string {
  if (/mode$/i.test(key)) return modeName(value);
  if (/role$/i.test(key)) return ROLE_NAMES[value as keyof typeof ROLE_NAMES] ?? value;
  if (key === 'holdAction') return describeHoldAction(value);
  if (key === 'buildingIds' && value === 'all') return 'all buildings';
  if (key === 'kinds') return INCIDENT_KINDS[value as IncidentKind]?.name ?? value;
  return value;
}

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
    // Building ids read as how many buildings, not as ids.
    if (Array.isArray(value) && key === 'buildingIds') {
      return value.length === 0 ? 'none' : plural(value.length, 'building');
    }
    if (Array.isArray(value)) return value.map((item) => valueWords(key, item, unit)).join(', ');
    const record = value as Record<string, unknown>;
    if ('min' in record && 'max' in record) {
      return `${valueWords(key, record.min, unit)} to ${valueWords(key, record.max, unit)}`;
    }
    if ('from' in record && 'to' in record) {
      return `${valueWords(key, record.from, unit)} → ${valueWords(key, record.to, unit)}`;
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
 * action, a run's state); Setpoint's own identifiers are left out, and building ids read as a
 * count.
 */
export function changeLines(
  changes: Record<string, unknown>,
  unit: TemperatureUnit = 'F',
): [string, string][] {
  const valueWords = wordsIn(unit);
  return Object.entries(changes).flatMap(([key, value]): [string, string][] => {
    if (!shown(key, value)) return [];
    if (key === 'state') {
      const words = runStateWords(changes);
      return words ? [[fieldName(key), words]] : [];
    }
    return [[fieldName(key), valueWords(key, value)]];
  });
}

/**
 * Why an entry failed, in words (`rate_limited` → "the service was busy"), never the recorded
 * code. A run's entry records its failures in words already ("2 failed", "cancelled").
 */
export function errorWords(entry: Pick<ActivityEntry, 'error' | 'runId'>): string {
  if (!entry.error) return '';
  return entry.runId ? entry.error : failureWords(entry.error);
}
