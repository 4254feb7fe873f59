import { type SQL, sql } from 'drizzle-orm';
import type { BuildingView, SortKey } from '@/lib/readings/view';
import type { Scope } from '@/lib/db/scope';

/**
 * The SQL of a building's table: its thermostats with the fields of their last stored status,
 * searched, filtered, sorted and paged by the database (the page shows one page of a building of
 * any size, and never sorts in memory). Pure: it builds statements, lib/readings/store.ts runs them.
 *
 * Sorting and filtering use the stored status (jsonb) through typed expressions: a value of
 * another JSON type than expected reads as null instead of failing the whole page. The rows
 * themselves select the status whole and lib/readings/store.ts picks the same fields from it by
 * the same rules: the typed expressions cost every row three lookups and a type test per field,
 * four times the whole query's time for a building of 200 (measured on PGlite).
 */

const number = (path: string) =>
  sql.raw(`(case when jsonb_typeof(${path}) = 'number' then (${path})::float8 end)`);
const text = (path: string) =>
  sql.raw(`(case when jsonb_typeof(${path}) = 'string' then ${path} #>> '{}' end)`);
const boolean = (path: string) =>
  sql.raw(`(case when jsonb_typeof(${path}) = 'boolean' then (${path})::boolean end)`);

/** The status fields a row shows, as SQL over `r.status` (readings aliased `r`). */
export const STATUS_FIELDS = {
  temperature: number(`r.status->'temperature'`),
  humidity: number(`r.status->'humidity'`),
  hvacMode: text(`r.status->'hvacMode'`),
  desiredHeat: number(`r.status->'setPoint'->'desiredHeat'`),
  desiredCool: number(`r.status->'setPoint'->'desiredCool'`),
  isResidentMode: boolean(`r.status->'isResidentMode'`),
  connected: boolean(`r.status->'connected'`),
  comfortSetting: text(`r.status->'comfortSetting'`),
} as const;

/** What a sort key orders by (other than `unit`, the natural order of the labels). */
const SORT_VALUES: Record<Exclude<SortKey, 'unit'>, SQL> = {
  temperature: STATUS_FIELDS.temperature,
  humidity: STATUS_FIELDS.humidity,
  mode: sql`${STATUS_FIELDS.hvacMode} collate "C"`,
  heat: STATUS_FIELDS.desiredHeat,
  cool: STATUS_FIELDS.desiredCool,
  resident: STATUS_FIELDS.isResidentMode,
  // Ascending puts offline (false) before online (true): problems first.
  connection: STATUS_FIELDS.connected,
  read: sql.raw('r.read_at'),
};

/** Units in natural order ("Unit 101" before "Unit 1001"), then by id. */
const unitOrder = (direction: 'asc' | 'desc') =>
  sql.raw(`t.unit_sort_key collate "C" ${direction}, t.thermostat_id ${direction}`);

/** Escapes LIKE's wildcards, so a search is for the text as typed. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The search and filters of a view as one condition, or null when it has none. `attention`: the
 * ids of the building's thermostats that need attention, which the needs-attention filter keeps
 * (worked out by lib/attention from more than this table holds); without it, that filter is left
 * out.
 */
export function filterSql(view: BuildingView, attention?: readonly string[]): SQL | null {
  const conditions: SQL[] = [];
  if (view.attention === 'needs' && attention) {
    conditions.push(
      attention.length > 0
        ? sql`t.thermostat_id in (${sql.join(
            attention.map((id) => sql`${id}`),
            sql`, `,
          )})`
        : sql`false`,
    );
  }
  if (view.q) {
    const pattern = likePattern(view.q);
    conditions.push(sql`(t.unit_label ilike ${pattern} or t.thermostat_id like ${pattern})`);
  }
  if (view.mode) conditions.push(sql`${STATUS_FIELDS.hvacMode} = ${view.mode}`);
  if (view.connection === 'online') conditions.push(sql`${STATUS_FIELDS.connected} is true`);
  if (view.connection === 'offline') conditions.push(sql`${STATUS_FIELDS.connected} is false`);
  // Not read: never read, or the last attempt failed.
  if (view.connection === 'unread') {
    conditions.push(sql`(r.status is null or r.failure is not null)`);
  }
  if (view.resident === 'on') conditions.push(sql`${STATUS_FIELDS.isResidentMode} is true`);
  if (view.resident === 'off') conditions.push(sql`${STATUS_FIELDS.isResidentMode} is false`);
  return conditions.length ? sql.join(conditions, sql` and `) : null;
}

/**
 * The order of a view. Sorting by a reading puts the rows without one last in either direction:
 * those whose last read failed (their value may be old), then those with no value; ties go in
 * natural unit order, so a page boundary never splits rows arbitrarily.
 */
export function orderSql(view: BuildingView): SQL {
  if (view.sort === 'unit') return unitOrder(view.dir);
  const value = SORT_VALUES[view.sort];
  const direction = sql.raw(view.dir);
  const problemsLast = view.sort === 'read' ? sql`` : sql`(r.failure is not null), `;
  return sql`${problemsLast}${value} ${direction} nulls last, ${unitOrder('asc')}`;
}

/** Thermostats of one building in scope, with their readings: the FROM and WHERE of both. */
function buildingSource(input: { scope: Scope; buildingId: string }): SQL {
  const { scope, buildingId } = input;
  const inScope =
    scope.buildingIds === null
      ? sql`true`
      : scope.buildingIds.length > 0
        ? sql`t.building_id in (${sql.join(
            scope.buildingIds.map((id) => sql`${id}`),
            sql`, `,
          )})`
        : sql`false`;
  return sql`from thermostats t
    left join readings r on r.org_id = t.org_id and r.thermostat_id = t.thermostat_id
    where t.org_id = ${scope.orgId}::uuid and t.building_id = ${buildingId} and ${inScope}`;
}

/** One page of a building's rows as the view asks (`limit` null: every matching row). */
export function buildingRowsSql(input: {
  scope: Scope;
  buildingId: string;
  view: BuildingView;
  limit: number | null;
  offset: number;
  /** A reading older than this is stale (to be read again), as is one asked for fresh. */
  freshSince: Date;
  /** The thermostats that need attention, for the view's needs-attention filter. */
  attention?: readonly string[];
}): SQL {
  const filter = filterSql(input.view, input.attention);
  // Only what a row shows: every column costs each of a building's rows on every view.
  return sql`select t.thermostat_id as "thermostatId", t.unit_label as "unitLabel",
      case when r.status is not null then r.read_at end as "readAt", r.failure as "failure",
      (r.read_at is null or r.read_at < ${input.freshSince.toISOString()}::timestamptz
        or coalesce(r.wanted_at > r.tried_at, false)) as "stale",
      r.status as "status",
      coalesce(r.last_connected_at, r.offline_since) as "offlineSince",
      (r.last_connected_at is not null) as "offlineSeen",
      (select p.mode from pending_mode_changes p
        where p.org_id = t.org_id and p.thermostat_id = t.thermostat_id) as "pendingMode"
    ${buildingSource(input)}${filter ? sql` and ${filter}` : sql``}
    order by ${orderSql(input.view)}
    ${input.limit === null ? sql`` : sql`limit ${input.limit} offset ${input.offset}`}`;
}

/** Counts over the whole building (and how many match the view), for the table's status line. */
export function buildingSummarySql(input: {
  scope: Scope;
  buildingId: string;
  view: BuildingView;
  /** The thermostats that need attention, for the view's needs-attention filter. */
  attention?: readonly string[];
}): SQL {
  const filter = filterSql(input.view, input.attention) ?? sql`true`;
  return sql`select count(*)::int as "total",
      count(*) filter (where ${filter})::int as "matching",
      count(*) filter (where r.failure is not null)::int as "failing",
      count(*) filter (where r.status is null)::int as "unread",
      count(*) filter (where ${STATUS_FIELDS.connected} is false)::int as "offline"
    ${buildingSource(input)}`;
}
