import type { BulkItemResult } from '@/lib/bulk/plan';

const OUTCOME = {
  applied: { label: 'Applied', className: 'text-emerald-700 dark:text-emerald-400' },
  failed: { label: 'Failed', className: 'text-red-700 dark:text-red-400' },
  not_attempted: { label: 'Not attempted', className: 'text-amber-700 dark:text-amber-400' },
} as const;

/** One row per thermostat of the run, whatever happened to it. */
export function BulkResults({
  results,
  where,
}: {
  results: BulkItemResult[];
  where: Map<string, { label: string; building: string }>;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Result for each thermostat</caption>
        <thead className="bg-slate-50 text-xs text-slate-600 uppercase dark:bg-slate-900 dark:text-slate-400">
          <tr>
            <th scope="col" className="px-3 py-2">
              Thermostat
            </th>
            <th scope="col" className="px-3 py-2">
              Building
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
          {results.map((result) => {
            const place = where.get(result.thermostatId);
            return (
              <tr key={result.thermostatId}>
                <th scope="row" className="px-3 py-2 font-normal">
                  <span className="block">{place?.label || result.thermostatId}</span>
                  <span className="font-mono text-xs text-slate-600 dark:text-slate-400">
                    {result.thermostatId}
                  </span>
                </th>
                <td className="px-3 py-2">{place?.building ?? '—'}</td>
                <td className={`px-3 py-2 font-medium ${OUTCOME[result.outcome].className}`}>
                  {OUTCOME[result.outcome].label}
                </td>
                <td className="px-3 py-2">{result.detail}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
