import { z } from 'zod';
import { HVAC_MODES } from '@/lib/service/schemas';

/**
 * What a building's table shows (search, filters, sort, page), as it lives in the address, so
 * a view can be linked and works without JavaScript. The database sorts, filters and pages
 * (lib/readings/building-rows-store.ts); this module only reads and writes the address. A value that does
 * not parse falls back to its default: an old or edited link still shows a table.
 */

export const SORT_KEYS = [
  'unit',
  'temperature',
  'humidity',
  'mode',
  'heat',
  'cool',
  'resident',
  'connection',
  'read',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export const CONNECTION_FILTERS = ['online', 'offline', 'unread'] as const;
export type ConnectionFilter = (typeof CONNECTION_FILTERS)[number];

export const RESIDENT_FILTERS = ['on', 'off'] as const;

/**
 * Only the thermostats that need attention, by the rules of Needs attention (lib/attention): the
 * page works them out and the database keeps those rows.
 */
export const ATTENTION_FILTERS = ['needs'] as const;

/** Rows per page; a building up to the default's size is one page. */
export const PAGE_SIZES = [50, 100, 250, 500] as const;
export const DEFAULT_PAGE_SIZE = 250;

const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

export const buildingViewSchema = z.object({
  q: z.string().trim().max(64).catch(''),
  mode: optional(z.enum(HVAC_MODES)),
  connection: optional(z.enum(CONNECTION_FILTERS)),
  resident: optional(z.enum(RESIDENT_FILTERS)),
  attention: optional(z.enum(ATTENTION_FILTERS)),
  sort: z.enum(SORT_KEYS).catch('unit'),
  dir: z.enum(['asc', 'desc']).catch('asc'),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  per: z.coerce
    .number()
    .refine((value): value is (typeof PAGE_SIZES)[number] =>
      (PAGE_SIZES as readonly number[]).includes(value),
    )
    .catch(DEFAULT_PAGE_SIZE),
});
export type BuildingView = z.infer<typeof buildingViewSchema>;

export const DEFAULT_VIEW: BuildingView = buildingViewSchema.parse({});

type SearchParams = Record<string, string | string[] | undefined>;

/** The view an address asks for (Next's `searchParams`); the first of repeated values. */
export function parseBuildingView(params: SearchParams): BuildingView {
  const first = (key: string) => {
    const value = params[key];
    return Array.isArray(value) ? value[0] : value;
  };
  return buildingViewSchema.parse({
    q: first('q') ?? '',
    mode: first('mode') || undefined,
    connection: first('connection') || undefined,
    resident: first('resident') || undefined,
    attention: first('attention') || undefined,
    sort: first('sort'),
    dir: first('dir'),
    page: first('page'),
    per: first('per'),
  });
}

/**
 * The query string (with its `?`, or '' for the default view) of `view` changed by `changes`.
 * Defaults are left out, so the plain address is the default view. A change of anything but the
 * page goes back to the first page.
 */
export function viewQuery(view: BuildingView, changes: Partial<BuildingView> = {}): string {
  const next = { ...view, ...changes };
  if (!('page' in changes)) next.page = 1;
  const params = new URLSearchParams();
  if (next.q) params.set('q', next.q);
  if (next.mode) params.set('mode', next.mode);
  if (next.connection) params.set('connection', next.connection);
  if (next.resident) params.set('resident', next.resident);
  if (next.attention) params.set('attention', next.attention);
  if (next.sort !== DEFAULT_VIEW.sort) params.set('sort', next.sort);
  if (next.dir !== DEFAULT_VIEW.dir) params.set('dir', next.dir);
  if (next.per !== DEFAULT_VIEW.per) params.set('per', String(next.per));
  if (next.page !== 1) params.set('page', String(next.page));
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** Whether the view narrows the rows (a search or a filter), as opposed to only ordering them. */
export function isFiltered(view: BuildingView): boolean {
  return Boolean(view.q || view.mode || view.connection || view.resident || view.attention);
}

/** How many pages `matching` rows make (at least one), and the page shown (within them). */
export function pageOf(view: BuildingView, matching: number): { page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(matching / view.per));
  return { page: Math.min(view.page, pages), pages };
}

/**
 * Whether an address's parameters are already the canonical form of the view they ask for (no
 * empty fields, defaults or unknown parameters, whatever their order): when not, the page
 * redirects to the canonical address, so one view has one address.
 */
export function isCanonical(params: SearchParams, view: BuildingView): boolean {
  const asked = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      asked.append(key, one);
    }
  }
  const canonical = new URLSearchParams(viewQuery(view, { page: view.page }));
  asked.sort();
  canonical.sort();
  return asked.toString() === canonical.toString();
}
