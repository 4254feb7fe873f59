/**
 * The service's codes in a property manager's words: HVAC modes, running equipment, access
 * scopes and time zones. Pages show these; the codes themselves appear only where a technician
 * needs them (a details disclosure).
 */

import { dateTimeFormat } from '@/lib/time-format';
import { formatTemperature, type TemperatureUnit } from '@/lib/units';

const MODE_NAMES: Record<string, string> = {
  heat: 'Heat',
  auxHeatOnly: 'Auxiliary heat only',
  cool: 'Cool',
  auto: 'Auto (heat or cool)',
  off: 'Off',
};

/** `auxHeatOnly` → "Auxiliary heat only"; an unknown mode as the service says it. */
export const modeName = (mode: string | null | undefined, ifMissing = '—'): string =>
  mode ? (MODE_NAMES[mode] ?? mode) : ifMissing;

const EQUIPMENT_NAMES: Record<string, string> = {
  heatPump: 'Heat pump',
  heatPump2: 'Heat pump, stage 2',
  auxHeat1: 'Heating',
  auxHeat2: 'Heating, stage 2',
  compCool1: 'Cooling',
  compCool2: 'Cooling, stage 2',
  fan: 'Fan',
};

/** `heatPump,fan` → "Heat pump, Fan"; empty → "Idle". */
export function equipmentNames(status: string | null | undefined): string {
  const running = (status ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  return running.length === 0
    ? 'Idle'
    : running.map((code) => EQUIPMENT_NAMES[code] ?? code).join(', ');
}

const SCOPE_NAMES: Record<string, string> = {
  smartRead: 'Read thermostats',
  smartWrite: 'Read and change thermostats',
};

/** The access the service granted: `smartWrite` → "Read and change thermostats". */
export function scopeNames(scope: string | null | undefined): string {
  const parts = (scope ?? '').split(/[\s,]+/).filter(Boolean);
  return parts.length === 0 ? '—' : parts.map((part) => SCOPE_NAMES[part] ?? part).join(', ');
}

/**
 * A time zone as people say it: `America/Los_Angeles` → "Pacific Time (Los Angeles)". The
 * generic name does not change with daylight saving time.
 */
export function timeZoneName(timeZone: string): string {
  const city = timeZone.split('/').at(-1)?.replace(/_/g, ' ') ?? timeZone;
  try {
    const generic = dateTimeFormat({ timeZone, timeZoneName: 'longGeneric' })
      .formatToParts(new Date())
      .find((part) => part.type === 'timeZoneName')?.value;
    return generic && !generic.startsWith('GMT') ? `${generic} (${city})` : city;
  } catch {
    return city;
  }
}

const FAILURE_WORDS: Record<string, string> = {
  not_connected: 'the service account was not connected',
  reconnect: 'the connection to the service had ended',
  unauthorized: 'the connection to the service had ended',
  forbidden: 'the service refused access',
  not_found: 'the service did not know it',
  validation: 'the service refused the values',
  conflict: 'it had changed meanwhile',
  rate_limited: 'the service was busy',
  unavailable: 'the service did not answer',
  invalid_response: 'the service answered with something unreadable',
};

/** Why a change failed, from its recorded ServiceError kind: `validation` → "the service refused the values". */
export const failureWords = (kind: string): string => FAILURE_WORDS[kind] ?? 'something went wrong';

const FIELD_NAMES: Record<string, string> = {
  hvacMode: 'HVAC mode',
  isResidentMode: 'Resident mode',
  fanMinimumOnTime: 'Fan minimum on-time (minutes per hour)',
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
    if (typeof value === 'string') return /mode$/i.test(key) ? modeName(value) : value;
    if (typeof value === 'number') return numberWords(value, unit);
    if (Array.isArray(value)) return value.map((item) => valueWords(key, item, unit)).join(', ');
    const record = value as Record<string, unknown>;
    if ('min' in record && 'max' in record) {
      return `${valueWords(key, record.min, unit)} to ${valueWords(key, record.max, unit)}`;
    }
    if ('from' in record && 'to' in record) {
      return `${valueWords(key, record.from, unit)} → ${valueWords(key, record.to, unit)}`;
    }
    return Object.entries(record)
      .map(
        ([inner, item]) =>
          `${fieldName(inner).toLowerCase()} ${valueWords(inner, item, FIELD_UNITS[inner] ?? unit)}`,
      )
      .join(', ');
  };
  return valueWords;
}

/**
 * An activity entry's recorded changes as lines a person reads ("Heat range: 60 °F to 72 °F →
 * 62 °F to 72 °F"), not JSON. Temperatures are recorded in °F, as the service holds them, and
 * read in the reader's unit, each with its unit.
 */
export function changeLines(
  changes: Record<string, unknown>,
  unit: TemperatureUnit = 'F',
): [string, string][] {
  const valueWords = wordsIn(unit);
  return Object.entries(changes).map(([key, value]) => [fieldName(key), valueWords(key, value)]);
}
