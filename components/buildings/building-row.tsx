import { Suspense } from 'react';
import type { Verdict } from '@/lib/readings/outage';
import { isServiceWideKind } from '@/lib/readings/outage';
import { type RowFormat, rowCells } from '@/lib/readings/row-cells';
import type { BuildingRow, RowReading } from '@/lib/readings/row-types';
import { RowView } from './row-view';

/** What every row of one table shares. */
export type RowContext = RowFormat & {
  /** The id of the bulk-selection form, when the member may start a bulk change. */
  selectionForm: string | null;
  /** Failures said once for the page are not repeated in rows (the store's, before any read). */
  quietServiceWide: boolean;
  /** This page's reads' verdict, for rows read again now. */
  verdict: Promise<Verdict>;
};

/**
 * A row of a building's table. A row being read again streams in its own Suspense boundary when
 * the service answers, with what was known shown meanwhile (and, without JavaScript, for good);
 * every other row is in the first HTML.
 */
export function BuildingTableRow({ row, context }: { row: BuildingRow; context: RowContext }) {
  const known = (
    <RowView
      row={rowCells(row, row.known, context, {
        quiet: context.quietServiceWide,
        refreshing: row.fresh !== null,
      })}
      selectionForm={context.selectionForm}
    />
  );
  if (!row.fresh) return known;
  return (
    <Suspense fallback={known}>
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
  return (
    <RowView
      row={rowCells(row, reading, context, { quiet })}
      selectionForm={context.selectionForm}
    />
  );
}
