import { OutcomeLabel } from '@/components/ui/outcome-label';
import { type Column, ResultTable } from '@/components/ui/result-table';
import type { ReportRow } from '@/lib/platform/forms';
import { importOutcome } from '@/lib/outcomes';

const COLUMNS: Column<ReportRow>[] = [
  { header: 'Line', cell: (row) => row.line, className: 'text-muted tabular-nums' },
  { header: 'Thermostat', names: true, cell: (row) => row.subject, className: 'font-mono text-xs' },
  { header: 'Result', cell: (row) => <OutcomeLabel kind={importOutcome(row.outcome)} /> },
  { header: 'Detail', cell: (row) => row.detail },
];

/** One row per line of an import, whatever came of it: nothing goes unreported. */
export function ImportResults({ rows, caption }: { rows: ReportRow[]; caption: string }) {
  return (
    <ResultTable
      caption={caption}
      columns={COLUMNS}
      rows={rows}
      rowKey={(row) => `${row.line}-${row.subject}`}
    />
  );
}
