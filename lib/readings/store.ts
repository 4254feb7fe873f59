import 'server-only';
import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { RowStatus } from '@/lib/readings/row-types';
import type { BuildingView } from '@/lib/readings/view';
import { buildingRowsSql, buildingSummarySql, type STATUS_FIELDS } from './building-rows-store';
import { getDb, rowsOf } from '@/lib/db/client';
import type { ThermostatKey, ThermostatSelection } from '@/lib/db/scope';
import { readingHistory, readings, thermostats } from '@/lib/db/schema';
import { inBuildings, type Scope, thermostatOf } from '@/lib/db/scope';

/**
 * The readings store's queries: the last reading of each thermostat, and its history. Every
 * query names the organisation (and a building manager's buildings) like lib/portfolio/store.ts.
 */

export type StoredReading = typeof readings.$inferSelect;
export type HistoryPoint = typeof readingHistory.$inferSelect;
export type HistorySample = Omit<HistoryPoint, 'orgId' | 'thermostatId' | 'at'>;

/**
 * Saves a good reading: the last status, and a point of history. Whether it shows the
 * thermostat connected (`sample.connected`) keeps when it was last seen connected and since when
 * it has been offline, as far as Setpoint's readings tell.
 */
export async function saveReading(input: {
  orgId: string;
  thermostatId: string;
  status: Record<string, unknown>;
  sample: HistorySample;
  at?: Date;
}): Promise<void> {
  const db = await getDb();
  const at = input.at ?? new Date();
  const { connected } = input.sample;
  const row = {
    orgId: input.orgId,
    thermostatId: input.thermostatId,
    status: input.status,
    readAt: at,
    lastConnectedAt: connected === true ? at : null,
    offlineSince: connected === false ? at : null,
    triedAt: at,
    failure: null,
    wantedAt: null,
  };
  // The thermostat may have left the portfolio while it was being read: then nothing is kept.
  const kept = await db
    .insert(readings)
    .values(row)
    .onConflictDoUpdate({
      target: [readings.orgId, readings.thermostatId],
      set: {
        status: sql`excluded.status`,
        readAt: sql`excluded.read_at`,
        lastConnectedAt:
          connected === true ? sql`excluded.last_connected_at` : sql`${readings.lastConnectedAt}`,
        offlineSince:
          connected === true
            ? null
            : connected === false
              ? sql`coalesce(${readings.offlineSince}, excluded.offline_since)`
              : sql`${readings.offlineSince}`,
        triedAt: sql`excluded.tried_at`,
        failure: null,
        wantedAt: null,
      },
      // A slower read that started earlier never overwrites a newer one.
      setWhere: or(isNull(readings.readAt), lt(readings.readAt, sql`excluded.read_at`)),
    })
    .returning({ id: readings.thermostatId })
    .catch((error: unknown) => {
      if (isForeignKeyViolation(error)) return [];
      throw error;
    });
  if (kept.length === 0) return;
  await db
    .insert(readingHistory)
    .values({ orgId: input.orgId, thermostatId: input.thermostatId, at, ...input.sample })
    .onConflictDoNothing();
}

function isForeignKeyViolation(error: unknown): boolean {
  const value = error as { code?: unknown; cause?: { code?: unknown } };
  return value?.code === '23503' || value?.cause?.code === '23503';
}

/** Records a failed read: the last good status stays, with why the newer one failed. */
export async function saveReadFailure(
  input: ThermostatKey & { failure: string; at?: Date },
): Promise<void> {
  const db = await getDb();
  const at = input.at ?? new Date();
  await db.execute(sql`
    insert into readings (org_id, thermostat_id, tried_at, failure)
    select ${input.orgId}::uuid, ${input.thermostatId}, ${at.toISOString()}::timestamptz, ${input.failure}
    from thermostats where org_id = ${input.orgId}::uuid and thermostat_id = ${input.thermostatId}
    on conflict (org_id, thermostat_id) do update
      set tried_at = excluded.tried_at, failure = excluded.failure, wanted_at = null
      where readings.tried_at < excluded.tried_at`);
}

/** The readings of thermostats in scope (those of one building, or these ids). */
export async function listReadings(input: ThermostatSelection): Promise<StoredReading[]> {
  if (input.thermostatIds?.length === 0) return [];
  const db = await getDb();
  const { scope } = input;
  const rows = await db
    .select({ reading: readings })
    .from(readings)
    .innerJoin(thermostats, thermostatOf(readings))
    .where(
      and(
        eq(readings.orgId, scope.orgId),
        inBuildings(thermostats.buildingId, scope),
        input.buildingId ? eq(thermostats.buildingId, input.buildingId) : undefined,
        input.thermostatIds ? inArray(readings.thermostatId, input.thermostatIds) : undefined,
      ),
    );
  return rows.map((row) => row.reading);
}

/** Where a page of thermostats ends: the last one's addition (as the database keeps it) and id. */
export type ThermostatCursor = { createdAt: string; id: string };

export type ThermostatWithReading = {
  thermostatId: string;
  buildingId: string;
  unitLabel: string;
  reading: StoredReading | null;
};

/**
 * A page of the thermostats in the scope (one building's, if given), oldest in the portfolio
 * first, each with its last reading: the API's list. Ordered by the database's own instant and
 * the id, so one added meanwhile comes at the end and none is skipped or seen twice.
 */
export async function pageOfThermostats(input: {
  scope: Scope;
  limit: number;
  after?: ThermostatCursor | null;
  buildingId?: string;
  /** Only this thermostat (the API's read of one). */
  only?: string;
}): Promise<{ thermostats: ThermostatWithReading[]; next: ThermostatCursor | null }> {
  const { after, scope } = input;
  const db = await getDb();
  const rows = await db
    .select({
      thermostatId: thermostats.thermostatId,
      buildingId: thermostats.buildingId,
      unitLabel: thermostats.unitLabel,
      createdAt: sql<string>`${thermostats.createdAt}::text`,
      reading: readings,
    })
    .from(thermostats)
    .leftJoin(readings, thermostatOf(readings))
    .where(
      and(
        eq(thermostats.orgId, scope.orgId),
        inBuildings(thermostats.buildingId, scope),
        input.buildingId ? eq(thermostats.buildingId, input.buildingId) : undefined,
        input.only ? eq(thermostats.thermostatId, input.only) : undefined,
        after
          ? sql`(${thermostats.createdAt}, ${thermostats.thermostatId}) > (${after.createdAt}::timestamptz, ${after.id})`
          : undefined,
      ),
    )
    .orderBy(asc(thermostats.createdAt), asc(thermostats.thermostatId))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    thermostats: page.map(({ createdAt: _, ...row }) => row),
    next:
      rows.length > page.length && last
        ? { createdAt: last.createdAt, id: last.thermostatId }
        : null,
  };
}

/** Asks for these readings fresh: the poller takes wanted ones first. */
export async function markWanted(input: { orgId: string; thermostatIds: string[] }) {
  if (input.thermostatIds.length === 0) return;
  const db = await getDb();
  await db
    .update(readings)
    .set({ wantedAt: new Date() })
    .where(
      and(eq(readings.orgId, input.orgId), inArray(readings.thermostatId, input.thermostatIds)),
    );
}

export type DueReading = { orgId: string; thermostatId: string };

/**
 * Thermostats, of every organisation whose connection is active, whose reading is older than
 * `olderThan` (or missing): wanted ones first, then the oldest attempt first, so every
 * organisation's readings age alike. At most `limit`.
 */
export async function listDueReadings(input: {
  olderThan: Date;
  limit: number;
}): Promise<DueReading[]> {
  const db = await getDb();
  const result = await db.execute(sql`
    select t.org_id as "orgId", t.thermostat_id as "thermostatId"
    from thermostats t
    join service_connections c on c.org_id = t.org_id and c.status = 'active'
    left join readings r on r.org_id = t.org_id and r.thermostat_id = t.thermostat_id
    where r.tried_at is null or r.tried_at < ${input.olderThan.toISOString()}::timestamptz
      or (r.wanted_at is not null and r.wanted_at > r.tried_at)
    order by (r.wanted_at is not null and r.wanted_at > r.tried_at) desc,
      r.tried_at asc nulls first
    limit ${input.limit}`);
  return rowsOf<DueReading>(result);
}

/** How many thermostats the poller keeps fresh (organisations with an active connection). */
export async function countPolledThermostats(): Promise<number> {
  const db = await getDb();
  const result = await db.execute(sql`
    select count(*)::int as n from thermostats t
    join service_connections c on c.org_id = t.org_id and c.status = 'active'`);
  return Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0);
}

/**
 * Thins the history as it ages: after two days one point per quarter hour, after a week one
 * per hour, nothing after 30 days. Returns how many points went.
 */
export async function pruneHistory(now = new Date()): Promise<number> {
  const db = await getDb();
  const iso = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const day = 86_400_000;
  const result = await db.execute(sql`
    with ranked as (
      select org_id, thermostat_id, at,
        row_number() over (
          partition by org_id, thermostat_id,
            case when at < ${iso(7 * day)}::timestamptz
              then date_trunc('hour', at)
              else date_trunc('hour', at) + floor(extract(minute from at) / 15) * interval '15 minutes'
            end
          order by at) as n
      from reading_history
      where at < ${iso(2 * day)}::timestamptz
    ), gone as (
      delete from reading_history h
      using ranked
      where h.org_id = ranked.org_id and h.thermostat_id = ranked.thermostat_id
        and h.at = ranked.at and (ranked.n > 1 or h.at < ${iso(30 * day)}::timestamptz)
      returning 1
    )
    select count(*)::int as n from gone`);
  return Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0);
}

/** A building's row: the thermostat, when it was last read, and its last status's fields. */
export type BuildingRowRecord = {
  thermostatId: string;
  unitLabel: string;
  /** When the last good status was read; null when none ever was (the fields are null too). */
  readAt: Date | null;
  /** Why the last attempt failed (a ServiceError kind); null when it did not. */
  failure: string | null;
  /** Read too long ago, or asked for fresh: to be read again. */
  stale: boolean;
  /** When it was last seen connected (or, never seen so, first seen offline). */
  offlineSince: Date | null;
  /** Whether `offlineSince` is when it was last seen connected. */
  offlineSeen: boolean;
  /** A mode Setpoint asked for that the readings do not show yet. */
  pendingMode: string | null;
} & StatusFields;

type StatusFields = { [K in keyof typeof STATUS_FIELDS]: RowStatus[K] };

const number = (value: unknown) => (typeof value === 'number' ? value : null);
const string = (value: unknown) => (typeof value === 'string' ? value : null);
const boolean = (value: unknown) => (typeof value === 'boolean' ? value : null);

/**
 * A status (stored, or as the service just sent it) as the fields a row shows, by the rules of
 * STATUS_FIELDS: a value of another JSON type than expected reads as null.
 */
export function rowStatusOf(stored: Record<string, unknown> | null): StatusFields {
  const status = stored ?? {};
  const setPoint = (
    typeof status.setPoint === 'object' && status.setPoint !== null ? status.setPoint : {}
  ) as Record<string, unknown>;
  return {
    temperature: number(status.temperature),
    humidity: number(status.humidity),
    hvacMode: string(status.hvacMode),
    desiredHeat: number(setPoint.desiredHeat),
    desiredCool: number(setPoint.desiredCool),
    isResidentMode: boolean(status.isResidentMode),
    connected: boolean(status.connected),
    comfortSetting: string(status.comfortSetting),
  };
}

const dateOf = (value: unknown) =>
  value === null || value === undefined
    ? null
    : value instanceof Date
      ? value
      : new Date(String(value));

/**
 * The rows of one building in scope as the view asks: searched, filtered and sorted by the
 * database, `limit` from `offset` (null: every matching row, for an export).
 */
export async function listBuildingRows(input: {
  scope: Scope;
  buildingId: string;
  view: BuildingView;
  limit: number | null;
  offset?: number;
  /** Readings older than this are stale (default: none by age, only those asked for fresh). */
  freshSince?: Date;
  /** The thermostats that need attention, for the view's needs-attention filter. */
  attention?: readonly string[];
}): Promise<BuildingRowRecord[]> {
  const db = await getDb();
  const result = await db.execute(
    buildingRowsSql({
      ...input,
      offset: input.offset ?? 0,
      freshSince: input.freshSince ?? new Date(0),
    }),
  );
  type Selected = Omit<BuildingRowRecord, keyof StatusFields> & {
    status: Record<string, unknown> | null;
  };
  return rowsOf<Selected>(result).map((row) => ({
    thermostatId: row.thermostatId,
    unitLabel: row.unitLabel,
    readAt: dateOf(row.readAt),
    failure: row.failure,
    stale: row.stale,
    offlineSince: dateOf(row.offlineSince),
    offlineSeen: Boolean(row.offlineSeen),
    pendingMode: row.pendingMode,
    ...rowStatusOf(row.status),
  }));
}

export type BuildingRowsSummary = {
  /** Thermostats in the building (in scope). */
  total: number;
  /** Of those, the ones the view's search and filters keep. */
  matching: number;
  /** Whose last read failed. */
  failing: number;
  /** Never read. */
  unread: number;
  /** Offline, as last read. */
  offline: number;
};

/** Counts of a building's rows, for the table's status line and paging. */
export async function summarizeBuildingRows(input: {
  scope: Scope;
  buildingId: string;
  view: BuildingView;
  /** The thermostats that need attention, for the view's needs-attention filter. */
  attention?: readonly string[];
}): Promise<BuildingRowsSummary> {
  const db = await getDb();
  const [row] = rowsOf<BuildingRowsSummary>(await db.execute(buildingSummarySql(input)));
  return {
    total: Number(row?.total ?? 0),
    matching: Number(row?.matching ?? 0),
    failing: Number(row?.failing ?? 0),
    unread: Number(row?.unread ?? 0),
    offline: Number(row?.offline ?? 0),
  };
}
