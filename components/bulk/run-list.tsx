import { Link } from '@/components/ui/link';
import { outcomeClass } from '@/components/ui/outcome-label';
import { type Column, ResultTable, timeColumn } from '@/components/ui/result-table';
import { runPath } from '@/lib/runs/requests';
import { changesInWords, runStatus } from '@/lib/runs/words';
import type { BulkRun } from '@/lib/runs/store';
import { runTitleAsSeen, skippedOf } from '@/lib/runs/words';
import type { SettingsChanges } from '@/lib/service/resources';
import type { TemperatureUnit } from '@/lib/platform/units';

/** A run as the member sees it (`partView`: their share of someone else's run). */
type SeenRun = BulkRun & { partView?: boolean };

/** Recent bulk runs: when, who, what, how many, and how each is going or ended. */
export function RunList({
  runs,
  unit,
  zone,
  undoable = new Set(),
}: {
  runs: SeenRun[];
  unit: TemperatureUnit;
  /** The member's zone, for the times. */
  zone: string;
  /** The runs this member may undo (finished, with changes made): each offers Undo. */
  undoable?: ReadonlySet<string>;
}) {
  const columns: Column<SeenRun>[] = [
    timeColumn('Started', (run) => run.createdAt, zone),
    { header: 'By', cell: (run) => run.startedByName },
    {
      header: 'Change',
      names: true,
      cell: (run) => (
        <>
          {run.kind === 'configuration'
            ? changesInWords(run.changes as SettingsChanges, unit).join('; ')
            : runTitleAsSeen(run)}
          {run.retryOf ? (
            <span className="block text-xs text-muted">Retry of the failed ones</span>
          ) : null}
        </>
      ),
    },
    { header: 'Thermostats', cell: (run) => run.total, className: 'tabular-nums' },
    {
      header: 'Status',
      cell: (run) => {
        const status = runStatus({ ...run, ...skippedOf(run) });
        // The status is the way to the run's page, in the tone of its outcome.
        return (
          <>
            <Link
              href={runPath(run)}
              className={`font-medium hover:underline ${outcomeClass(status.outcome)}`}
            >
              {status.label}
            </Link>
            {undoable.has(run.id) ? (
              // The run page's own step: what an undo does is said there before it is planned.
              <Link
                href={`${runPath(run)}?confirm=undo`}
                className="ml-3 text-sm underline underline-offset-2"
                aria-label={`Undo this run: ${runTitleAsSeen(run)}`}
              >
                Undo…
              </Link>
            ) : null}
          </>
        );
      },
    },
  ];
  return (
    <ResultTable
      caption="Recent bulk runs"
      columns={columns}
      rows={runs}
      rowKey={(run) => run.id}
      className="min-w-[40rem]"
    />
  );
}
