import { formatMoment } from '@/lib/platform/time-format';
import { formatTemperature, type TemperatureUnit } from '@/lib/platform/units';
import { modeName } from '@/lib/platform/words';
import { isServiceWideKind } from './outage';
import type { BuildingRow, RowReading } from './row-types';
import { problemWords } from '@/lib/service/errors';
import { ageWords } from './words';

/**
 * What one row of a building's table shows, in words: units, the building's time zone and ages
 * are worked out on the server, so the row's client component carries no formatting code and the
 * page's RSC payload carries these few strings instead of each row's element tree.
 */
export type RowCells = {
  thermostatId: string;
  label: string;
  /** Whether the id is shown under the label (it is the label when the unit has none). */
  showId: boolean;
  /** `stale` while the row is read again; data-state lets the benchmark count rows in the HTML. */
  state: 'read' | 'failed' | 'stale';
  /** The last good status's cells; null when the thermostat was never read. */
  status: {
    temperature: string;
    humidity: string;
    mode: string;
    /** The mode the thermostat was asked for and has not taken yet. */
    pendingMode: string | null;
    heat: string;
    cool: string;
    resident: string;
    online: boolean;
    connection: string;
  } | null;
  /** When the status was read (ISO), for the `<time>` element. */
  readAt: string | null;
  age: string;
  /** Why the last read failed, in a few words; null when it did not or the page says it once. */
  problem: string | null;
  /**
   * What it needs attention for ("Offline", "Maintenance overdue"), most urgent first; absent
   * when nothing.
   */
  attention?: string[];
};

/** How a table shows its rows: the member's unit, the building's zone, the page's clock. */
export type RowFormat = { unit: TemperatureUnit; timeZone: string; now: number };

/**
 * One row's cells. `quiet` leaves a service-wide failure to the page's notice; `refreshing` marks
 * a row shown with what was known while it is read again.
 */
export function rowCells(
  row: Pick<BuildingRow, 'thermostatId' | 'unitLabel' | 'attention'>,
  reading: RowReading,
  format: RowFormat,
  options: { quiet: boolean; refreshing?: boolean },
): RowCells {
  const { status, problem, readAt } = reading;
  const { unit } = format;
  return {
    thermostatId: row.thermostatId,
    label: row.unitLabel || row.thermostatId,
    showId: row.unitLabel !== '',
    state: options.refreshing ? 'stale' : problem ? 'failed' : 'read',
    status: status
      ? {
          temperature: formatTemperature(status.temperature, unit),
          humidity: status.humidity === null ? '—' : `${status.humidity} %`,
          mode: modeName(status.hvacMode),
          pendingMode:
            status.pendingHvacMode && status.pendingHvacMode !== status.hvacMode
              ? modeName(status.pendingHvacMode)
              : null,
          heat: formatTemperature(status.desiredHeat, unit),
          cool: formatTemperature(status.desiredCool, unit),
          resident: status.isResidentMode === null ? '—' : status.isResidentMode ? 'On' : 'Off',
          online: status.connected !== false,
          connection:
            status.connected === false
              ? `Offline${status.offlineSince ? ` since ${status.offlineSeen ? '' : 'at least '}${formatMoment(status.offlineSince, format.timeZone)}` : ''}`
              : 'Online',
        }
      : null,
    readAt: readAt ? readAt.toISOString() : null,
    age: readAt ? ageWords(readAt, format.now) : '',
    problem:
      problem && !(options.quiet && isServiceWideKind(problem)) ? problemWords(problem) : null,
    attention: row.attention?.length ? [...row.attention] : undefined,
  };
}
