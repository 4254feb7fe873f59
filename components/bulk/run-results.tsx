import Link from 'next/link';
import type { BulkItemOutcome, BulkRunItemRow } from '@/lib/db/bulk-runs';
import { TableHead } from './table-head';

const OUTCOME: Record<BulkItemOutcome, { label: string; className: string }> = {
  pending: { label: 'Pending', className: 'text-slate-600 dark:text-slate-400' },
  applied: { label: 'Applied', className: 'text-emerald-700 dark:text-emerald-400' },
  failed: { label: 'Failed', className: 'text-red-700 dark:text-red-400' },
  not_sent: { label: 'Not sent', className: 'text-amber-700 dark:text-amber-400' },
  cancelled: { label: 'Cancelled', className: 'text-amber-700 dark:text-amber-400' },
};

/** One row per thermostat of the run (a page of them), whatever happened to it. */
export function RunResults({ items, caption }: { items: BulkRunItemRow[]; caption: string }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <TableHead columns={['Thermostat', 'Building', 'Result', 'Detail']} />
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {items.map((item) => (
            <tr key={item.thermostatId}>
              <th scope="row" className="px-3 py-2 font-normal">
                <Link href={`/thermostats/${item.thermostatId}`} className="block hover:underline">
                  {item.unitLabel || item.thermostatId}
                </Link>
                <span className="font-mono text-xs text-slate-600 dark:text-slate-400">
                  {item.thermostatId}
                </span>
              </th>
              <td className="px-3 py-2">{item.buildingName ?? item.buildingId}</td>
              <td className={`px-3 py-2 font-medium ${OUTCOME[item.outcome].className}`}>
                {item.outcome === 'pending' && item.attempts > 0
                  ? 'Sending…'
                  : OUTCOME[item.outcome].label}
              </td>
              <td className="px-3 py-2">
                {item.detail}
                {item.attempts > 1 ? (
                  <span className="block text-xs text-slate-600 dark:text-slate-400">
                    Sent {item.attempts} times: Setpoint stopped while a request carrying it was in
                    flight, and sent it again (the same values, so no change twice).
                  </span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
