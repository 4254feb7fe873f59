import 'server-only';
import { and, eq, or, type SQL, sql } from 'drizzle-orm';
import { type Database, getDb } from '@/lib/db/client';
import { inBuildings, type Scope } from '@/lib/db/scope';
import { type BULK_ITEM_OUTCOMES, bulkRunItems, bulkRuns } from '@/lib/db/schema';

/** What the parts of the runs' store share: the rows' types, and who sees which runs. */

export type BulkRun = typeof bulkRuns.$inferSelect;
export type BulkRunItem = typeof bulkRunItems.$inferSelect;
export type BulkItemOutcome = (typeof BULK_ITEM_OUTCOMES)[number];
export type FinalOutcome = Exclude<BulkItemOutcome, 'pending'>;
export type ItemResult = {
  thermostatId: string;
  outcome: 'applied' | 'failed' | 'unconfirmed';
  detail: string;
};

export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Runs a worker has to take up: planning, or applying. A `planned` run waits for a member. */
export const UNFINISHED = ['planning', 'queued', 'running'] as const;
/** Runs a cancel still stops (a planned one is discarded). */
export const CANCELLABLE = [...UNFINISHED, 'planned'] as const;
/** Rows per insert: 1,000 items of 4 values stay far below PostgreSQL's 65,535 parameters. */
export const INSERT_BATCH = 1000;

/**
 * A new run and its items, in one transaction: the items in selection order (`position`), in
 * batches of INSERT_BATCH. `what` names the run in the error of an insert that returned no row.
 */
export async function insertRun(
  what: string,
  run: typeof bulkRuns.$inferInsert,
  items: readonly Omit<typeof bulkRunItems.$inferInsert, 'runId' | 'position'>[],
  /** A transaction of the caller's, for a run that starts with another change or not at all. */
  within?: Tx,
): Promise<BulkRun> {
  const insert = async (tx: Tx) => {
    const [row] = await tx.insert(bulkRuns).values(run).returning();
    if (!row) throw new Error(`${what} insert returned no row`);
    for (let start = 0; start < items.length; start += INSERT_BATCH) {
      await tx
        .insert(bulkRunItems)
        .values(
          items
            .slice(start, start + INSERT_BATCH)
            .map((item, index) => ({ ...item, runId: row.id, position: start + index })),
        );
    }
    return row;
  };
  if (within) return insert(within);
  const db = await getDb();
  return db.transaction(insert);
}

/**
 * The runs a scope may see: all of its organisation's, or for a building manager those they
 * started and those that touched one of their buildings.
 */
export function visibleRuns(scope: Scope): SQL | undefined {
  if (scope.buildingIds === null) return eq(bulkRuns.orgId, scope.orgId);
  return and(
    eq(bulkRuns.orgId, scope.orgId),
    or(
      eq(bulkRuns.startedBy, scope.userId),
      sql`exists (select 1 from ${bulkRunItems} where ${bulkRunItems.runId} = ${bulkRuns.id} and ${inBuildings(bulkRunItems.buildingId, scope)})`,
    ),
  );
}

/**
 * The items of a visible run a scope may see: a building manager sees every item of a run they
 * started, and only their buildings' items of someone else's.
 */
export function itemsInView(scope: Scope, run: Pick<BulkRun, 'startedBy'>): SQL | undefined {
  if (scope.buildingIds === null || run.startedBy === scope.userId) return undefined;
  return inBuildings(bulkRunItems.buildingId, scope);
}
