import type { Metadata } from 'next';
import { AttentionList } from '@/components/attention/attention-list';
import { EmptyState } from '@/components/ui/empty-state';
import { FilterButtons, FilterSelect } from '@/components/ui/filters';
import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';
import { PageHeader } from '@/components/ui/page-header';
import { RedirectNotice } from '@/components/ui/redirect-notice';
import { slowChecksLine } from '@/lib/attention/checks';
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
import { listAttention, slowCheckProgress } from '@/lib/attention/list';
import { attentionHref, pageOf, readAttentionQuery } from '@/lib/attention/query';
import { formatDuration } from '@/lib/attention/words';
import { can } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { listBuildings } from '@/lib/portfolio/store';
import { getEnv } from '@/lib/platform/env';
import { readNotice } from '@/lib/platform/notice';
import { CHECK_EVERY_MS as DRIFT_CHECK_EVERY_MS } from '@/lib/templates/drift';
import { formatDelta, formatTemperature } from '@/lib/platform/units';
import { recordMaintenance } from './actions';

export const metadata: Metadata = { title: 'Needs attention' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * What is wrong across the portfolio in the member's scope (a building manager: their
 * buildings), most urgent first, each item leading to its thermostat or the connection page.
 * Filters and the page number live in the address; everything works without JavaScript.
 */
export default async function AttentionPage({ searchParams }: Props) {
  const member = await requireMember();
  const params = await searchParams;
  const query = readAttentionQuery(params);
  const notice = readNotice(params, member);
  const now = new Date();
  const [{ items, freshness }, buildings, checks] = await Promise.all([
    listAttention({ scope: member, now }),
    listBuildings({ scope: member }),
    slowCheckProgress({ scope: member }),
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
  const checking = slowChecksLine(checks);
  // The page as it is (filters and page): where "Record maintenance done" comes back to.
  const here = attentionHref({ ...query, page: page.page });

  return (
    <div className="grid gap-6">
      <PageHeader title="Needs attention">
        {items.length === 0
          ? 'Nothing across your buildings right now.'
          : `${items.length.toLocaleString('en-US')} item${items.length === 1 ? '' : 's'} across ${member.buildingIds === null ? 'the portfolio' : 'your buildings'}, most urgent first.`}{' '}
        {freshnessText}
      </PageHeader>

      <RedirectNotice notice={notice} />
      {checking ? <Notice tone="info">{checking}</Notice> : null}

      <form className="flex flex-wrap items-end gap-3" method="get" aria-label="Filter items">
        <FilterSelect
          label="Kind"
          name="kind"
          value={query.kind}
          all={`All kinds (${inBuilding.length})`}
          options={(Object.keys(ATTENTION_GROUPS) as AttentionGroup[]).map((group) => ({
            value: group,
            label: `${ATTENTION_GROUPS[group]} (${counts.get(group) ?? 0})`,
          }))}
        />
        <FilterSelect
          label="Building"
          name="building"
          value={query.building}
          all="All buildings"
          options={buildings.map((b) => ({ value: b.buildingId, label: b.name }))}
        />
        <FilterButtons filtered={filtered} clearHref="/attention" />
      </form>

      {page.items.length === 0 ? (
        <EmptyState
          icon="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Zm-4-9 3 3 5-6"
          iconClassName="text-emerald-600"
          title={
            filtered
              ? 'Nothing matches these filters'
              : buildings.length === 0
                ? 'No thermostats yet'
                : checking
                  ? 'Nothing found yet'
                  : 'Nothing needs attention'
          }
          action={
            filtered ? (
              <Link href="/attention" className="text-sm font-medium underline">
                Show everything
              </Link>
            ) : buildings.length === 0 && can(member, 'manage_portfolio') ? (
              <Link href="/portfolio/add" className="text-sm font-medium underline">
                Add thermostats
              </Link>
            ) : null
          }
        >
          {filtered
            ? `Nothing${query.kind ? ` under “${ATTENTION_GROUPS[query.kind]}”` : ''}${buildingName ? ` in ${buildingName}` : ''} right now.`
            : buildings.length === 0
              ? 'Once thermostats are in the portfolio, what needs attention across them shows here.'
              : checking
                ? 'Nothing found yet: every reading so far is within its comfort band, online and up to date, but not every check has run (above).'
                : 'Every thermostat’s latest reading is within its comfort band, online and up to date, and no maintenance, failed change or connection problem is waiting.'}
        </EmptyState>
      ) : (
        <AttentionList
          items={page.items}
          unit={unit}
          now={now}
          zone={member.timeZone}
          mayChange={(buildingId) => can(member, 'change_thermostat', { buildingId })}
          recordFor={(thermostatId) => recordMaintenance.bind(null, thermostatId, here)}
        />
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
          <li>
            Thermostats that differ from the template last applied to them: each is read again about
            every {formatDuration(DRIFT_CHECK_EVERY_MS)} (locks aside, which the service cannot
            read), with a link to plan the template again.
          </li>
          <li>The service connection: ended, about to run out, or missing.</li>
        </ul>
      </details>
    </div>
  );
}
