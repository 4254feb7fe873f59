'use client';

import Link from 'next/link';
import { Suspense, use, useEffect, useMemo, useState } from 'react';
import { dateTimeFormat } from '@/lib/time-format';
import { formatTemperature, type TemperatureUnit } from '@/lib/units';
import type { BuildingRow, RowReading } from '@/lib/readings/row-types';

type SortKey =
  | 'unit'
  | 'temperature'
  | 'humidity'
  | 'mode'
  | 'heat'
  | 'cool'
  | 'resident'
  | 'connectivity';

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: 'unit', label: 'Unit' },
  { key: 'temperature', label: 'Temperature' },
  { key: 'humidity', label: 'Humidity' },
  { key: 'mode', label: 'Mode' },
  { key: 'heat', label: 'Heat to' },
  { key: 'cool', label: 'Cool to' },
  { key: 'resident', label: 'Resident mode' },
  { key: 'connectivity', label: 'Connection' },
];

/** A reading still on its way (a promise, or the thenable React streams in its place). */
function isPending(reading: BuildingRow['reading']): reading is Promise<RowReading> {
  return typeof (reading as { then?: unknown }).then === 'function';
}

function sortValue(
  row: BuildingRow,
  reading: RowReading | undefined,
  key: SortKey,
): string | number | null {
  if (key === 'unit') return (row.unitLabel || row.thermostatId).toLowerCase();
  if (!reading?.ok) return null;
  switch (key) {
    case 'temperature':
      return reading.temperature;
    case 'humidity':
      return reading.humidity;
    case 'mode':
      return reading.hvacMode;
    case 'heat':
      return reading.desiredHeat;
    case 'cool':
      return reading.desiredCool;
    case 'resident':
      return reading.isResidentMode ? 1 : 0;
    case 'connectivity':
      return reading.connected ? 1 : 0;
  }
}

/**
 * Every thermostat of a building with its live status. A reading the server already had comes
 * as a value and its row is in the first HTML (no JavaScript needed); one still being read comes
 * as a promise, and its row streams in its own Suspense boundary when the service answers.
 * Sorting and filtering work on what has arrived; rows still loading or failed sort last. Times
 * are shown in the building's time zone, the same on the server and in the browser.
 */
export function BuildingTable({
  rows,
  unit,
  timeZone,
}: {
  rows: BuildingRow[];
  unit: TemperatureUnit;
  timeZone: string;
}) {
  const [readings, setReadings] = useState<Record<string, RowReading>>(() =>
    Object.fromEntries(
      rows.flatMap((row) => (isPending(row.reading) ? [] : [[row.thermostatId, row.reading]])),
    ),
  );
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState('all');
  const [connection, setConnection] = useState('all');
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({
    key: 'unit',
    descending: false,
  });

  useEffect(() => {
    let live = true;
    for (const row of rows) {
      Promise.resolve(row.reading).then((reading) => {
        if (live) setReadings((current) => ({ ...current, [row.thermostatId]: reading }));
      });
    }
    return () => {
      live = false;
    };
  }, [rows]);

  const visible = useMemo(() => {
    const needle = query.trim().toLowerCase();
    const filtered = rows.filter((row) => {
      const reading = readings[row.thermostatId];
      if (needle && !`${row.unitLabel} ${row.thermostatId}`.toLowerCase().includes(needle))
        return false;
      if (mode !== 'all' && !(reading?.ok && reading.hvacMode === mode)) return false;
      if (connection === 'online' && !(reading?.ok && reading.connected)) return false;
      if (connection === 'offline' && !(reading?.ok && reading.connected === false)) return false;
      if (connection === 'error' && !(reading && (!reading.ok || reading.problem))) return false;
      return true;
    });
    return filtered.sort((a, b) => {
      const left = sortValue(a, readings[a.thermostatId], sort.key);
      const right = sortValue(b, readings[b.thermostatId], sort.key);
      if (left === null || right === null) return left === right ? 0 : left === null ? 1 : -1;
      const order = left < right ? -1 : left > right ? 1 : 0;
      return sort.descending ? -order : order;
    });
  }, [rows, readings, query, mode, connection, sort]);

  const loaded = Object.keys(readings).length;
  const failed = Object.values(readings).filter(
    (reading) => !reading.ok || reading.problem !== null,
  ).length;
  const selectClass =
    'min-h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-900';

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <label className="grid gap-1 text-sm">
          <span className="font-medium">Filter</span>
          <input
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder="Unit or id"
            className="min-h-10 w-48 rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-700 dark:bg-slate-900"
          />
        </label>
        <label className="grid gap-1 text-sm">
          <span className="font-medium">Mode</span>
          <select
            value={mode}
            onChange={(event) => setMode(event.target.value)}
            className={selectClass}
          >
            <option value="all">All modes</option>
            {['heat', 'auxHeatOnly', 'cool', 'auto', 'off'].map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm">
          <span className="font-medium">Connection</span>
          <select
            value={connection}
            onChange={(event) => setConnection(event.target.value)}
            className={selectClass}
          >
            <option value="all">All</option>
            <option value="online">Online</option>
            <option value="offline">Offline</option>
            <option value="error">Could not read</option>
          </select>
        </label>
        <p role="status" className="ml-auto text-sm text-slate-600 dark:text-slate-400">
          {loaded < rows.length
            ? `Reading ${rows.length - loaded} of ${rows.length} thermostats…`
            : `${rows.length} thermostats${failed ? `, ${failed} could not be read just now` : ''}`}
          {visible.length !== rows.length ? ` · showing ${visible.length}` : ''}
        </p>
      </div>
      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <table className="w-full min-w-[56rem] text-left text-sm">
          <caption className="sr-only">Thermostats and their live status</caption>
          <thead className="border-b border-slate-200 text-xs text-slate-600 uppercase dark:border-slate-800 dark:text-slate-400">
            <tr>
              {COLUMNS.map((column) => {
                const active = sort.key === column.key;
                return (
                  <th
                    key={column.key}
                    scope="col"
                    className="px-3 py-2 font-medium"
                    aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : undefined}
                  >
                    <button
                      type="button"
                      className="inline-flex items-center gap-1 uppercase hover:text-slate-900 dark:hover:text-white"
                      onClick={() =>
                        setSort({ key: column.key, descending: active ? !sort.descending : false })
                      }
                    >
                      {column.label}
                      <span aria-hidden="true">{active ? (sort.descending ? '↓' : '↑') : ''}</span>
                    </button>
                  </th>
                );
              })}
              <th scope="col" className="px-3 py-2 font-medium">
                Read at
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {visible.map((row) =>
              // Only a row still being read gets a boundary: React streams a large boundary's
              // content apart from its fallback, which would leave rows already known on the
              // server hidden until JavaScript swaps them in.
              isPending(row.reading) ? (
                <Suspense
                  key={row.thermostatId}
                  fallback={<PendingRow row={row} unit={unit} timeZone={timeZone} />}
                >
                  <Row row={row} unit={unit} timeZone={timeZone} />
                </Suspense>
              ) : (
                <Row key={row.thermostatId} row={row} unit={unit} timeZone={timeZone} />
              ),
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function NameCell({ row }: { row: BuildingRow }) {
  return (
    <th
      scope="row"
      className="sticky left-0 bg-white px-3 py-2 text-left font-medium dark:bg-slate-900"
    >
      {/* No prefetch: a building's rows would prefetch dozens of thermostat pages at once. */}
      <Link
        prefetch={false}
        href={`/thermostats/${row.thermostatId}`}
        className="text-brand-700 hover:underline dark:text-brand-100"
      >
        {row.unitLabel || row.thermostatId}
      </Link>
      {row.unitLabel ? (
        <div className="font-mono text-xs font-normal text-slate-600 dark:text-slate-400">
          {row.thermostatId}
        </div>
      ) : null}
    </th>
  );
}

function PendingRow({
  row,
  unit,
  timeZone,
}: {
  row: BuildingRow;
  unit: TemperatureUnit;
  timeZone: string;
}) {
  // The last reading known, while a newer one is read.
  if (row.last)
    return <Row row={{ ...row, reading: row.last }} unit={unit} timeZone={timeZone} refreshing />;
  return (
    <tr aria-busy="true">
      <NameCell row={row} />
      <td colSpan={8} className="px-3 py-2">
        <div className="h-4 w-2/3 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
        <span className="sr-only">Reading…</span>
      </td>
    </tr>
  );
}

function Row({
  row,
  unit,
  timeZone,
  refreshing = false,
}: {
  row: BuildingRow;
  unit: TemperatureUnit;
  timeZone: string;
  refreshing?: boolean;
}) {
  const reading = isPending(row.reading) ? use(row.reading) : row.reading;
  const name = <NameCell row={row} />;
  // data-state lets the benchmark count rows rendered in the server's HTML.
  if (!reading.ok) {
    return (
      <tr data-state="failed">
        {name}
        <td colSpan={7} className="px-3 py-2 text-red-700 dark:text-red-400">
          {reading.error}
        </td>
        <td className="px-3 py-2 text-xs text-slate-600 dark:text-slate-400">
          {timeOf(reading.readAt, timeZone)}
        </td>
      </tr>
    );
  }
  return (
    <tr data-state={refreshing ? 'stale' : 'read'} aria-busy={refreshing || undefined}>
      {name}
      <td className="px-3 py-2 tabular-nums">{formatTemperature(reading.temperature, unit)}</td>
      <td className="px-3 py-2 tabular-nums">
        {reading.humidity === null ? '—' : `${reading.humidity} %`}
      </td>
      <td className="px-3 py-2">
        {reading.hvacMode ?? '—'}
        {reading.pendingHvacMode ? (
          <span className="ml-1 text-xs text-amber-700 dark:text-amber-400">
            → {reading.pendingHvacMode} (pending)
          </span>
        ) : null}
      </td>
      <td className="px-3 py-2 tabular-nums">{formatTemperature(reading.desiredHeat, unit)}</td>
      <td className="px-3 py-2 tabular-nums">{formatTemperature(reading.desiredCool, unit)}</td>
      <td className="px-3 py-2">{reading.isResidentMode ? 'On' : 'Off'}</td>
      <td className="px-3 py-2">
        {reading.connected === false ? (
          <span className="text-amber-700 dark:text-amber-400">
            Offline{reading.lastSeen ? ` since ${timeOf(reading.lastSeen, timeZone, true)}` : ''}
          </span>
        ) : (
          <span className="text-emerald-700 dark:text-emerald-400">Online</span>
        )}
        {reading.comfortSetting ? (
          <div className="text-xs text-slate-600 dark:text-slate-400">{reading.comfortSetting}</div>
        ) : null}
      </td>
      <td className="px-3 py-2 text-xs text-slate-600 dark:text-slate-400 tabular-nums">
        {timeOf(reading.readAt, timeZone)}
        {refreshing ? <div>refreshing…</div> : null}
        {reading.problem ? (
          <div className="text-amber-700 dark:text-amber-400">{reading.problem}</div>
        ) : null}
      </td>
    </tr>
  );
}

function timeOf(iso: string, timeZone: string, withDate = false): string {
  return dateTimeFormat(
    withDate
      ? { dateStyle: 'medium', timeStyle: 'short', timeZone }
      : { timeStyle: 'medium', timeZone },
  ).format(new Date(iso));
}
