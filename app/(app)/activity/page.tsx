import type { Metadata } from 'next';
import { buttonClass } from '@/components/ui/button';
import { ButtonForm } from '@/components/ui/button-form';
import { FilterButtons, FilterInput, FilterSelect } from '@/components/ui/filters';
import { Link } from '@/components/ui/link';
import { OutcomeLabel } from '@/components/ui/outcome-label';
import { PageHeader } from '@/components/ui/page-header';
import { type Column, ResultTable, timeColumn } from '@/components/ui/result-table';
import { ACTIVITY_ACTION_NAMES, ACTIVITY_ACTIONS } from '@/lib/activity/actions';
import { activityHref, cursorOf, readActivityQuery } from '@/lib/activity-log/query';
import { listActivityAsSeen } from '@/lib/activity-log/view';
import { changeLines, errorWords } from '@/lib/activity-log/words';
import { requireMember } from '@/lib/auth/session';
import { runPath } from '@/lib/runs/requests';
import { runStatus, thermostatCount } from '@/lib/runs/words';
import { type ActivityEntry, listActivityPeople } from '@/lib/activity/store';
import { listBuildings, listThermostats } from '@/lib/portfolio/store';
import { activityOutcome, outcomeWords } from '@/lib/outcomes';
import { skippedOf } from '@/lib/runs/words';
import { offersUndo, runsOfferingUndo } from '@/lib/templates/runs';
import { zoneLabel } from '@/lib/platform/time-format';
import { withoutUndo } from '@/lib/templates/undo/entries';
import { timeZoneName } from '@/lib/platform/words';
import { failureWords } from '@/lib/service/errors';
import { undoEntry } from './actions';

export const metadata: Metadata = { title: 'Activity' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const PAGE_SIZE = 50;

/**
 * Every change made through Setpoint and every membership and connection event of the
 * organisation (for a building manager: their buildings' and their own), newest first, a page at
 * a time, filterable and exportable as CSV.
 */
export default async function ActivityPage({ searchParams }: Props) {
  const member = await requireMember();
  const query = await readActivityQuery(member, await searchParams);
  // A bulk run is one entry; its state and a result per thermostat are the run's, and a building
  // manager's share of someone else's run is described from that share (lib/activity-log/view.ts).
  const [{ entries: rows, runs }, people, buildings] = await Promise.all([
    listActivityAsSeen({
      scope: member,
      unit: member.temperatureUnit,
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
  const [named, undoableRuns] = await Promise.all([
    listThermostats({
      scope: member,
      thermostatIds: [...new Set(entries.flatMap((entry) => entry.thermostatId ?? []))],
    }),
    // A template, one-off or undo run's entry offers Undo as the run's page does (lib/ decides).
    runsOfferingUndo(member, runs.values()),
  ]);
  const buildingName = new Map(buildings.map((b) => [b.buildingId, b.name]));
  const labels = new Map(named.map((t) => [t.thermostatId, t.unitLabel]));
  const filtered = Object.values(query.values).some(Boolean);
  const zone = zoneLabel(member.timeZone);

  const columns: Column<ActivityEntry>[] = [
    timeColumn('When', (entry) => entry.at, member.timeZone),
    { header: 'Who', cell: (entry) => entry.actorName },
    {
      header: 'What',
      cell: (entry) => {
        const run = entry.runId ? runs.get(entry.runId) : undefined;
        return (
          <>
            {entry.summary}
            {run ? (
              <div className="mt-1">
                <Link href={runPath(run)} className="text-sm underline">
                  Result for each thermostat
                </Link>
              </div>
            ) : null}
            {run && undoableRuns.has(run.id) ? (
              <div className="mt-2">
                {/* The run page's own step: what an undo does is said there before it is planned. */}
                <Link href={`${runPath(run)}?confirm=undo`} className={buttonClass('secondary')}>
                  Undo this run…
                </Link>
              </div>
            ) : null}
            {offersUndo(member, entry) ? (
              <div className="mt-1">
                <ButtonForm
                  action={undoEntry.bind(null, entry.id)}
                  label="Undo…"
                  name={`Undo entry ${entry.id}: ${entry.summary}`}
                  pending="Planning the undo…"
                />
              </div>
            ) : null}
            {/* The state kept for an undo is Setpoint's, not a change to read. */}
            {Object.keys(withoutUndo(entry.changes)).length || entry.error ? (
              <details className="mt-1 text-xs text-muted">
                <summary className="cursor-pointer">Details</summary>
                <dl className="mt-1 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-0.5">
                  {changeLines(withoutUndo(entry.changes), member.temperatureUnit).map(
                    ([field, words]) => (
                      <div key={field} className="contents">
                        <dt>{field}</dt>
                        <dd className="break-words">{words}</dd>
                      </div>
                    ),
                  )}
                  {entry.error ? (
                    <div className="contents">
                      <dt>Why</dt>
                      <dd>
                        {errorWords(entry)}
                        {entry.serviceStatus
                          ? ` (the service answered ${entry.serviceStatus})`
                          : ''}
                      </dd>
                    </div>
                  ) : null}
                </dl>
              </details>
            ) : null}
          </>
        );
      },
    },
    {
      header: 'Where',
      className: 'text-xs',
      cell: (entry) => {
        const run = entry.runId ? runs.get(entry.runId) : undefined;
        const touched = Number(entry.changes.buildings ?? 0);
        return (
          <>
            {run ? (
              <div>
                {thermostatCount(run.total)}
                {touched > 1 ? ` in ${touched} buildings` : ''}
              </div>
            ) : null}
            {entry.thermostatId ? (
              <div>
                <Link href={`/thermostats/${entry.thermostatId}`} className="hover:underline">
                  {labels.get(entry.thermostatId) || entry.thermostatId}
                </Link>
              </div>
            ) : null}
            {entry.buildingId ? (
              <div className="text-muted">
                {buildingName.get(entry.buildingId) ?? entry.buildingId}
              </div>
            ) : null}
          </>
        );
      },
    },
    {
      header: 'Outcome',
      cell: (entry) => {
        // A bulk run's entry shows the run as it is now; any other entry as it was recorded.
        const run = entry.runId ? runs.get(entry.runId) : undefined;
        if (run) {
          const status = runStatus({ ...run, ...skippedOf(run) });
          return <OutcomeLabel kind={status.outcome} label={status.label} />;
        }
        const kind = activityOutcome(entry.outcome);
        return (
          <OutcomeLabel
            kind={kind}
            label={outcomeWords(kind, entry.error ? failureWords(entry.error) : null)}
          />
        );
      },
    },
  ];

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Activity"
        actions={
          <a
            href={activityHref('/activity/export', query.values)}
            className={buttonClass('secondary')}
          >
            Export CSV
          </a>
        }
      >
        Every change made through Setpoint, and every sign-in, connection and membership change:
        who, when, which thermostat, what, and how it ended.
      </PageHeader>
      <form className="flex flex-wrap items-end gap-3" method="get">
        <FilterSelect
          label="Building"
          name="building"
          value={query.values.building}
          all="All buildings"
          options={buildings.map((b) => ({ value: b.buildingId, label: b.name }))}
        />
        <FilterInput
          label="Thermostat"
          name="thermostat"
          type="search"
          value={query.values.thermostat}
          placeholder="Label or id"
        />
        <FilterSelect
          label="Person"
          name="person"
          value={query.values.person}
          all="Everyone"
          options={people.map((p) => ({ value: p.userId, label: p.name }))}
        />
        <FilterSelect
          label="What"
          name="action"
          value={query.values.action}
          all="Anything"
          options={ACTIVITY_ACTION_NAMES.map((action) => ({
            value: action,
            label: ACTIVITY_ACTIONS[action],
          }))}
        />
        <FilterInput label={`From (${zone})`} name="from" type="date" value={query.values.from} />
        <FilterInput label={`To (${zone})`} name="to" type="date" value={query.values.to} />
        <FilterButtons filtered={filtered} clearHref="/activity" />
      </form>
      <p className="-mt-3 text-xs text-muted">
        Dates and times are in your time zone, {timeZoneName(member.timeZone)}.{' '}
        <Link href="/account" className="underline">
          Change it
        </Link>
      </p>
      {query.reversed ? (
        <p role="alert" className="text-sm text-amber-800 dark:text-amber-300">
          “From” ({query.values.from}) is after “To” ({query.values.to}), so no entry can match.{' '}
          <Link
            href={activityHref('/activity', {
              ...query.values,
              from: query.values.to,
              to: query.values.from,
            })}
            className="underline"
          >
            Swap the dates
          </Link>
        </p>
      ) : null}
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
        <ResultTable
          caption="Activity log"
          columns={columns}
          rows={entries}
          rowKey={(entry) => String(entry.id)}
          className="min-w-[44rem]"
        />
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
