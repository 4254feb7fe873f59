import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ConnectForm } from '@/components/connection/connect-form';
import { buttonClass } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Link } from '@/components/ui/link';
import { PageHeader } from '@/components/ui/page-header';
import { slowChecksLine } from '@/lib/attention/checks';
import { severityOf } from '@/lib/attention/conditions';
import { freshnessLine } from '@/lib/attention/freshness';
import { listAttention, slowCheckProgress } from '@/lib/attention/list';
import { can } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { listBuildings } from '@/lib/portfolio/store';
import { getEnv } from '@/lib/platform/env';
import { connectionAtRequestStart } from '@/lib/service/connection/connection';
import { DEFAULT_VIEW, viewQuery } from '@/lib/readings/view';
import { timeZoneName } from '@/lib/platform/words';

export const metadata: Metadata = { title: 'Overview' };

export default async function OverviewPage() {
  const member = await requireMember();
  const [buildings, connection, attention, checks] = await Promise.all([
    listBuildings({ scope: member }),
    connectionAtRequestStart(member.orgId),
    listAttention({ scope: member }),
    slowCheckProgress({ scope: member }),
  ]);
  const checking = slowChecksLine(checks);
  const thermostatCount = buildings.reduce((sum, building) => sum + building.thermostatCount, 0);
  const attentionCount = attention.items.length;
  const urgentCount = attention.items.filter((item) => severityOf(item) === 'urgent').length;
  const perBuilding = new Map<string, number>();
  for (const item of attention.items) {
    if (item.buildingId)
      perBuilding.set(item.buildingId, (perBuilding.get(item.buildingId) ?? 0) + 1);
  }

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Overview"
        actions={
          connection && can(member, 'manage_portfolio') ? (
            <Link href="/portfolio/add" className={buttonClass('primary')}>
              Add thermostats
            </Link>
          ) : null
        }
      >
        {buildings.length
          ? `${buildings.length} building${buildings.length === 1 ? '' : 's'}, ${thermostatCount} thermostat${thermostatCount === 1 ? '' : 's'}.`
          : `Signed in as ${member.name}, ${member.orgName}.`}
      </PageHeader>

      {!connection ? (
        <Card className="grid gap-3">
          <h2 className="text-lg font-medium">Connect your thermostat service account</h2>
          <p className="text-sm text-muted">
            Setpoint reads and changes your thermostats through your organisation’s service account.{' '}
            {can(member, 'manage_connection')
              ? buildings.length
                ? 'Connect it to read and change them.'
                : 'Connect it to add your buildings.'
              : 'An owner or admin connects it.'}
          </p>
          {can(member, 'manage_connection') ? (
            <div>
              <Suspense>
                <ConnectForm
                  label="Connect service account"
                  returnTo={buildings.length ? '/' : '/portfolio/add'}
                />
              </Suspense>
            </div>
          ) : null}
        </Card>
      ) : null}

      {buildings.length > 0 ? (
        <section
          aria-label="Fleet status"
          className="flex flex-wrap items-center gap-x-6 gap-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
        >
          <Link
            href="/attention"
            className={`text-lg font-semibold underline-offset-4 hover:underline ${attentionCount ? (urgentCount ? 'text-danger' : 'text-amber-800 dark:text-amber-300') : checking ? '' : 'text-success'}`}
          >
            {attentionCount === 0
              ? checking
                ? 'Nothing found yet'
                : 'Nothing needs attention'
              : `${attentionCount.toLocaleString('en-US')} ${attentionCount === 1 ? 'item needs' : 'items need'} attention`}
            {urgentCount ? ` (${urgentCount.toLocaleString('en-US')} urgent)` : ''}
          </Link>
          <p className="text-sm text-muted">
            {freshnessLine({
              ...attention.freshness,
              perHour: getEnv().SERVICE_RATE_LIMIT.perHour,
            })}
          </p>
          {/* Until every slow check has run once, the count above may still grow: say so. */}
          {checking ? <p className="basis-full text-sm text-muted">{checking}</p> : null}
        </section>
      ) : null}

      {buildings.length === 0 ? (
        <EmptyState
          icon="M3 21h18M5 21V8l7-5 7 5v13M9 21v-6h6v6"
          iconClassName="text-slate-400"
          title="No buildings yet"
        >
          {can(member, 'manage_portfolio')
            ? 'Add the thermostats you manage; their buildings appear here with their live status.'
            : member.buildingIds !== null
              ? 'No buildings are assigned to you yet; an owner or admin assigns them.'
              : 'Your organisation has no buildings yet; an owner or admin adds them.'}
        </EmptyState>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {buildings.map((building) => {
            const items = perBuilding.get(building.buildingId) ?? 0;
            return (
              <li
                key={building.buildingId}
                className="flex flex-col rounded-xl border border-slate-200 bg-white shadow-sm transition hover:border-brand-500 hover:shadow dark:border-slate-800 dark:bg-slate-900"
              >
                {/* Not prefetched, even on hover: rendering a building reads its stale rows from
                    the service, and a pointer crossing the cards would spend calls on each. */}
                <Link
                  href={`/buildings/${building.buildingId}`}
                  prefetch={false}
                  className="block flex-1 rounded-xl p-5"
                >
                  <h2 className="font-medium">{building.name}</h2>
                  <p className="mt-1 text-sm text-muted">{building.address || 'No address'}</p>
                  {items ? (
                    <p className="mt-2 text-sm font-medium text-amber-800 dark:text-amber-300">
                      {items.toLocaleString('en-US')} {items === 1 ? 'item needs' : 'items need'}{' '}
                      attention
                    </p>
                  ) : null}
                  <p className="mt-3 flex justify-between gap-3 text-xs text-muted">
                    <span>
                      {building.thermostatCount} thermostat
                      {building.thermostatCount === 1 ? '' : 's'}
                    </span>
                    <span className="text-right">{timeZoneName(building.timeZone)}</span>
                  </p>
                </Link>
                {items ? (
                  // The building's own rows that need attention, each flagged with what it is.
                  <Link
                    href={`/buildings/${building.buildingId}${viewQuery(DEFAULT_VIEW, { attention: 'needs' })}`}
                    prefetch={false}
                    className="border-t border-slate-100 px-5 py-3 text-sm font-medium text-brand-700 underline-offset-2 hover:underline dark:border-slate-800 dark:text-brand-100"
                  >
                    Show the units that need attention
                    <span className="sr-only"> in {building.name}</span>
                  </Link>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
