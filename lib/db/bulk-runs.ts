import 'server-only';
import { and, asc, count, desc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { ActivityAction } from '@/lib/activity-actions';
import { type Database, getDb, rowsOf } from './client';
import type { Scope } from './queries';
import {
  activityLog,
  BULK_ITEM_OUTCOMES,
  buildings,
  bulkRunItems,
  bulkRuns,
  thermostats,
} from './schema';
import { inBuildings } from './scope';

/**
 * Bulk runs and their items: what a run is to do, what each thermostat's request came to, and
 * the lease that lets one worker at a time apply it. Every read takes a scope; the worker's
 * writes take the run's id, which it got from a run the data layer created after its checks.
 */

export type BulkRun = typeof bulkRuns.$inferSelect;
export type BulkRunItem = typeof bulkRunItems.$inferSelect;
export type BulkItemOutcome = (typeof BULK_ITEM_OUTCOMES)[number];
export type FinalOutcome = Exclude<BulkItemOutcome, 'pending'>;
export type ItemResult = { thermostatId: string; outcome: 'applied' | 'failed'; detail: string };

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

const UNFINISHED = ['queued', 'running'] as const;
/** Rows per insert: 1,000 items of 4 values stay far below PostgreSQL's 65,535 parameters. */
const INSERT_BATCH = 1000;

/**
 * The runs a scope may see: all of its organisation's, or for a building manager those they
 * started and those that touched one of their buildings.
 */
function visibleRuns(scope: Scope): SQL | undefined {
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

/** Creates a queued run with one pending item per thermostat, in selection order. */
export async function createBulkRun(input: {
  orgId: string;
  startedBy: string;
  startedByName: string;
  changes: Record<string, unknown>;
  retryOf?: string | null;
  items: readonly { thermostatId: string; buildingId: string }[];
}): Promise<BulkRun> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [run] = await tx
      .insert(bulkRuns)
      .values({
        orgId: input.orgId,
        startedBy: input.startedBy,
        startedByName: input.startedByName,
        changes: input.changes,
        retryOf: input.retryOf ?? null,
        total: input.items.length,
      })
      .returning();
    if (!run) throw new Error('bulk run insert returned no row');
    for (let start = 0; start < input.items.length; start += INSERT_BATCH) {
      await tx.insert(bulkRunItems).values(
        input.items.slice(start, start + INSERT_BATCH).map((item, index) => ({
          runId: run.id,
          position: start + index,
          thermostatId: item.thermostatId,
          buildingId: item.buildingId,
        })),
      );
    }
    return run;
  });
}

export async function findBulkRun(input: { scope: Scope; runId: string }): Promise<BulkRun | null> {
  const db = await getDb();
  const [run] = await db
    .select()
    .from(bulkRuns)
    .where(and(eq(bulkRuns.id, input.runId), visibleRuns(input.scope)));
  return run ?? null;
}

/** The scope's runs, newest first. */
export async function listBulkRuns(input: {
  scope: Scope;
  /** Only the retries of this run. */
  retryOf?: string;
  limit?: number;
}): Promise<BulkRun[]> {
  const db = await getDb();
  return db
    .select()
    .from(bulkRuns)
    .where(
      and(
        visibleRuns(input.scope),
        input.retryOf ? eq(bulkRuns.retryOf, input.retryOf) : undefined,
      ),
    )
    .orderBy(desc(bulkRuns.createdAt), desc(bulkRuns.id))
    .limit(input.limit ?? 20);
}

/** The runs with these ids that the scope may see (to describe activity entries). */
export async function listBulkRunsById(input: {
  scope: Scope;
  runIds: string[];
}): Promise<BulkRun[]> {
  if (input.runIds.length === 0) return [];
  const db = await getDb();
  return db
    .select()
    .from(bulkRuns)
    .where(and(inArray(bulkRuns.id, input.runIds), visibleRuns(input.scope)));
}

export type BulkRunItemRow = BulkRunItem & {
  unitLabel: string | null;
  buildingName: string | null;
};

/** A page of a run's items in selection order, with each thermostat's label and building. */
export async function listBulkRunItems(input: {
  scope: Scope;
  run: Pick<BulkRun, 'id' | 'orgId' | 'startedBy'>;
  outcomes?: readonly BulkItemOutcome[];
  offset?: number;
  limit?: number;
}): Promise<BulkRunItemRow[]> {
  const db = await getDb();
  const { run } = input;
  const rows = await db
    .select({
      item: bulkRunItems,
      unitLabel: thermostats.unitLabel,
      buildingName: buildings.name,
    })
    .from(bulkRunItems)
    .leftJoin(
      thermostats,
      and(
        eq(thermostats.orgId, run.orgId),
        eq(thermostats.thermostatId, bulkRunItems.thermostatId),
      ),
    )
    .leftJoin(
      buildings,
      and(eq(buildings.orgId, run.orgId), eq(buildings.buildingId, bulkRunItems.buildingId)),
    )
    .where(
      and(
        eq(bulkRunItems.runId, run.id),
        itemsInView(input.scope, run),
        input.outcomes ? inArray(bulkRunItems.outcome, [...input.outcomes]) : undefined,
      ),
    )
    .orderBy(asc(bulkRunItems.position))
    .offset(input.offset ?? 0)
    .limit(input.limit ?? 100);
  return rows.map((row) => ({
    ...row.item,
    unitLabel: row.unitLabel,
    buildingName: row.buildingName,
  }));
}

export type OutcomeCounts = Record<BulkItemOutcome, number> & { total: number };

/** How many of the run's items the scope sees, by outcome. */
export async function countBulkRunItems(input: {
  scope: Scope;
  run: Pick<BulkRun, 'id' | 'startedBy'>;
}): Promise<OutcomeCounts> {
  const db = await getDb();
  const rows = await db
    .select({ outcome: bulkRunItems.outcome, n: count() })
    .from(bulkRunItems)
    .where(and(eq(bulkRunItems.runId, input.run.id), itemsInView(input.scope, input.run)))
    .groupBy(bulkRunItems.outcome);
  const counts = Object.fromEntries(BULK_ITEM_OUTCOMES.map((o) => [o, 0])) as OutcomeCounts;
  counts.total = 0;
  for (const row of rows) {
    counts[row.outcome] = row.n;
    counts.total += row.n;
  }
  return counts;
}

/** How many of the run's items are in each building (the buildings a run touched). */
export async function countBulkRunBuildings(
  db: Pick<Database, 'select'>,
  runId: string,
): Promise<{ buildingId: string; n: number }[]> {
  return db
    .select({ buildingId: bulkRunItems.buildingId, n: count() })
    .from(bulkRunItems)
    .where(eq(bulkRunItems.runId, runId))
    .groupBy(bulkRunItems.buildingId);
}

// --- The worker's side ------------------------------------------------------------------------

/**
 * Takes the run's lease for `owner` (or renews it), moving a queued run to running: the run
 * while it is unfinished, not held by another live lease and not waiting; null otherwise.
 */
export async function claimBulkRun(input: {
  runId: string;
  owner: string;
  leaseSeconds: number;
}): Promise<BulkRun | null> {
  const db = await getDb();
  const [run] = await db
    .update(bulkRuns)
    .set({
      leaseOwner: input.owner,
      leaseUntil: sql`now() + make_interval(secs => ${input.leaseSeconds})`,
      state: 'running',
      startedAt: sql`coalesce(${bulkRuns.startedAt}, now())`,
      notBefore: null,
    })
    .where(
      and(
        eq(bulkRuns.id, input.runId),
        inArray(bulkRuns.state, [...UNFINISHED]),
        or(
          isNull(bulkRuns.leaseUntil),
          sql`${bulkRuns.leaseUntil} < now()`,
          eq(bulkRuns.leaseOwner, input.owner),
        ),
        // A second of slack: the job that waited for this time may be woken a moment early.
        or(isNull(bulkRuns.notBefore), sql`${bulkRuns.notBefore} <= now() + interval '1 second'`),
      ),
    )
    .returning();
  return run ?? null;
}

/** Extends the lease; false when `owner` no longer holds it (or the run has finished). */
export async function renewBulkRunLease(input: {
  runId: string;
  owner: string;
  leaseSeconds: number;
}): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(bulkRuns)
    .set({ leaseUntil: sql`now() + make_interval(secs => ${input.leaseSeconds})` })
    .where(
      and(
        eq(bulkRuns.id, input.runId),
        eq(bulkRuns.leaseOwner, input.owner),
        inArray(bulkRuns.state, [...UNFINISHED]),
      ),
    )
    .returning({ id: bulkRuns.id });
  return rows.length === 1;
}

/** Gives the lease up, optionally saying why the run waits and until when. */
export async function releaseBulkRunLease(input: {
  runId: string;
  owner: string;
  notBefore?: Date;
  note?: string;
}): Promise<void> {
  const db = await getDb();
  await db
    .update(bulkRuns)
    .set({
      leaseOwner: null,
      leaseUntil: null,
      ...(input.notBefore ? { notBefore: input.notBefore } : {}),
      ...(input.note !== undefined ? { note: input.note } : {}),
    })
    .where(and(eq(bulkRuns.id, input.runId), eq(bulkRuns.leaseOwner, input.owner)));
}

/** What the worker checks between requests: has a cancel been asked for, is the lease still its. */
export async function readBulkRunControl(input: { runId: string }): Promise<{
  state: BulkRun['state'];
  cancelRequested: boolean;
  leaseOwner: string | null;
} | null> {
  const db = await getDb();
  const [row] = await db
    .select({
      state: bulkRuns.state,
      cancelRequestedAt: bulkRuns.cancelRequestedAt,
      leaseOwner: bulkRuns.leaseOwner,
    })
    .from(bulkRuns)
    .where(eq(bulkRuns.id, input.runId));
  return row
    ? {
        state: row.state,
        cancelRequested: row.cancelRequestedAt !== null,
        leaseOwner: row.leaseOwner,
      }
    : null;
}

/** The items still to be done, in selection order. */
export async function listPendingItems(input: {
  runId: string;
}): Promise<{ thermostatId: string; position: number; attempts: number }[]> {
  const db = await getDb();
  return db
    .select({
      thermostatId: bulkRunItems.thermostatId,
      position: bulkRunItems.position,
      attempts: bulkRunItems.attempts,
    })
    .from(bulkRunItems)
    .where(and(eq(bulkRunItems.runId, input.runId), eq(bulkRunItems.outcome, 'pending')))
    .orderBy(asc(bulkRunItems.position));
}

/**
 * Counts a request about to carry these items (those still pending) and returns them with the
 * number of requests that have now carried each. Done before the request, so that after a crash
 * the items of a request that was in flight are known to have perhaps been applied.
 */
export async function markItemsSent(input: {
  runId: string;
  thermostatIds: readonly string[];
  delta?: 1 | -1;
}): Promise<{ thermostatId: string; attempts: number }[]> {
  if (input.thermostatIds.length === 0) return [];
  const db = await getDb();
  return db
    .update(bulkRunItems)
    .set({ attempts: sql`${bulkRunItems.attempts} + ${input.delta ?? 1}` })
    .where(
      and(
        eq(bulkRunItems.runId, input.runId),
        inArray(bulkRunItems.thermostatId, [...input.thermostatIds]),
        eq(bulkRunItems.outcome, 'pending'),
      ),
    )
    .returning({ thermostatId: bulkRunItems.thermostatId, attempts: bulkRunItems.attempts });
}

/**
 * Records the results of one request, for the items still pending only, and adds them to the
 * run's counts, in one statement: an item's result is recorded once, whoever reports it again.
 * Returns how many were recorded.
 */
export async function recordItemResults(input: {
  runId: string;
  results: readonly ItemResult[];
}): Promise<number> {
  if (input.results.length === 0) return 0;
  const db = await getDb();
  const payload = JSON.stringify(
    input.results.map((r) => ({
      thermostat_id: r.thermostatId,
      outcome: r.outcome,
      detail: r.detail,
    })),
  );
  const result = await db.execute(sql`
    with given as (
      select * from jsonb_to_recordset(${payload}::jsonb)
        as x(thermostat_id text, outcome text, detail text)
    ),
    recorded as (
      update ${bulkRunItems} as item
      set outcome = given.outcome, detail = given.detail, finished_at = now()
      from given
      where item.run_id = ${input.runId}
        and item.thermostat_id = given.thermostat_id
        and item.outcome = 'pending'
      returning item.outcome
    )
    update ${bulkRuns}
    set applied = applied + (select count(*) from recorded where outcome = 'applied'),
        failed = failed + (select count(*) from recorded where outcome = 'failed')
    where id = ${input.runId}
    returning (select count(*) from recorded)::int as recorded
  `);
  return rowsOf<{ recorded: number }>(result)[0]?.recorded ?? 0;
}

/** What a run's one activity entry says, worked out from the run as it finished. */
export type RunEntry = {
  action: ActivityAction;
  summary: string;
  thermostatId: string | null;
  buildingId: string | null;
  changes: Record<string, unknown>;
  outcome: 'success' | 'failure';
  error: string | null;
};

export type FinishInput = {
  runId: string;
  state: 'done' | 'cancelled';
  /** What the items still pending become, and why. */
  rest: {
    outcome: 'not_sent' | 'cancelled' | 'failed';
    detail: string;
    /** For an item a request carried that never answered (Setpoint stopped meanwhile). */
    inFlightDetail?: string;
  };
  note?: string | null;
  /** The run's one activity entry, from the run as finished and the buildings it touched. */
  describe: (run: BulkRun, buildingIds: string[]) => RunEntry;
};

const COUNTER = {
  not_sent: bulkRuns.notSent,
  cancelled: bulkRuns.cancelled,
  failed: bulkRuns.failed,
} as const;
const COUNTER_KEY = { not_sent: 'notSent', cancelled: 'cancelled', failed: 'failed' } as const;

async function finishInTransaction(tx: Tx, input: FinishInput): Promise<BulkRun | null> {
  const [open] = await tx
    .select({ id: bulkRuns.id })
    .from(bulkRuns)
    .where(and(eq(bulkRuns.id, input.runId), inArray(bulkRuns.state, [...UNFINISHED])))
    .for('update');
  if (!open) return null;
  const { rest } = input;
  const left = await tx
    .update(bulkRunItems)
    .set({
      outcome: rest.outcome,
      detail: sql`case when ${bulkRunItems.attempts} > 0 then ${rest.inFlightDetail ?? rest.detail} else ${rest.detail} end`,
      finishedAt: sql`now()`,
    })
    .where(and(eq(bulkRunItems.runId, input.runId), eq(bulkRunItems.outcome, 'pending')))
    .returning({ thermostatId: bulkRunItems.thermostatId });
  const [run] = await tx
    .update(bulkRuns)
    .set({
      state: input.state,
      finishedAt: sql`now()`,
      leaseOwner: null,
      leaseUntil: null,
      notBefore: null,
      [COUNTER_KEY[rest.outcome]]: sql`${COUNTER[rest.outcome]} + ${left.length}`,
      ...(input.note !== undefined ? { note: input.note } : {}),
    })
    .where(eq(bulkRuns.id, input.runId))
    .returning();
  if (!run) throw new Error('bulk run vanished while finishing');
  const touched = await countBulkRunBuildings(tx, run.id);
  const entry = input.describe(
    run,
    touched.map((b) => b.buildingId),
  );
  await tx.insert(activityLog).values({
    orgId: run.orgId,
    userId: run.startedBy,
    actorName: run.startedByName,
    runId: run.id,
    ...entry,
  });
  return run;
}

/**
 * Finishes an unfinished run: its pending items take `rest`, the run its final state, and its one
 * activity entry is written, all in one transaction. Null when it had already finished.
 */
export async function finishBulkRun(input: FinishInput): Promise<BulkRun | null> {
  const db = await getDb();
  return db.transaction((tx) => finishInTransaction(tx, input));
}

/**
 * Asks for a run to stop. A queued run, or one no live worker holds, is cancelled at once;
 * otherwise its worker stops between requests (the ones in flight finish and are recorded).
 */
export async function requestBulkRunCancel(input: {
  orgId: string;
  runId: string;
  byName: string;
  finish: Omit<FinishInput, 'runId' | 'state'>;
}): Promise<'missing' | 'finished' | 'cancelled' | 'requested'> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [run] = await tx
      .select({
        state: bulkRuns.state,
        unheld: sql<boolean>`(${bulkRuns.leaseUntil} is null or ${bulkRuns.leaseUntil} < now())`,
      })
      .from(bulkRuns)
      .where(and(eq(bulkRuns.id, input.runId), eq(bulkRuns.orgId, input.orgId)))
      .for('update');
    if (!run) return 'missing';
    if (run.state === 'done' || run.state === 'cancelled') return 'finished';
    await tx
      .update(bulkRuns)
      .set({
        cancelRequestedAt: sql`coalesce(${bulkRuns.cancelRequestedAt}, now())`,
        cancelledByName: sql`coalesce(${bulkRuns.cancelledByName}, ${input.byName})`,
      })
      .where(eq(bulkRuns.id, input.runId));
    if (run.state === 'queued' || run.unheld) {
      await finishInTransaction(tx, { ...input.finish, runId: input.runId, state: 'cancelled' });
      return 'cancelled';
    }
    return 'requested';
  });
}

/** Unfinished runs, for the sweep that makes sure each has a worker. */
export async function listUnfinishedRuns(): Promise<
  {
    id: string;
    jobId: string | null;
    leaseLive: boolean;
    leaseUntil: Date | null;
    waiting: boolean;
  }[]
> {
  const db = await getDb();
  return db
    .select({
      id: bulkRuns.id,
      jobId: bulkRuns.jobId,
      leaseLive: sql<boolean>`coalesce(${bulkRuns.leaseUntil} >= now(), false)`,
      leaseUntil: bulkRuns.leaseUntil,
      waiting: sql<boolean>`coalesce(${bulkRuns.notBefore} > now(), false)`,
    })
    .from(bulkRuns)
    .where(inArray(bulkRuns.state, [...UNFINISHED]))
    .orderBy(asc(bulkRuns.createdAt));
}

/**
 * Drops every lease. Only for a process that knows no other worker can be alive: the embedded
 * database is opened by one process, so at its start every lease is a dead process's.
 */
export async function clearBulkRunLeases(): Promise<number> {
  const db = await getDb();
  const rows = await db
    .update(bulkRuns)
    .set({ leaseOwner: null, leaseUntil: null })
    .where(and(inArray(bulkRuns.state, [...UNFINISHED]), sql`${bulkRuns.leaseOwner} is not null`))
    .returning({ id: bulkRuns.id });
  return rows.length;
}

/** Notes the queue job now carrying the run. */
export async function setBulkRunJob(input: { runId: string; jobId: string }): Promise<void> {
  const db = await getDb();
  await db.update(bulkRuns).set({ jobId: input.jobId }).where(eq(bulkRuns.id, input.runId));
}
