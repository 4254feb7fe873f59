import type { Metadata } from 'next';
import Link from 'next/link';
import { AttentionList } from '@/components/attention/attention-list';
import { Card } from '@/components/ui/card';
import {
  ATTENTION_GROUPS,
  type AttentionGroup,
  COMFORT_MARGIN_F,
  COMFORT_SUSTAIN_MS,
  FREEZE_BELOW_F,
  groupOf,
  MAINTENANCE_DUE_WITHIN_DAYS,
  MODE_PENDING_MS,
  OVERHEAT_ABOVE_F,
  staleAfterMs,
} from '@/lib/attention/conditions';
import { freshnessLine } from '@/lib/attention/freshness';
import { listAttention } from '@/lib/attention/list';
import { attentionHref, pageOf, readAttentionQuery } from '@/lib/attention/query';
import { formatDuration } from '@/lib/attention/words';
import { requireMember } from '@/lib/auth/session';
import { listBuildings } from '@/lib/db/queries';
import { getEnv } from '@/lib/env';
import { formatDelta, formatTemperature } from '@/lib/units';

export const metadata: Metadata = { title: 'Needs attention' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const inputClass =
  'min-h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-900';

/**
 * What is wrong across the portfolio in the member's scope (a building manager: their
 * buildings), most urgent first, each item leading to its thermostat or the connection page.
 * Filters and the page number live in the address; everything works without JavaScript.
 */
export default async function AttentionPage({ searchParams }: Props) {
  const member = await requireMember();
  const query = readAttentionQuery(await searchParams);
  const now = new Date();
  const [{ items, freshness }, buildings] = await Promise.all([
    listAttention({ scope: member, now }),
    listBuildings({ scope: member }),
  ]);
  const inBuilding = query.building
    ? items.filter((item) => item.buildingId === query.building)
    : items;
  const counts = new Map<AttentionGroup, number>();
  for (const item of inBuilding) counts.set(groupOf(item), (counts.get(groupOf(item)) ?? 0) + 1);
  const shown = query.kind ? inBuilding.filter((item) => groupOf(item) === query.kind) : inBuilding;
  const page = pageOf(shown, query.page);
  const filtered = Boolean(query.kind || query.building);
  const unit = member.temperatureUnit;
  const buildingName = buildings.find((b) => b.buildingId === query.building)?.name;
  const freshnessText = freshnessLine({
    ...freshness,
    perHour: getEnv().SERVICE_RATE_LIMIT.perHour,
  });

  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Needs attention</h1>
        <p className="mt-1 text-sm text-muted">
          {items.length === 0
            ? 'Nothing across your buildings right now.'
            : `${items.length.toLocaleString('en-US')} item${items.length === 1 ? '' : 's'} across ${member.buildingIds === null ? 'the portfolio' : 'your buildings'}, most urgent first.`}{' '}
          {freshnessText}
        </p>
      </div>

      <form className="flex flex-wrap items-end gap-3" method="get" aria-label="Filter items">
        <label className="grid gap-1 text-sm">
          <span className="font-medium">Kind</span>
          <select name="kind" defaultValue={query.kind} className={inputClass}>
            <option value="">All kinds ({inBuilding.length})</option>
            {(Object.keys(ATTENTION_GROUPS) as AttentionGroup[]).map((group) => (
              <option key={group} value={group}>
                {ATTENTION_GROUPS[group]} ({counts.get(group) ?? 0})
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm">
          <span className="font-medium">Building</span>
          <select name="building" defaultValue={query.building} className={inputClass}>
            <option value="">All buildings</option>
            {buildings.map((b) => (
              <option key={b.buildingId} value={b.buildingId}>
                {b.name}
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
        {filtered ? (
          <Link href="/attention" className="min-h-10 px-2 py-2 text-sm underline">
            Clear filters
          </Link>
        ) : null}
      </form>

      {page.items.length === 0 ? (
        <Card className="grid place-items-center gap-3 py-12 text-center">
          <svg viewBox="0 0 24 24" aria-hidden="true" className="size-10 text-emerald-600">
            <path
              fill="none"
              stroke="currentColor"
              strokeWidth="1.5"
              d="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Zm-4-9 3 3 5-6"
            />
          </svg>
          <h2 className="text-lg font-medium">
            {filtered ? 'Nothing matches these filters' : 'Nothing needs attention'}
          </h2>
          <p className="max-w-md text-sm text-muted">
            {filtered
              ? `Nothing${query.kind ? ` under “${ATTENTION_GROUPS[query.kind]}”` : ''}${buildingName ? ` in ${buildingName}` : ''} right now.`
              : 'Every thermostat’s latest reading is within its comfort band, online and up to date, and no maintenance, failed change or connection problem is waiting.'}
          </p>
          {filtered ? (
            <Link href="/attention" className="text-sm font-medium underline">
              Show everything
            </Link>
          ) : null}
        </Card>
      ) : (
        <AttentionList items={page.items} unit={unit} now={now} />
      )}

      {page.pages > 1 ? (
        <nav aria-label="Pages" className="flex items-center gap-4 text-sm">
          {page.page > 1 ? (
            <Link href={attentionHref({ ...query, page: page.page - 1 })} className="underline">
              Previous page
            </Link>
          ) : null}
          <span>
            Page {page.page} of {page.pages}
          </span>
          {page.page < page.pages ? (
            <Link href={attentionHref({ ...query, page: page.page + 1 })} className="underline">
              Next page
            </Link>
          ) : null}
        </nav>
      ) : null}

      <details className="rounded-xl border border-slate-200 bg-white p-4 text-sm dark:border-slate-800 dark:bg-slate-900">
        <summary className="cursor-pointer font-medium">What is checked</summary>
        <ul className="mt-3 grid list-disc gap-1 pl-5 text-slate-700 dark:text-slate-300">
          <li>
            Freeze risk below {formatTemperature(FREEZE_BELOW_F, unit)} and overheating above{' '}
            {formatTemperature(OVERHEAT_ABOVE_F, unit)}, at once and in any mode.
          </li>
          <li>
            Too cold or too hot: more than {formatDelta(COMFORT_MARGIN_F, unit)} below the heat
            setpoint or above the cool setpoint for {formatDuration(COMFORT_SUSTAIN_MS)} of readings
            (not while the thermostat is off), which leaves time to recover after a schedule change.
          </li>
          <li>Offline: the service says the thermostat is not connected.</li>
          <li>
            A mode change still waiting {formatDuration(MODE_PENDING_MS)} after it was first seen.
          </li>
          <li>
            HVAC maintenance from {MAINTENANCE_DUE_WITHIN_DAYS} days before its date; the dates are
            read from each thermostat about once a day.
          </li>
          <li>Changes that failed in the last 24 hours and have not succeeded since.</li>
          <li>
            Readings out of date: not read for over{' '}
            {formatDuration(staleAfterMs(freshness.achievableMs))} while background reading is on.
          </li>
          <li>The service connection: ended, about to run out, or missing.</li>
        </ul>
      </details>
    </div>
  );
}
