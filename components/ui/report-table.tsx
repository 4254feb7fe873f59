import type { ReportRow } from '@/lib/forms';

const OUTCOME = {
  done: { label: 'Done', className: 'text-success' },
  unchanged: { label: 'Unchanged', className: 'text-muted' },
  failed: { label: 'Failed', className: 'text-danger' },
  not_attempted: { label: 'Not attempted', className: 'text-caution' },
} as const;

/** One line per item of a many-item action (an import, a bulk change): nothing goes unreported. */
export function ReportTable({
  rows,
  caption,
  subject = 'Thermostat',
}: {
  rows: ReportRow[];
  caption: string;
  subject?: string;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-xs text-slate-600 uppercase dark:bg-slate-900 dark:text-slate-400">
          <tr>
            <th scope="col" className="px-3 py-2">
              Line
            </th>
            <th scope="col" className="px-3 py-2">
              {subject}
            </th>
            <th scope="col" className="px-3 py-2">
              Result
            </th>
            <th scope="col" className="px-3 py-2">
              Detail
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((row) => (
            <tr key={`${row.line}-${row.subject}`}>
              <td className="px-3 py-2 text-muted tabular-nums">{row.line}</td>
              <td className="px-3 py-2 font-mono text-xs">{row.subject}</td>
              <td className={`px-3 py-2 font-medium ${OUTCOME[row.outcome].className}`}>
                {OUTCOME[row.outcome].label}
              </td>
              <td className="px-3 py-2">{row.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
