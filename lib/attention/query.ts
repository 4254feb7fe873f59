import { buildingIdSchema } from '@/lib/service/schemas';
import { ATTENTION_GROUPS, type AttentionGroup } from './conditions';

/**
 * The needs-attention page's filters and page number as the address carries them, so a filtered
 * view can be linked, bookmarked and paged without JavaScript. Anything malformed is ignored.
 */
export type AttentionQuery = { kind: AttentionGroup | ''; building: string; page: number };

type Params = Record<string, string | string[] | undefined>;

const one = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value.slice(0, 100) : '';

export const PAGE_SIZE = 50;

export function readAttentionQuery(params: Params): AttentionQuery {
  const kind = one(params.kind);
  const page = Number(one(params.page));
  return {
    kind: Object.hasOwn(ATTENTION_GROUPS, kind) ? (kind as AttentionGroup) : '',
    building: buildingIdSchema.safeParse(one(params.building)).data ?? '',
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

/** The address of the page with these filters (empty ones and page 1 dropped). */
export function attentionHref(query: Partial<AttentionQuery>): string {
  const params = new URLSearchParams();
  if (query.kind) params.set('kind', query.kind);
  if (query.building) params.set('building', query.building);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  const search = params.toString();
  return search ? `/attention?${search}` : '/attention';
}

/**
 * Where a form on the page goes back to after it has done its work: the page as it was (its
 * filters and page, nothing else: the address comes back from the browser, so it is read again
 * as any address is). What the form did, the action says in a notice (lib/platform/notice.ts).
 */
export function returnHref(returnTo: unknown): string {
  let query = readAttentionQuery({});
  if (typeof returnTo === 'string' && returnTo.startsWith('/attention')) {
    const params = new URL(returnTo, 'http://setpoint.invalid').searchParams;
    query = readAttentionQuery(Object.fromEntries(params));
  }
  return attentionHref(query);
}

/** One page of a sorted list, the page number clamped to the pages there are. */
export function pageOf<T>(items: T[], page: number, size = PAGE_SIZE) {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(Math.max(1, page), pages);
  return {
    items: items.slice((current - 1) * size, current * size),
    page: current,
    pages,
  };
}

/**
 * Where a thermostat that differs from its template is dealt with: the template's plan page with
 * only that thermostat ticked. Planning only reads; the plan's page then offers Apply.
 */
export function replanHref(item: { templateId: string; thermostatId: string }): string {
  const ids = new URLSearchParams({ ids: item.thermostatId });
  return `/templates/${encodeURIComponent(item.templateId)}/plan?${ids}`;
}
