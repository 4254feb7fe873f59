import { isIncidentKind } from './kinds';

/**
 * What the notifications page shows as the address carries it, so a filtered page of incidents
 * can be linked, reloaded and used without JavaScript: the incidents' kind, building and page,
 * and the delivery log's page. Anything unknown (a kind that is none, a building outside the
 * member's, a page that is no number) is ignored, never an error page. Pure: the page and the
 * tests share it.
 */

export const INCIDENTS_PER_PAGE = 10;
export const LOG_PER_PAGE = 20;

/** Beyond this, a page number is someone's typing, not a page. */
const MAX_PAGE = 10_000;

export type NotificationsView = {
  /** An incident kind, or '' for every kind. */
  kind: string;
  /** One of the member's buildings, or '' for every building. */
  building: string;
  /** The incidents' page, from 1. */
  page: number;
  /** The delivery log's page, from 1. */
  log: number;
};

type Params = Record<string, string | string[] | undefined>;

const one = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value.trim().slice(0, 200) : '';

const pageOf = (value: string | string[] | undefined) => {
  const page = Number(one(value));
  return Number.isSafeInteger(page) && page >= 1 ? Math.min(page, MAX_PAGE) : 1;
};

export function readNotificationsView(
  params: Params,
  buildingIds: readonly string[],
): NotificationsView {
  const kind = one(params.kind);
  const building = one(params.building);
  return {
    kind: isIncidentKind(kind) ? kind : '',
    building: buildingIds.includes(building) ? building : '',
    page: pageOf(params.page),
    log: pageOf(params.log),
  };
}

/** Whether the incidents are narrowed at all. */
export const isFiltered = (view: NotificationsView) => view.kind !== '' || view.building !== '';

/** The page that holds the list's last incident (1 when there are none). */
export const lastIncidentPage = (total: number) =>
  Math.max(1, Math.ceil(total / INCIDENTS_PER_PAGE));

/**
 * The page's address with `change` applied (first pages and empty filters left out), at one of
 * its sections (`#incidents`, `#delivery-log`).
 */
export function notificationsHref(
  view: NotificationsView,
  change: Partial<NotificationsView>,
  section: 'incidents' | 'delivery-log',
): string {
  const next = { ...view, ...change };
  const params = new URLSearchParams();
  if (next.kind) params.set('kind', next.kind);
  if (next.building) params.set('building', next.building);
  if (next.page > 1) params.set('page', String(next.page));
  if (next.log > 1) params.set('log', String(next.log));
  const query = params.toString();
  return `/notifications${query ? `?${query}` : ''}#${section}`;
}
