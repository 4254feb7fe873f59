import type { Metadata } from 'next';
import Link from 'next/link';
import { TONE } from '@/components/bulk/run-list';
import { buttonClass } from '@/components/ui/button';
import { LocalTime } from '@/components/ui/local-time';
import { ACTIVITY_ACTION_NAMES, ACTIVITY_ACTIONS } from '@/lib/activity-actions';
import { activityHref, cursorOf, readActivityQuery } from '@/lib/activity-query';
import { requireMember } from '@/lib/auth/session';
import { runStatus, thermostatCount } from '@/lib/bulk/words';
import { listBulkRunsById } from '@/lib/db/bulk-runs';
import { listActivity, listActivityPeople, listBuildings, listThermostats } from '@/lib/db/queries';
import { changeLines, failureWords } from '@/lib/words';

export const metadata: Metadata = { title: 'Activity' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const PAGE_SIZE = 50;

const inputClass =
  'min-h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-900';

/**
 * Every change made through Setpoint and every membership and connection event of the
 * organisation (for a building manager: their buildings' and their own), newest first, a page at
 * a time, filterable and exportable as CSV.
 */
export default async function ActivityPage({ searchParams }: Props) {
  const member = await requireMember();
  const query = await readActivityQuery(member, await searchParams);
  const [rows, people, buildings] = await Promise.all([
    listActivity({
      scope: member,
      filter: query.filter,
      before: query.before,
      limit: PAGE_SIZE + 1,
    }),
    listActivityPeople({ scope: member }),
    listBuildings({ scope: member }),
  ]);
  const entries = rows.slice(0, PAGE_SIZE);
  const last = entries.at(-1);
  const older = rows.length > PAGE_SIZE && last ? cursorOf(last) : null;
  const [named, runList] = await Promise.all([
    listThermostats({
      scope: member,
      thermostatIds: [...new Set(entries.flatMap((entry) => entry.thermostatId ?? []))],
    }),
    // A bulk run is one entry; its state and a result per thermostat are the run's.
    listBulkRunsById({ scope: member, runIds: entries.flatMap((entry) => entry.runId ?? []) }),
  ]);
  const runs = new Map(runList.map((run) => [run.id, run]));
  const buildingName = new Map(buildings.map((b) => [b.buildingId, b.name]));
  const labels = new Map(named.map((t) => [t.thermostatId, t.unitLabel]));
  const filtered = Object.values(query.values).some(Boolean);

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-end gap-4">
        <div className="flex-1">
          <h1 className="text-2xl font-semibold tracking-tight">Activity</h1>
          <p className="mt-1 text-sm text-muted">
            Every change made through Setpoint, and every sign-in, connection and membership change:
            who, when, which thermostat, what, and how it ended.
          </p>
        </div>
        <a
          href={activityHref('/activity/export', query.values)}
          className={buttonClass('secondary')}
        >
          Export CSV
        </a>
      </div>
      <form className="flex flex-wrap items-end gap-3" method="get">
        <label className="grid gap-1 text-sm">
          <span className="font-medium">Building</span>
          <select name="building" defaultValue={query.values.building} className={inputClass}>
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
          <input
            type="search"
            name="thermostat"
            defaultValue={query.values.thermostat}
            placeholder="Label or id"
            className={`${inputClass} w-44`}
          />
        </label>
        <label className="grid gap-1 text-sm">
          <span className="font-medium">Person</span>
          <select name="person" defaultValue={query.values.person} className={inputClass}>
            <option value="">Everyone</option>
            {people.map((p) => (
              <option key={p.userId} value={p.userId}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm">
          <span className="font-medium">What</span>
          <select name="action" defaultValue={query.values.action} className={inputClass}>
            <option value="">Anything</option>
            {ACTIVITY_ACTION_NAMES.map((action) => (
              <option key={action} value={action}>
                {ACTIVITY_ACTIONS[action]}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm">
          <span className="font-medium">From (UTC)</span>
          <input type="date" name="from" defaultValue={query.values.from} className={inputClass} />
        </label>
        <label className="grid gap-1 text-sm">
          <span className="font-medium">To (UTC)</span>
          <input type="date" name="to" defaultValue={query.values.to} className={inputClass} />
        </label>
        <button
          type="submit"
          className="min-h-10 rounded-lg border border-slate-300 px-4 text-sm font-medium dark:border-slate-700"
        >
          Filter
        </button>
        {filtered ? (
          <Link href="/activity" className="min-h-10 px-2 py-2 text-sm underline">
            Clear
          </Link>
        ) : null}
      </form>
      {query.matched?.length === 0 ? (
        <p className="text-sm text-muted">
          No thermostat in your portfolio matches “{query.values.thermostat}”.
        </p>
      ) : null}
      {entries.length === 0 ? (
        <p className="text-sm text-muted">
          {filtered || query.before ? 'No activity matches these filters.' : 'No activity yet.'}
        </p>
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
              {entries.map((entry) => {
                const run = entry.runId ? runs.get(entry.runId) : undefined;
                const status = run ? runStatus(run) : null;
                const touched = Number(entry.changes.buildings ?? 0);
                return (
                  <tr key={entry.id}>
                    <td className="px-3 py-2 whitespace-nowrap text-muted">
                      <LocalTime value={entry.at.toISOString()} />
                    </td>
                    <td className="px-3 py-2">{entry.actorName}</td>
                    <td className="px-3 py-2">
                      {entry.summary}
                      {run ? (
                        <div className="mt-1">
                          <Link href={`/bulk/runs/${run.id}`} className="text-sm underline">
                            Result for each thermostat
                          </Link>
                        </div>
                      ) : null}
                      {Object.keys(entry.changes).length || entry.error ? (
                        <details className="mt-1 text-xs text-muted">
                          <summary className="cursor-pointer">Details</summary>
                          <dl className="mt-1 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-0.5">
                            {changeLines(entry.changes).map(([field, words]) => (
                              <div key={field} className="contents">
                                <dt>{field}</dt>
                                <dd className="break-words">{words}</dd>
                              </div>
                            ))}
                            {entry.error ? (
                              <div className="contents">
                                <dt>Service said</dt>
                                <dd className="font-mono">
                                  {entry.error}
                                  {entry.serviceStatus ? ` (HTTP ${entry.serviceStatus})` : ''}
                                </dd>
                              </div>
                            ) : null}
                          </dl>
                        </details>
                      ) : null}
                    </td>
                    <td className="px-3 py-2 text-xs">
                      {run ? (
                        <div>
                          {thermostatCount(run.total)}
                          {touched > 1 ? ` in ${touched} buildings` : ''}
                        </div>
                      ) : null}
                      {entry.thermostatId ? (
                        <div>
                          <Link
                            href={`/thermostats/${entry.thermostatId}`}
                            className="hover:underline"
                          >
                            {labels.get(entry.thermostatId) || entry.thermostatId}
                          </Link>
                        </div>
                      ) : null}
                      {entry.buildingId ? (
                        <div className="text-muted">
                          {buildingName.get(entry.buildingId) ?? entry.buildingId}
                        </div>
                      ) : null}
                    </td>
                    <td className="px-3 py-2">
                      {status ? (
                        <span className={TONE[status.tone]}>{status.label}</span>
                      ) : entry.outcome === 'success' ? (
                        <span className="text-success">Done</span>
                      ) : (
                        <span className="text-danger">
                          Failed{entry.error ? `: ${failureWords(entry.error)}` : ''}
                        </span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {older || query.before ? (
        <nav aria-label="Pages" className="flex gap-3 text-sm">
          {query.before ? (
            <Link href={activityHref('/activity', query.values)} className="underline">
              Newest
            </Link>
          ) : null}
          {older ? (
            <Link
              href={activityHref('/activity', query.values, { before: older })}
              className="underline"
            >
              Older entries
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
