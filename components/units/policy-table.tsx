import { type Column, ResultTable } from '@/components/ui/result-table';
import { STATE_WORDS } from '@/lib/units/lifecycle';
import { type PolicyView, policyInWords } from '@/lib/units/policies';

const SOURCE_WORDS = {
  building: 'this building’s own',
  organisation: 'the organisation’s',
  default: 'Setpoint’s default',
} as const;

type Row = PolicyView['states'][number];

/** The policy in force, state by state, and where each state's comes from. */
export function PolicyTable({ view }: { view: PolicyView }) {
  const columns: Column<Row>[] = [
    { header: 'State', names: true, cell: (row) => STATE_WORDS[row.state] },
    { header: 'Means', cell: (row) => policyInWords(row, view.templates) },
    { header: 'From', cell: (row) => SOURCE_WORDS[row.source] },
  ];
  return (
    <ResultTable
      caption="The policy in force"
      columns={columns}
      rows={view.states}
      rowKey={(row) => row.state}
    />
  );
}
