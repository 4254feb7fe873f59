import Link from 'next/link';
import type { BulkItemOutcome, BulkRunItemRow } from '@/lib/db/bulk-runs';
import { TableHead } from './table-head';

const OUTCOME: Record<BulkItemOutcome, { label: string; className: string }> = {
  pending: { label: 'Pending', className: 'text-muted' },
  applied: { label: 'Applied', className: 'text-success' },
  failed: { label: 'Failed', className: 'text-danger' },
  not_sent: { label: 'Not sent', className: 'text-caution' },
  cancelled: { label: 'Cancelled', className: 'text-caution' },
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
                <span className="font-mono text-xs text-muted">{item.thermostatId}</span>
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
                  <span className="block text-xs text-muted">
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
