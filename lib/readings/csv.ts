import { stringify } from 'csv-stringify/sync';
import type { BuildingRowRecord } from '@/lib/readings/store';
import { isoIn } from '@/lib/platform/time-format';
import { type TemperatureUnit, toDisplay } from '@/lib/platform/units';
import { modeName } from '@/lib/platform/words';
import { problemWords } from '@/lib/service/errors';

/**
 * A building's rows as CSV, as the table shows them from the store (no service call): the same
 * columns, temperatures in the member's unit, times in the building's zone (ISO 8601 with its
 * offset, the zone in the header) and an age in minutes.
 */

/**
 * A spreadsheet runs a cell that starts with =, +, - or @ (or a tab or carriage return before
 * one) as a formula: such text gets a leading quote. Numbers are written as numbers, so a
 * negative temperature stays a number.
 */
export function neutralizeCell(cell: string | number | null): string | number {
  if (cell === null) return '';
  if (typeof cell === 'number') return cell;
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

export function buildingRowsCsv(input: {
  rows: BuildingRowRecord[];
  unit: TemperatureUnit;
  /** The building's zone. */
  timeZone: string;
  now?: Date;
}): string {
  const { rows, unit, timeZone } = input;
  const now = (input.now ?? new Date()).getTime();
  const temperature = (value: number | null) => (value === null ? null : toDisplay(value, unit));
  const yesNo = (value: boolean | null) => (value === null ? null : value ? 'on' : 'off');
  const header = [
    'unit',
    'thermostat id',
    `temperature (°${unit})`,
    'humidity (%)',
    'mode',
    'pending mode',
    `heat to (°${unit})`,
    `cool to (°${unit})`,
    'resident mode',
    'connection',
    `offline since (${timeZone})`,
    'comfort setting',
    `read at (${timeZone})`,
    'age (minutes)',
    'last read failed',
  ];
  const lines = rows.map((row) => {
    const read = row.readAt;
    return [
      row.unitLabel,
      row.thermostatId,
      read ? temperature(row.temperature) : null,
      read ? row.humidity : null,
      read ? modeName(row.hvacMode, '') : null,
      read ? modeName(row.pendingMode, '') : null,
      read ? temperature(row.desiredHeat) : null,
      read ? temperature(row.desiredCool) : null,
      read ? yesNo(row.isResidentMode) : null,
      read ? (row.connected === false ? 'offline' : 'online') : null,
      read && row.connected === false
        ? row.offlineSince
          ? isoIn(row.offlineSince, timeZone)
          : null
        : null,
      read ? row.comfortSetting : null,
      read ? isoIn(read, timeZone) : null,
      read ? Math.max(0, Math.floor((now - read.getTime()) / 60_000)) : null,
      row.failure ? problemWords(row.failure) : null,
    ].map(neutralizeCell);
  });
  // A byte-order mark, so spreadsheets read the file as UTF-8 (°, accented labels).
  return `\uFEFF${stringify([header, ...lines])}`;
}
