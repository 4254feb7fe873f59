import { Suspense } from 'react';
import type { Verdict } from '@/lib/readings/outage';
import { isServiceWideKind } from '@/lib/readings/outage';
import type { BuildingRow, RowReading } from '@/lib/readings/row-types';
import { ageWords, problemWords } from '@/lib/readings/words';
import { dateTimeFormat } from '@/lib/time-format';
import { formatTemperature, type TemperatureUnit } from '@/lib/units';
import { modeName } from '@/lib/words';

/** What every row of one table shares. */
export type RowContext = {
  unit: TemperatureUnit;
  timeZone: string;
  /** When the page was drawn: ages are counted from it. */
  now: number;
  /** The id of the bulk-selection form, when the member may start a bulk change. */
  selectionForm: string | null;
  /** Failures said once for the page are not repeated in rows (the store's, before any read). */
  quietServiceWide: boolean;
  /** This page's reads' verdict, for rows read again now. */
  verdict: Promise<Verdict>;
};

/**
 * A row of a building's table, server-rendered. A row being read again streams in its own
 * Suspense boundary when the service answers, with what was known shown meanwhile (and, without
 * JavaScript, for good); every other row is in the first HTML.
 */
export function BuildingTableRow({ row, context }: { row: BuildingRow; context: RowContext }) {
  if (!row.fresh) {
    return (
      <RowView row={row} reading={row.known} context={context} quiet={context.quietServiceWide} />
    );
  }
  return (
    <Suspense
      fallback={
        <RowView
          row={row}
          reading={row.known}
          context={context}
          quiet={context.quietServiceWide}
          refreshing
        />
      }
    >
      <FreshRow row={row} fresh={row.fresh} context={context} />
    </Suspense>
  );
}

async function FreshRow({
  row,
  fresh,
  context,
}: {
  row: BuildingRow;
  fresh: Promise<RowReading>;
  context: RowContext;
}) {
  const reading = await fresh;
  // A service-wide failure waits for the page's verdict: said once for the page in an outage,
  // in its row when only a few thermostats failed.
  const quiet = isServiceWideKind(reading.problem)
    ? (await context.verdict).serviceWide !== null
    : false;
  return <RowView row={row} reading={reading} context={context} quiet={quiet} />;
}

function RowView({
  row,
  reading,
  context,
  quiet,
  refreshing = false,
}: {
  row: BuildingRow;
  reading: RowReading;
  context: RowContext;
  /** Leave a service-wide failure to the page's notice. */
  quiet: boolean;
  refreshing?: boolean;
}) {
  const { status, problem } = reading;
  const { unit } = context;
  const label = row.unitLabel || row.thermostatId;
  const said = problem && !(quiet && isServiceWideKind(problem)) ? problemWords(problem) : null;
  // data-state lets the benchmark count rows rendered in the server's HTML.
  const state = refreshing ? 'stale' : problem ? 'failed' : 'read';
  // Lean markup: every element and attribute here is sent twice (HTML and the RSC payload) for
  // each row of a large building; the table's class styles cells, `small` and `data-tone`.
  return (
    <tr data-state={state} {...(refreshing ? { 'aria-busy': true } : {})}>
      {context.selectionForm ? (
        <td>
          <input
            type="checkbox"
            name="ids"
            value={row.thermostatId}
            form={context.selectionForm}
            aria-label={`Select ${label}`}
          />
        </td>
      ) : null}
      <th scope="row">
        {/* A plain link: a client Link per row costs every view hydration for little. */}
        <a href={`/thermostats/${row.thermostatId}`}>{label}</a>
        {row.unitLabel ? <small>{row.thermostatId}</small> : null}
      </th>
      {status ? (
        <>
          <td>{formatTemperature(status.temperature, unit)}</td>
          <td>{status.humidity === null ? '—' : `${status.humidity} %`}</td>
          <td>
            {modeName(status.hvacMode)}
            {status.pendingHvacMode && status.pendingHvacMode !== status.hvacMode ? (
              <small data-tone="warn">→ {modeName(status.pendingHvacMode)} (pending)</small>
            ) : null}
          </td>
          <td>{formatTemperature(status.desiredHeat, unit)}</td>
          <td>{formatTemperature(status.desiredCool, unit)}</td>
          <td>{status.isResidentMode === null ? '—' : status.isResidentMode ? 'On' : 'Off'}</td>
          <td>
            {status.connected === false ? (
              <span data-tone="warn">
                Offline
                {status.lastSeen ? ` since ${timeOf(status.lastSeen, context.timeZone)}` : ''}
              </span>
            ) : (
              <span data-tone="ok">Online</span>
            )}
            {status.comfortSetting ? <small>{status.comfortSetting}</small> : null}
          </td>
        </>
      ) : (
        <td colSpan={7}>Not read yet</td>
      )}
      <td>
        {reading.readAt ? (
          <time
            dateTime={reading.readAt.toISOString()}
            {...(problem ? { 'data-tone': 'warn' } : {})}
          >
            {ageWords(reading.readAt, context.now)}
          </time>
        ) : (
          '—'
        )}
        {refreshing ? <small>refreshing…</small> : null}
        {said ? <small data-tone="warn">Not refreshed: {said}</small> : null}
      </td>
    </tr>
  );
}

function timeOf(iso: string, timeZone: string): string {
  return dateTimeFormat({ dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
    new Date(iso),
  );
}
