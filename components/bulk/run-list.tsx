import Link from 'next/link';
import { LocalTime } from '@/components/ui/local-time';
import { changesInWords, type RunTone, runStatus } from '@/lib/bulk/words';
import type { BulkRun } from '@/lib/db/bulk-runs';
import type { SettingsChanges } from '@/lib/thermostat-api/resources';
import type { TemperatureUnit } from '@/lib/units';
import { TableHead } from './table-head';

export const TONE: Record<RunTone, string> = {
  success: 'text-success',
  failure: 'text-danger',
  warning: 'text-caution',
  progress: 'text-sky-700 dark:text-sky-400',
};

/** Recent bulk runs: when, who, what, how many, and how each is going or ended. */
export function RunList({ runs, unit }: { runs: BulkRun[]; unit: TemperatureUnit }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
      <table className="w-full min-w-[40rem] text-left text-sm">
        <caption className="sr-only">Recent bulk runs</caption>
        <TableHead columns={['Started', 'By', 'Change', 'Thermostats', 'Status']} />
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {runs.map((run) => {
            const status = runStatus(run);
            return (
              <tr key={run.id}>
                <td className="px-3 py-2 whitespace-nowrap text-muted">
                  <LocalTime value={run.createdAt.toISOString()} />
                </td>
                <td className="px-3 py-2">{run.startedByName}</td>
                <td className="px-3 py-2">
                  {changesInWords(run.changes as SettingsChanges, unit).join('; ')}
                  {run.retryOf ? (
                    <span className="block text-xs text-muted">Retry of the failed ones</span>
                  ) : null}
                </td>
                <td className="px-3 py-2 tabular-nums">{run.total}</td>
                <td className="px-3 py-2">
                  <Link
                    href={`/bulk/runs/${run.id}`}
                    className={`font-medium hover:underline ${TONE[status.tone]}`}
                  >
                    {status.label}
                  </Link>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
