import { FilterButtons, FilterSelect } from '@/components/ui/filters';
import { Link } from '@/components/ui/link';
import type { Member } from '@/lib/auth/store';
import { INCIDENT_KIND_NAMES, INCIDENT_KINDS } from '@/lib/notifications/kinds';
import {
  INCIDENTS_PER_PAGE,
  isFiltered,
  type NotificationsView,
  notificationsHref,
} from '@/lib/notifications/page-view';
import type { IncidentRow } from '@/lib/notifications/store';
import { CardSection } from './card-section';
import type { BuildingChoice } from './choices';
import { IncidentList } from './incident-list';

type Counts = { total: number; open: number };

/**
 * The incidents people were told of (`#incidents`), in the member's buildings: how many are open,
 * the filters by kind and building (a GET form, so the view is in the address), one page of the
 * list, and the links to the pages before and after.
 */
export function IncidentsSection({
  member,
  view,
  counts,
  everyKind,
  incidents,
  lastPage,
  buildings,
  now,
}: {
  member: Member;
  /** The view in the address, its page the one shown (never past the last). */
  view: NotificationsView;
  /** Of the incidents these filters match. */
  counts: Counts;
  /** Of every incident, while filtered (null when not). */
  everyKind: Counts | null;
  /** The page shown. */
  incidents: IncidentRow[];
  lastPage: number;
  /** The member's buildings, to filter by. */
  buildings: BuildingChoice[];
  now: Date;
}) {
  const { page } = view;
  const inScope = member.buildingIds === null ? 'the portfolio' : 'your buildings';
  const first = (page - 1) * INCIDENTS_PER_PAGE + 1;
  return (
    <CardSection
      id="incidents"
      title="Incidents"
      intro={
        <>
          {everyKind && everyKind.open > 0
            ? `${everyKind.open} open in ${inScope}; ${counts.open} of them ${counts.open === 1 ? 'matches' : 'match'} these filters.`
            : counts.open === 0
              ? `Nothing open in ${inScope}${isFiltered(view) ? ' matches these filters' : ''}.`
              : `${counts.open} open in ${inScope}.`}{' '}
          Resolved ones stay here for a week. Needs attention lists everything as it is now.
        </>
      }
    >
      {/* Offered once there is something to narrow, and always while narrowed (to widen). */}
      {counts.total > 0 || isFiltered(view) ? (
        <form
          method="get"
          action="/notifications#incidents"
          aria-label="Filter incidents"
          className="flex flex-wrap items-end gap-3"
        >
          <FilterSelect
            label="Kind"
            name="kind"
            value={view.kind}
            all="Every kind"
            options={INCIDENT_KIND_NAMES.map((kind) => ({
              value: kind,
              label: INCIDENT_KINDS[kind].name,
            }))}
          />
          {buildings.length > 1 ? (
            <FilterSelect
              label="Building"
              name="building"
              value={view.building}
              all={member.buildingIds === null ? 'Every building' : 'All my buildings'}
              options={buildings.map((b) => ({ value: b.buildingId, label: b.name }))}
            />
          ) : null}
          <FilterButtons filtered={isFiltered(view)} clearHref="/notifications#incidents" />
        </form>
      ) : null}
      {incidents.length > 0 ? (
        <>
          <p className="text-sm">
            {counts.total <= INCIDENTS_PER_PAGE
              ? `${counts.total} ${counts.total === 1 ? 'incident' : 'incidents'}`
              : `Incidents ${first}–${first + incidents.length - 1} of ${counts.total}`}
            {isFiltered(view) ? ' matching these filters' : ''}, open ones first.
          </p>
          <IncidentList
            incidents={incidents}
            unit={member.temperatureUnit}
            now={now}
            scope={member.buildingIds}
            zone={member.timeZone}
          />
        </>
      ) : isFiltered(view) ? (
        <p className="text-sm">No incident in the last week matches these filters.</p>
      ) : null}
      {lastPage > 1 ? (
        <nav aria-label="Incident pages" className="flex flex-wrap items-center gap-4 text-sm">
          {page > 1 ? (
            <Link
              href={notificationsHref(view, { page: page - 1 }, 'incidents')}
              className="underline"
            >
              Previous {INCIDENTS_PER_PAGE}
            </Link>
          ) : null}
          <span>
            Page {page} of {lastPage}
          </span>
          {page < lastPage ? (
            <Link
              href={notificationsHref(view, { page: page + 1 }, 'incidents')}
              className="underline"
            >
              Next {INCIDENTS_PER_PAGE}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </CardSection>
  );
}
