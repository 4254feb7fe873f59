/**
 * The service's codes in a property manager's words: HVAC modes, running equipment, access
 * scopes and time zones. Pages show these; the codes themselves appear only where a technician
 * needs them (a details disclosure).
 */

import { dateTimeFormat } from '@/lib/platform/time-format';

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
  heatPump3: 'Heat pump, stage 3',
  auxHeat1: 'Heating',
  auxHeat2: 'Heating, stage 2',
  auxHeat3: 'Heating, stage 3',
  compCool1: 'Cooling',
  compCool2: 'Cooling, stage 2',
  fan: 'Fan',
  humidifier: 'Humidifier',
  dehumidifier: 'Dehumidifier',
  ventilator: 'Ventilator',
  economizer: 'Economizer',
  compHotWater: 'Hot water (heat pump)',
  auxHotWater: 'Hot water',
};

/**
 * What is running in words: `['heatPump', 'fan']` (or history's `heatPump,fan`) → "Heat pump,
 * Fan"; nothing → "Idle"; not said → "—". A name the service added since is shown as it is.
 */
export function equipmentNames(running: readonly string[] | string | null | undefined): string {
  if (running === null || running === undefined) return '—';
  const codes = (typeof running === 'string' ? running.split(',') : running)
    .map((part) => part.trim())
    .filter(Boolean);
  return codes.length === 0
    ? 'Idle'
    : codes.map((code) => EQUIPMENT_NAMES[code] ?? code).join(', ');
}

const SCOPE_NAMES: Record<string, string> = {
  smartRead: 'Read thermostats',
  smartWrite: 'Read and change thermostats',
  ems: 'Read and change thermostats',
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
