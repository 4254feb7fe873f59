import { Link } from '@/components/ui/link';
import { OutcomeLabel } from '@/components/ui/outcome-label';
import { type Column, ResultTable } from '@/components/ui/result-table';
import type { BulkRunItemRow } from '@/lib/runs/store';
import { bulkItemOutcome } from '@/lib/outcomes';

const COLUMNS: Column<BulkRunItemRow>[] = [
  {
    header: 'Thermostat',
    names: true,
    cell: (item) => (
      <>
        <Link href={`/thermostats/${item.thermostatId}`} className="block hover:underline">
          {item.unitLabel || item.thermostatId}
        </Link>
        <span className="font-mono text-xs text-muted">{item.thermostatId}</span>
      </>
    ),
  },
  { header: 'Building', cell: (item) => item.buildingName ?? item.buildingId },
  { header: 'Result', cell: (item) => <OutcomeLabel kind={bulkItemOutcome(item)} /> },
  {
    header: 'Detail',
    cell: (item) => (
      <>
        {item.detail}
        {item.attempts > 1 ? (
          <span className="block text-xs text-muted">
            Sent {item.attempts} times: Setpoint stopped while a request carrying it was in flight,
            and sent it again (the same values, so no change twice).
          </span>
        ) : null}
      </>
    ),
  },
];

/** One row per thermostat of the run (a page of them), whatever happened to it. */
export function RunResults({ items, caption }: { items: BulkRunItemRow[]; caption: string }) {
  return (
    <ResultTable
      caption={caption}
      columns={COLUMNS}
      rows={items}
      rowKey={(item) => item.thermostatId}
    />
  );
}
