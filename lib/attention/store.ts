import 'server-only';
import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/lib/db/client';
import type { ThermostatKey } from '@/lib/db/scope';
import {
  buildings,
  maintenanceReminders,
  pendingModeChanges,
  readingHistory,
  readings,
  thermostats,
} from '@/lib/db/schema';
import { inBuildings, inBuildingsSql, type Scope, thermostatOf } from '@/lib/db/scope';

/**
 * The needs-attention page's queries: the facts its conditions (lib/attention/conditions.ts) read,
 * for the thermostats in a member's scope, and the two small stores it keeps (maintenance
 * reminders, pending mode changes). Every query of a member's view names the organisation and,
 * for a building manager, their buildings, like lib/portfolio/store.ts.
 */

const inScope = (scope: Scope) => inBuildings(thermostats.buildingId, scope);

/** What one thermostat in scope brings to the conditions, in one row. */
export type AttentionRow = {
  thermostatId: string;
  unitLabel: string;
  buildingId: string;
  buildingName: string | null;
  timeZone: string | null;
  addedAt: Date;
  status: Record<string, unknown> | null;
  readAt: Date | null;
  failure: string | null;
  /** Since when it has been offline: Setpoint last saw it connected, or first saw it offline. */
  offlineSince: Date | null;
  /** Whether `offlineSince` is when Setpoint last saw it connected. */
  seenConnected: boolean;
  pendingMode: string | null;
  pendingSince: Date | null;
  reminderEnabled: boolean | null;
  nextReminderDate: string | null;
};

/** Every thermostat in scope (of one building, if given) with its reading and kept facts. */
export async function listAttentionRows(input: {
  scope: Scope;
  buildingId?: string;
}): Promise<AttentionRow[]> {
  const db = await getDb();
  const { scope } = input;
  const same = (table: typeof readings | typeof pendingModeChanges | typeof maintenanceReminders) =>
    and(eq(table.orgId, thermostats.orgId), eq(table.thermostatId, thermostats.thermostatId));
  return db
    .select({
      thermostatId: thermostats.thermostatId,
      unitLabel: thermostats.unitLabel,
      buildingId: thermostats.buildingId,
      buildingName: buildings.name,
      timeZone: buildings.timeZone,
      addedAt: thermostats.createdAt,
      status: readings.status,
      readAt: readings.readAt,
      failure: readings.failure,
      offlineSince: sql<Date | null>`coalesce(${readings.lastConnectedAt}, ${readings.offlineSince})`,
      seenConnected: sql<boolean>`${readings.lastConnectedAt} is not null`,
      pendingMode: pendingModeChanges.mode,
      pendingSince: pendingModeChanges.since,
      reminderEnabled: maintenanceReminders.enabled,
      nextReminderDate: maintenanceReminders.nextReminderDate,
    })
    .from(thermostats)
    .leftJoin(
      buildings,
      and(eq(buildings.orgId, thermostats.orgId), eq(buildings.buildingId, thermostats.buildingId)),
    )
    .leftJoin(readings, same(readings))
    .leftJoin(pendingModeChanges, same(pendingModeChanges))
    .leftJoin(maintenanceReminders, same(maintenanceReminders))
    .where(
      and(
        eq(thermostats.orgId, scope.orgId),
        inScope(scope),
        input.buildingId ? eq(thermostats.buildingId, input.buildingId) : undefined,
      ),
    );
}

export type BandHistoryPoint = {
  thermostatId: string;
  at: Date;
  temperature: number | null;
  desiredHeat: number | null;
  desiredCool: number | null;
  hvacMode: string | null;
};

/** The comfort band's history of these thermostats (in scope) since `since`, oldest first. */
export async function listBandHistory(input: {
  scope: Scope;
  thermostatIds: string[];
  since: Date;
}): Promise<BandHistoryPoint[]> {
  if (input.thermostatIds.length === 0) return [];
  const db = await getDb();
  return db
    .select({
      thermostatId: readingHistory.thermostatId,
      at: readingHistory.at,
      temperature: readingHistory.temperature,
      desiredHeat: readingHistory.desiredHeat,
      desiredCool: readingHistory.desiredCool,
      hvacMode: readingHistory.hvacMode,
    })
    .from(readingHistory)
    .innerJoin(thermostats, thermostatOf(readingHistory))
    .where(
      and(
        eq(readingHistory.orgId, input.scope.orgId),
        inArray(readingHistory.thermostatId, input.thermostatIds),
        gte(readingHistory.at, input.since),
        inScope(input.scope),
      ),
    )
    .orderBy(asc(readingHistory.thermostatId), asc(readingHistory.at));
}

export type FailedWrites = {
  thermostatId: string;
  count: number;
  first: Date;
  last: { at: Date; summary: string; error: string | null };
};

/**
 * Per thermostat in scope (by the building it is in now), the writes that failed since `since`
 * and have not succeeded since: a later success of the same action on it settles them.
 */
export async function listFailedWrites(input: {
  scope: Scope;
  since: Date;
}): Promise<FailedWrites[]> {
  const db = await getDb();
  const { scope } = input;
  const result = await db.execute(sql`
    select f.thermostat_id as "thermostatId", count(*)::int as count,
      min(f.at) as first, max(f.at) as "lastAt",
      (array_agg(f.summary order by f.at desc, f.id desc))[1] as "lastSummary",
      (array_agg(f.error order by f.at desc, f.id desc))[1] as "lastError"
    from activity_log f
    join thermostats t on t.org_id = f.org_id and t.thermostat_id = f.thermostat_id
    where f.org_id = ${scope.orgId}::uuid and f.outcome in ('failure', 'unconfirmed')
      and f.at > ${input.since.toISOString()}::timestamptz and ${inBuildingsSql(scope)}
      and not exists (
        select 1 from activity_log s
        where s.org_id = f.org_id and s.thermostat_id = f.thermostat_id and s.action = f.action
          and s.outcome = 'success' and s.at > f.at)
    group by f.thermostat_id`);
  return rowsOf<{
    thermostatId: string;
    count: number | string;
    first: string | Date;
    lastAt: string | Date;
    lastSummary: string;
    lastError: string | null;
  }>(result).map((row) => ({
    thermostatId: row.thermostatId,
    count: Number(row.count),
    first: new Date(row.first),
    last: { at: new Date(row.lastAt), summary: row.lastSummary, error: row.lastError },
  }));
}

// --- Pending mode changes ----------------------------------------------------------------------

/**
 * Keeps a mode change Setpoint asked for (creating a thermostat in a mode), from now: the
 * service shows only the mode in effect, so this is how Setpoint knows one is waiting.
 */
export async function recordPendingMode(
  input: ThermostatKey & { mode: string; at?: Date },
): Promise<void> {
  const db = await getDb();
  const since = input.at ?? new Date();
  await db
    .insert(pendingModeChanges)
    .values({ orgId: input.orgId, thermostatId: input.thermostatId, mode: input.mode, since })
    .onConflictDoUpdate({
      target: [pendingModeChanges.orgId, pendingModeChanges.thermostatId],
      set: { mode: input.mode, since },
    });
}

/**
 * Brings the pending mode changes in step with the readings: one goes once a reading made after
 * it was asked for shows the mode (or its thermostat left the portfolio). For every organisation
 * at once, in one statement.
 */
export async function syncPendingModeChanges(): Promise<void> {
  const db = await getDb();
  await db.execute(sql`
    delete from pending_mode_changes p
    where exists (
      select 1 from readings r
      where r.org_id = p.org_id and r.thermostat_id = p.thermostat_id
        and r.read_at >= p.since and r.status->>'hvacMode' = p.mode)`);
}

// --- Maintenance reminders -----------------------------------------------------------------------

export type DueReminder = { orgId: string; thermostatId: string };

/**
 * Thermostats, of every organisation whose connection is active, whose maintenance reminder is
 * due for a read: never tried first, then the longest unread. A good read is due again after
 * `readEvery`, a failed one after `retryEvery`. At most `limit`.
 */
export async function listDueReminders(input: {
  now?: Date;
  readEvery: number;
  retryEvery: number;
  limit: number;
}): Promise<DueReminder[]> {
  const db = await getDb();
  const now = (input.now ?? new Date()).getTime();
  const readBefore = new Date(now - input.readEvery).toISOString();
  const retryBefore = new Date(now - input.retryEvery).toISOString();
  const result = await db.execute(sql`
    select t.org_id as "orgId", t.thermostat_id as "thermostatId"
    from thermostats t
    join service_connections c on c.org_id = t.org_id and c.status = 'active'
    left join maintenance_reminders m on m.org_id = t.org_id and m.thermostat_id = t.thermostat_id
    where m.tried_at is null
      or (m.failure is null and m.tried_at < ${readBefore}::timestamptz)
      or (m.failure is not null and m.tried_at < ${retryBefore}::timestamptz)
    order by m.tried_at asc nulls first
    limit ${input.limit}`);
  return rowsOf<DueReminder>(result);
}

/**
 * How far the maintenance reminders' first reads have come for the thermostats in scope: how
 * many were tried at least once (read, or failed and waiting for its retry), of how many.
 */
export async function countReminderChecks(input: {
  scope: Scope;
}): Promise<{ checked: number; total: number }> {
  const db = await getDb();
  const { scope } = input;
  const result = await db.execute(sql`
    select count(*)::int as total, count(m.tried_at)::int as checked
    from thermostats t
    left join maintenance_reminders m
      on m.org_id = t.org_id and m.thermostat_id = t.thermostat_id
    where t.org_id = ${scope.orgId}::uuid and ${inBuildingsSql(scope)}`);
  const [row] = rowsOf<{ total: number | string; checked: number | string }>(result);
  return { checked: Number(row?.checked ?? 0), total: Number(row?.total ?? 0) };
}

/** The mode change Setpoint asked for on this thermostat and is waiting for, if any. */
export async function findPendingMode(
  input: ThermostatKey,
): Promise<{ mode: string; since: Date } | null> {
  const db = await getDb();
  const [row] = await db
    .select({ mode: pendingModeChanges.mode, since: pendingModeChanges.since })
    .from(pendingModeChanges)
    .where(
      and(
        eq(pendingModeChanges.orgId, input.orgId),
        eq(pendingModeChanges.thermostatId, input.thermostatId),
      ),
    );
  return row ?? null;
}
