import type { Metadata } from 'next';
import { notFound, redirect } from 'next/navigation';
import { BuildingDetailsForm } from '@/components/buildings/building-details-form';
import { BuildingFilters } from '@/components/buildings/building-filters';
import { BuildingPager } from '@/components/buildings/building-pager';
import { BuildingTable } from '@/components/buildings/building-table';
import { ReadingStatus } from '@/components/buildings/reading-status';
import { SelectedCount } from '@/components/buildings/selection';
import { Button, buttonClass } from '@/components/ui/button';
import { Link } from '@/components/ui/link';
import { RedirectNotice } from '@/components/ui/redirect-notice';
import { Trail } from '@/components/ui/trail';
import { attentionByThermostat } from '@/lib/attention/list';
import { attentionHref } from '@/lib/attention/query';
import { can } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { findBuilding } from '@/lib/portfolio/store';
import { connectionAtRequestStart } from '@/lib/service/connection/connection';
import { buildingPage } from '@/lib/readings/rows';
import { isCanonical, parseBuildingView, viewQuery } from '@/lib/readings/view';
import { buildingIdSchema } from '@/lib/service/schemas';
import { readNotice } from '@/lib/platform/notice';
import { timeZoneName } from '@/lib/platform/words';
import { buildingUnitsPath } from '@/lib/units/paths';
import { refreshBuilding, updateBuildingDetails } from './actions';

type Props = {
  params: Promise<{ buildingId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const metadata: Metadata = { title: 'Building' };

/** The bulk page reads the selected ids from its address (`?ids=…&ids=…`). */
/** The bulk page's new change, with the rows ticked here already selected (`?ids=…`). */
const BULK_REVIEW = '/bulk#new-change';
const SELECTION_FORM = 'bulk-selection';

export default async function BuildingPage({ params, searchParams }: Props) {
  const member = await requireMember();
  const { buildingId } = await params;
  if (!buildingIdSchema.safeParse(buildingId).success) notFound();
  const path = `/buildings/${buildingId}`;
  // `notice` is what an action said (a thermostat removed from the portfolio); the rest is the view.
  const { notice: said, ...asked } = await searchParams;
  const notice = readNotice({ notice: said }, member);
  const view = parseBuildingView(asked);
  // One address per view: a submitted filter form's empty fields and defaults are left out.
  if (!isCanonical(asked, view)) redirect(`${path}${viewQuery(view, { page: view.page })}`);

  const [building, connection, attention] = await Promise.all([
    findBuilding({ scope: member, buildingId }),
    connectionAtRequestStart(member.orgId),
    // What needs attention here, by the rules of Needs attention (from the store, no call):
    // rows are flagged with it, and the view's filter keeps them.
    attentionByThermostat({ scope: member, buildingId }),
  ]);
  if (!building) notFound();
  const manages = can(member, 'manage_building', building);
  const selects = can(member, 'change_thermostat', building);

  // From the readings store at once; stale rows are read again (within the call budget) and
  // stream in, so the page never waits for the service.
  const data = await buildingPage({
    scope: member,
    buildingId: building.buildingId,
    view,
    connection: connection ? connection.status : 'not_connected',
    attention,
  });
  const from = (data.page - 1) * view.per + 1;

  return (
    <div className="grid gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <Trail steps={[{ href: '/', label: 'Overview' }]} />
          <h1 className="text-2xl font-semibold tracking-tight">{building.name}</h1>
          <p className="mt-1 text-sm text-muted">
            {[building.address, timeZoneName(building.timeZone)].filter(Boolean).join(' · ')}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link href={buildingUnitsPath(building)} className={buttonClass('secondary')}>
            Units and occupancy
          </Link>
          <form action={refreshBuilding.bind(null, building.buildingId)}>
            <Button type="submit" variant="secondary">
              Refresh statuses
            </Button>
          </form>
          {manages ? (
            <Link
              href={`/buildings/${building.buildingId}/new-thermostat`}
              className={buttonClass('secondary')}
            >
              New thermostat
            </Link>
          ) : null}
        </div>
      </div>
      <RedirectNotice notice={notice} />
      {data.summary.total === 0 ? (
        <p className="text-sm text-muted">
          No thermostats in this building yet.
          {can(member, 'manage_portfolio') ? (
            <>
              {' '}
              <Link href="/portfolio/add" className="font-medium underline">
                Add some
              </Link>
              .
            </>
          ) : null}
        </p>
      ) : (
        <div className="grid gap-3">
          <BuildingFilters view={view} path={path} />
          <ReadingStatus
            data={data}
            shown={{ from, count: data.rows.length }}
            member={member}
            attention={attention.size}
          />
          {view.attention ? (
            <p className="text-sm">
              Each flagged unit says what it needs attention for; what to do about each is on{' '}
              <Link
                href={attentionHref({ building: building.buildingId })}
                className="font-medium underline"
              >
                Needs attention for {building.name}
              </Link>
              .
            </p>
          ) : null}
          <div className="flex flex-wrap items-center gap-3">
            {selects && data.rows.length > 0 ? (
              <form id={SELECTION_FORM} action={BULK_REVIEW} method="get" className="contents">
                <Button type="submit">Change selected…</Button>
                <SelectedCount form={SELECTION_FORM} />
              </form>
            ) : null}
            {data.summary.matching > 0 ? (
              <a
                href={`${path}/export${viewQuery(view)}`}
                download
                className="ml-auto text-sm font-medium underline"
              >
                Download CSV
                <span className="sr-only"> of the {data.summary.matching} rows that match</span>
              </a>
            ) : null}
          </div>
          {data.rows.length > 0 ? (
            <BuildingTable
              rows={data.rows}
              view={view}
              path={path}
              context={{
                unit: member.temperatureUnit,
                timeZone: building.timeZone,
                now: Date.now(),
                selectionForm: selects ? SELECTION_FORM : null,
                quietServiceWide: data.paused !== null || data.storedServiceWide,
                verdict: data.verdict,
              }}
            />
          ) : (
            <p className="text-sm text-muted">No thermostat matches these filters.</p>
          )}
          <BuildingPager view={view} path={path} page={data.page} pages={data.pages} />
        </div>
      )}
      {manages ? (
        <BuildingDetailsForm
          action={updateBuildingDetails.bind(null, building.buildingId)}
          name={building.name}
          address={building.address}
        />
      ) : null}
      <p className="text-xs text-muted">
        Readings are kept fresh in the background within the service’s rate limits; each row says
        how long ago it was read, and older ones are read again as you look.
      </p>
    </div>
  );
}
