import 'server-only';
import { and, asc, desc, eq, gte, inArray, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { ActivityAction } from '@/lib/activity/actions';
import { getDb } from '@/lib/db/client';
import { activityLog, bulkRunItems } from '@/lib/db/schema';
import { inBuildings, type Scope } from '@/lib/db/scope';

/** The activity log's store: recording an entry, and reading them in a member's scope. */

export type ActivityEntry = typeof activityLog.$inferSelect & { action: ActivityAction };
export type NewActivityEntry = Omit<typeof activityLog.$inferInsert, 'id' | 'at'> & {
  orgId: string;
  action: ActivityAction;
};

export async function recordActivity(entry: NewActivityEntry): Promise<void> {
  const db = await getDb();
  await db.insert(activityLog).values(entry);
}

export type ActivityFilter = {
  buildingId?: string;
  /** Entries about any of these thermostats. */
  thermostatIds?: string[];
  userId?: string;
  action?: ActivityAction;
  from?: Date;
  /** Exclusive. */
  to?: Date;
};

/** An entry of a bulk run whose items meet `condition` (one entry stands for many thermostats). */
const runTouched = (condition: SQL | undefined) =>
  sql`(${activityLog.runId} is not null and exists (select 1 from ${bulkRunItems} where ${bulkRunItems.runId} = ${activityLog.runId} and ${condition ?? sql`true`}))`;

/**
 * The entries a scope may see: the organisation's; for a building manager those of their
 * buildings (a bulk run's, when it touched one of them) and their own.
 */
function activityInScope(scope: Scope): SQL | undefined {
  return and(
    eq(activityLog.orgId, scope.orgId),
    scope.buildingIds === null
      ? undefined
      : or(
          inBuildings(activityLog.buildingId, scope),
          eq(activityLog.userId, scope.userId),
          runTouched(inBuildings(bulkRunItems.buildingId, scope)),
        ),
  );
}

/**
 * The scope's activity, newest first, a page at a time: `before` is the last entry of the page
 * shown (keyset paging, so a page costs the same however deep). A building manager sees the
 * entries of their buildings and their own. Filters by building or thermostat also find the bulk
 * runs that touched them.
 */
export async function listActivity(input: {
  scope: Scope;
  filter?: ActivityFilter;
  before?: { at: Date; id: number };
  limit?: number;
}): Promise<ActivityEntry[]> {
  const db = await getDb();
  const { scope, filter = {} } = input;
  const rows = await db
    .select()
    .from(activityLog)
    .where(
      and(
        activityInScope(scope),
        filter.buildingId
          ? or(
              eq(activityLog.buildingId, filter.buildingId),
              runTouched(eq(bulkRunItems.buildingId, filter.buildingId)),
            )
          : undefined,
        filter.thermostatIds
          ? filter.thermostatIds.length > 0
            ? or(
                inArray(activityLog.thermostatId, filter.thermostatIds),
                runTouched(inArray(bulkRunItems.thermostatId, filter.thermostatIds)),
              )
            : sql`false`
          : undefined,
        filter.userId ? eq(activityLog.userId, filter.userId) : undefined,
        filter.action ? eq(activityLog.action, filter.action) : undefined,
        filter.from ? gte(activityLog.at, filter.from) : undefined,
        filter.to ? lt(activityLog.at, filter.to) : undefined,
        input.before
          ? or(
              lt(activityLog.at, input.before.at),
              and(eq(activityLog.at, input.before.at), lt(activityLog.id, input.before.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(activityLog.at), desc(activityLog.id))
    .limit(input.limit ?? 50);
  return rows as ActivityEntry[];
}

/** The people who appear in the scope's activity log, for its filter. */
/** One entry of the activity log, if the scope sees it. */
export async function findActivityEntry(input: {
  scope: Scope;
  entryId: number;
}): Promise<ActivityEntry | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.id, input.entryId), activityInScope(input.scope)));
  return row ? (row as ActivityEntry) : null;
}

export async function listActivityPeople({
  scope,
}: {
  scope: Scope;
}): Promise<{ userId: string; name: string }[]> {
  const db = await getDb();
  const rows = await db
    .selectDistinct({ userId: activityLog.userId, name: activityLog.actorName })
    .from(activityLog)
    .where(activityInScope(scope))
    .orderBy(asc(activityLog.actorName));
  return rows.flatMap((row) => (row.userId ? [{ userId: row.userId, name: row.name }] : []));
}

/**
 * Each thermostat's latest change made through Setpoint of these kinds (`actions`), that did not
 * fail: when, and by whom. One query for a list of thermostats.
 */
export async function lastChangesOf(input: {
  orgId: string;
  thermostatIds: readonly string[];
  actions: readonly ActivityAction[];
}): Promise<Map<string, { at: Date; actorName: string }>> {
  if (input.thermostatIds.length === 0) return new Map();
  const db = await getDb();
  const rows = await db
    .selectDistinctOn([activityLog.thermostatId], {
      thermostatId: activityLog.thermostatId,
      at: activityLog.at,
      actorName: activityLog.actorName,
    })
    .from(activityLog)
    .where(
      and(
        eq(activityLog.orgId, input.orgId),
        inArray(activityLog.thermostatId, [...input.thermostatIds]),
        inArray(activityLog.action, [...input.actions]),
        ne(activityLog.outcome, 'failure'),
      ),
    )
    .orderBy(activityLog.thermostatId, desc(activityLog.at));
  return new Map(
    rows.flatMap((row) =>
      row.thermostatId ? [[row.thermostatId, { at: row.at, actorName: row.actorName }]] : [],
    ),
  );
}
