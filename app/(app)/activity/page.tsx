import type { Metadata } from 'next';
import Link from 'next/link';
import { LocalTime } from '@/components/ui/local-time';
import { requireUser } from '@/lib/auth/session';
import { listActivity, listActivityPeople, listBuildings, listThermostats } from '@/lib/db/queries';
import { buildingIdSchema, thermostatIdSchema } from '@/lib/thermostat-api/schemas';

export const metadata: Metadata = { title: 'Activity' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (value: string | string[] | undefined) =>
  typeof value === 'string' && value ? value : undefined;

/** Every write made through Setpoint, newest first, filterable by building, thermostat and person. */
export default async function ActivityPage({ searchParams }: Props) {
  const user = await requireUser();
  const params = await searchParams;
  const buildingId = buildingIdSchema.safeParse(one(params.building)).data;
  const thermostatId = thermostatIdSchema.safeParse(one(params.thermostat)).data;
  const person = one(params.person);
  const [entries, people, buildings, thermostats] = await Promise.all([
    listActivity({ buildingId, thermostatId, userId: person }),
    listActivityPeople(),
    listBuildings({ userId: user.id }),
    listThermostats({ userId: user.id }),
  ]);
  const buildingName = new Map(buildings.map((b) => [b.buildingId, b.name]));
  const thermostatName = new Map(
    thermostats.map((t) => [t.thermostatId, t.unitLabel || t.thermostatId]),
  );
  const selectClass =
    'min-h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-900';

  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Activity</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Every change made through Setpoint: who, when, which thermostat, what, and how it ended.
        </p>
      </div>
      <form className="flex flex-wrap items-end gap-3" method="get">
        <label className="grid gap-1 text-sm">
          <span className="font-medium">Building</span>
          <select name="building" defaultValue={buildingId ?? ''} className={selectClass}>
            <option value="">All buildings</option>
            {buildings.map((b) => (
              <option key={b.buildingId} value={b.buildingId}>
                {b.name}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm">
          <span className="font-medium">Thermostat</span>
          <select name="thermostat" defaultValue={thermostatId ?? ''} className={selectClass}>
            <option value="">All thermostats</option>
            {thermostats.map((t) => (
              <option key={t.thermostatId} value={t.thermostatId}>
                {t.unitLabel || t.thermostatId}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm">
          <span className="font-medium">Person</span>
          <select name="person" defaultValue={person ?? ''} className={selectClass}>
            <option value="">Everyone</option>
            {people.map((p) => (
              <option key={p.userId} value={p.userId}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <button
          type="submit"
          className="min-h-10 rounded-lg border border-slate-300 px-4 text-sm font-medium dark:border-slate-700"
        >
          Filter
        </button>
        {buildingId || thermostatId || person ? (
          <Link href="/activity" className="min-h-10 px-2 py-2 text-sm underline">
            Clear
          </Link>
        ) : null}
      </form>
      {entries.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No activity yet.</p>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
          <table className="w-full min-w-[44rem] text-left text-sm">
            <caption className="sr-only">Activity log</caption>
            <thead className="border-b border-slate-200 text-xs text-slate-600 uppercase dark:border-slate-800 dark:text-slate-400">
              <tr>
                <th scope="col" className="px-3 py-2">
                  When
                </th>
                <th scope="col" className="px-3 py-2">
                  Who
                </th>
                <th scope="col" className="px-3 py-2">
                  What
                </th>
                <th scope="col" className="px-3 py-2">
                  Where
                </th>
                <th scope="col" className="px-3 py-2">
                  Outcome
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td className="px-3 py-2 whitespace-nowrap text-slate-600 dark:text-slate-400">
                    <LocalTime value={entry.at.toISOString()} />
                  </td>
                  <td className="px-3 py-2">{entry.actorName}</td>
                  <td className="px-3 py-2">
                    {entry.summary}
                    {Object.keys(entry.changes).length ? (
                      <div className="font-mono text-xs break-all text-slate-500">
                        {JSON.stringify(entry.changes)}
                      </div>
                    ) : null}
                  </td>
                  <td className="px-3 py-2 text-xs">
                    {entry.thermostatId ? (
                      <div>{thermostatName.get(entry.thermostatId) ?? entry.thermostatId}</div>
                    ) : null}
                    {entry.buildingId ? (
                      <div className="text-slate-500">
                        {buildingName.get(entry.buildingId) ?? entry.buildingId}
                      </div>
                    ) : null}
                  </td>
                  <td className="px-3 py-2">
                    {entry.outcome === 'success' ? (
                      <span className="text-emerald-700 dark:text-emerald-400">Done</span>
                    ) : (
                      <span className="text-red-700 dark:text-red-400">
                        Failed
                        {entry.error
                          ? ` (${entry.error}${entry.serviceStatus ? `, HTTP ${entry.serviceStatus}` : ''})`
                          : ''}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
