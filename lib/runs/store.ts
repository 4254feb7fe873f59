import 'server-only';
import { and, asc, count, desc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { ActivityAction } from '@/lib/activity/actions';
import { type Database, getDb, rowsOf } from '@/lib/db/client';
import type { Scope } from '@/lib/db/scope';
import {
  activityLog,
  BULK_ITEM_OUTCOMES,
  buildings,
  bulkRunItems,
  bulkRuns,
  type PLAN_STATES,
  thermostats,
} from '@/lib/db/schema';
import { inBuildings } from '@/lib/db/scope';

/**
 * Runs of every kind (a configuration change, a template, a one-off change, an undo) and their
 * items: what a run is to do, what each thermostat's request came to, and the lease that lets one
 * worker at a time apply it. Every read takes a scope; the worker's writes take the run's id,
 * which it got from a run created after the checks. (The tables keep their first name,
 * `bulk_runs`: no migration for a word.)
 */

export type BulkRun = typeof bulkRuns.$inferSelect;
export type BulkRunItem = typeof bulkRunItems.$inferSelect;
export type BulkItemOutcome = (typeof BULK_ITEM_OUTCOMES)[number];
export type FinalOutcome = Exclude<BulkItemOutcome, 'pending'>;
export type ItemResult = {
  thermostatId: string;
  outcome: 'applied' | 'failed' | 'unconfirmed';
  detail: string;
};

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Runs a worker has to take up: planning, or applying. A `planned` run waits for a member. */
const UNFINISHED = ['planning', 'queued', 'running'] as const;
/** Runs a cancel still stops (a planned one is discarded). */
const CANCELLABLE = [...UNFINISHED, 'planned'] as const;
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

/**
 * A run as a scope sees it. Where the scope sees only part of it (a building manager, someone
 * else's run), its counts (`total`, `applied`, `failed`, `notSent`, `cancelled`) are those of the
 * items in view only, never the whole run's, and its plan's summary only the counts below (each
 * kind of run that plans summarises the plans in view itself: lib/templates/run-store.ts);
 * `partView` says so.
 */
export type RunInView = BulkRun & { partView: boolean };

/**
 * How many of the thermostats in view a plan changes, leaves unchanged or cannot change (those
 * not planned among them: nothing is sent to them either).
 */
export type PlanCounts = {
  thermostats: number;
  changing: number;
  unchanged: number;
  blocked: number;
};

function planCounts(
  rows: readonly { state: (typeof PLAN_STATES)[number] | null; n: number }[],
): PlanCounts {
  const n = (state: (typeof PLAN_STATES)[number]) =>
    rows.find((row) => row.state === state)?.n ?? 0;
  const thermostats = rows.reduce((sum, row) => sum + row.n, 0);
  const [changing, unchanged] = [n('changes'), n('unchanged')];
  return { thermostats, changing, unchanged, blocked: thermostats - changing - unchanged };
}

async function inView(scope: Scope, runs: readonly BulkRun[]): Promise<RunInView[]> {
  const part = runs.filter((run) => itemsInView(scope, run) !== undefined);
  if (part.length === 0) return runs.map((run) => ({ ...run, partView: false }));
  const db = await getDb();
  const inScope = inBuildings(bulkRunItems.buildingId, scope);
  const counted = await db
    .select({ runId: bulkRunItems.runId, outcome: bulkRunItems.outcome, n: count() })
    .from(bulkRunItems)
    .where(
      and(
        inArray(
          bulkRunItems.runId,
          part.map((run) => run.id),
        ),
        inScope,
      ),
    )
    .groupBy(bulkRunItems.runId, bulkRunItems.outcome);
  const planned = part.filter((run) => run.planSummary !== null).map((run) => run.id);
  const states =
    planned.length === 0
      ? []
      : await db
          .select({ runId: bulkRunItems.runId, state: bulkRunItems.planState, n: count() })
          .from(bulkRunItems)
          .where(and(inArray(bulkRunItems.runId, planned), inScope))
          .groupBy(bulkRunItems.runId, bulkRunItems.planState);
  const partIds = new Set(part.map((run) => run.id));
  return runs.map((run) => {
    if (!partIds.has(run.id)) return { ...run, partView: false };
    const mine = counted.filter((row) => row.runId === run.id);
    const n = (outcome: BulkItemOutcome) => mine.find((row) => row.outcome === outcome)?.n ?? 0;
    return {
      ...run,
      total: mine.reduce((sum, row) => sum + row.n, 0),
      applied: n('applied'),
      failed: n('failed') + n('unconfirmed'),
      unconfirmed: n('unconfirmed'),
      notSent: n('not_sent'),
      cancelled: n('cancelled'),
      planSummary:
        run.planSummary === null ? null : planCounts(states.filter((row) => row.runId === run.id)),
      partView: true,
    };
  });
}

export async function findBulkRun(input: {
  scope: Scope;
  runId: string;
}): Promise<RunInView | null> {
  const db = await getDb();
  const [run] = await db
    .select()
    .from(bulkRuns)
    .where(and(eq(bulkRuns.id, input.runId), visibleRuns(input.scope)));
  if (!run) return null;
  const [seen] = await inView(input.scope, [run]);
  return seen ?? null;
}

/** The scope's runs, newest first, each as the scope sees it. */
export async function listBulkRuns(input: {
  scope: Scope;
  /** Only the retries of this run. */
  retryOf?: string;
  limit?: number;
}): Promise<RunInView[]> {
  const db = await getDb();
  const runs = await db
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
  return inView(input.scope, runs);
}

/** The runs with these ids that the scope may see, as it sees them (for activity entries). */
export async function listBulkRunsById(input: {
  scope: Scope;
  runIds: string[];
}): Promise<RunInView[]> {
  if (input.runIds.length === 0) return [];
  const db = await getDb();
  const runs = await db
    .select()
    .from(bulkRuns)
    .where(and(inArray(bulkRuns.id, input.runIds), visibleRuns(input.scope)));
  return inView(input.scope, runs);
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

/**
 * The buildings of each run's thermostats that the scope sees (the items `itemsInView` allows):
 * for a building manager's share of someone else's run, only their buildings.
 */
export async function listRunBuildingsInView(input: {
  scope: Scope;
  runs: readonly Pick<BulkRun, 'id' | 'startedBy'>[];
}): Promise<Map<string, string[]>> {
  const buildingsOf = new Map<string, string[]>(input.runs.map((run) => [run.id, []]));
  if (input.runs.length === 0) return buildingsOf;
  const whole = input.runs.filter((run) => itemsInView(input.scope, run) === undefined);
  const part = input.runs.filter((run) => itemsInView(input.scope, run) !== undefined);
  const db = await getDb();
  const rows = await db
    .selectDistinct({ runId: bulkRunItems.runId, buildingId: bulkRunItems.buildingId })
    .from(bulkRunItems)
    .where(
      or(
        whole.length > 0
          ? inArray(
              bulkRunItems.runId,
              whole.map((run) => run.id),
            )
          : undefined,
        part.length > 0
          ? and(
              inArray(
                bulkRunItems.runId,
                part.map((run) => run.id),
              ),
              inBuildings(bulkRunItems.buildingId, input.scope),
            )
          : undefined,
      ),
    )
    .orderBy(asc(bulkRunItems.buildingId));
  for (const row of rows) buildingsOf.get(row.runId)?.push(row.buildingId);
  return buildingsOf;
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
      // A run being planned stays `planning`: applying it waits for a member's confirmation.
      state: sql`case when ${bulkRuns.state} = 'planning' then 'planning' else 'running' end`,
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

/**
 * Extends the lease: not held when `owner` no longer holds it (or the run has finished), and
 * whether a cancel has been asked for meanwhile.
 */
export async function renewBulkRunLease(input: {
  runId: string;
  owner: string;
  leaseSeconds: number;
}): Promise<{ held: boolean; cancelRequested: boolean }> {
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
    .returning({ cancelRequestedAt: bulkRuns.cancelRequestedAt });
  const [row] = rows;
  return { held: row !== undefined, cancelRequested: row?.cancelRequestedAt != null };
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

export type PendingItem = {
  thermostatId: string;
  position: number;
  attempts: number;
  /** Planned runs only (null on a configuration run): the plan and how far it got. */
  plan: Record<string, unknown> | null;
  doneOps: number;
  created: Record<string, string> | null;
};

/** The items still to be done, in selection order. */
export async function listPendingItems(input: { runId: string }): Promise<PendingItem[]> {
  const db = await getDb();
  return db
    .select({
      thermostatId: bulkRunItems.thermostatId,
      position: bulkRunItems.position,
      attempts: bulkRunItems.attempts,
      plan: bulkRunItems.plan,
      doneOps: bulkRunItems.doneOps,
      created: bulkRunItems.created,
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
        failed = failed + (select count(*) from recorded where outcome in ('failed', 'unconfirmed')),
        unconfirmed = unconfirmed + (select count(*) from recorded where outcome = 'unconfirmed')
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
  /** `unconfirmed`: every thermostat that did not certainly apply may have been applied. */
  outcome: 'success' | 'failure' | 'unconfirmed';
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
    .where(and(eq(bulkRuns.id, input.runId), inArray(bulkRuns.state, [...CANCELLABLE])))
    .for('update');
  if (!open) return null;
  const { rest } = input;
  const left = await tx
    .update(bulkRunItems)
    .set({
      outcome: rest.outcome,
      // A planned run's thermostat may be part way through its changes (`done_ops`).
      detail: sql`case
        when ${bulkRunItems.doneOps} > 0 and ${bulkRunItems.attempts} > 0 then 'Partly applied: ' || ${bulkRunItems.doneOps} || ' of its changes were made before the run stopped, and the next may have been too (it was in flight when Setpoint stopped); the rest not sent. Undo puts them back.'
        when ${bulkRunItems.doneOps} > 0 then 'Partly applied: ' || ${bulkRunItems.doneOps} || ' of its changes were made before the run stopped, the rest not sent. Undo puts them back.'
        when ${bulkRunItems.attempts} > 0 then ${rest.inFlightDetail ?? rest.detail}
        else ${rest.detail} end`,
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

// --- Planned runs (templates, undo) -----------------------------------------------------------

export type PlannedItemInput = {
  thermostatId: string;
  buildingId: string;
  /** An undo's own target for this thermostat (a template run's items share the run's). */
  target?: Record<string, unknown> | null;
  expected?: Record<string, unknown> | null;
};

/** Creates a run that is planned first: `planning`, every item's plan still to make. */
export async function createPlannedRun(input: {
  orgId: string;
  startedBy: string;
  startedByName: string;
  kind: 'template' | 'undo';
  title: string;
  changes: Record<string, unknown>;
  templateId?: string | null;
  undoOf?: string | null;
  undoOfEntry?: number | null;
  items: readonly PlannedItemInput[];
}): Promise<BulkRun> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [run] = await tx
      .insert(bulkRuns)
      .values({
        orgId: input.orgId,
        startedBy: input.startedBy,
        startedByName: input.startedByName,
        kind: input.kind,
        title: input.title,
        changes: input.changes,
        templateId: input.templateId ?? null,
        undoOf: input.undoOf ?? null,
        undoOfEntry: input.undoOfEntry ?? null,
        state: 'planning',
        total: input.items.length,
      })
      .returning();
    if (!run) throw new Error('planned run insert returned no row');
    for (let start = 0; start < input.items.length; start += INSERT_BATCH) {
      await tx.insert(bulkRunItems).values(
        input.items.slice(start, start + INSERT_BATCH).map((item, index) => ({
          runId: run.id,
          position: start + index,
          thermostatId: item.thermostatId,
          buildingId: item.buildingId,
          planState: 'pending' as const,
          target: item.target ?? null,
          expected: item.expected ?? null,
        })),
      );
    }
    return run;
  });
}

/** The items of a planning run still to read and plan, in selection order. */
export async function listItemsToPlan(input: { runId: string }): Promise<
  {
    thermostatId: string;
    position: number;
    target: Record<string, unknown> | null;
    expected: Record<string, unknown> | null;
  }[]
> {
  const db = await getDb();
  return db
    .select({
      thermostatId: bulkRunItems.thermostatId,
      position: bulkRunItems.position,
      target: bulkRunItems.target,
      expected: bulkRunItems.expected,
    })
    .from(bulkRunItems)
    .where(and(eq(bulkRunItems.runId, input.runId), eq(bulkRunItems.planState, 'pending')))
    .orderBy(asc(bulkRunItems.position));
}

/** Records one thermostat's plan (once: only while its plan is still to make). */
export async function recordItemPlan(input: {
  runId: string;
  thermostatId: string;
  planState: 'changes' | 'unchanged' | 'blocked';
  before: Record<string, unknown> | null;
  plan: Record<string, unknown>;
  warning: string | null;
}): Promise<void> {
  const db = await getDb();
  await db
    .update(bulkRunItems)
    .set({
      planState: input.planState,
      before: input.before,
      plan: input.plan,
      warning: input.warning,
    })
    .where(
      and(
        eq(bulkRunItems.runId, input.runId),
        eq(bulkRunItems.thermostatId, input.thermostatId),
        eq(bulkRunItems.planState, 'pending'),
      ),
    );
}

/** Every item's plan, in selection order (for the summary, and for undo). */
export async function listItemPlans(input: {
  runId: string;
}): Promise<
  Pick<
    BulkRunItem,
    | 'thermostatId'
    | 'buildingId'
    | 'planState'
    | 'plan'
    | 'before'
    | 'target'
    | 'outcome'
    | 'doneOps'
    | 'created'
  >[]
> {
  const db = await getDb();
  return db
    .select({
      thermostatId: bulkRunItems.thermostatId,
      buildingId: bulkRunItems.buildingId,
      planState: bulkRunItems.planState,
      plan: bulkRunItems.plan,
      before: bulkRunItems.before,
      target: bulkRunItems.target,
      outcome: bulkRunItems.outcome,
      doneOps: bulkRunItems.doneOps,
      created: bulkRunItems.created,
    })
    .from(bulkRunItems)
    .where(eq(bulkRunItems.runId, input.runId))
    .orderBy(asc(bulkRunItems.position));
}

/** A planning run is planned: its summary is stored and it waits for a member to apply it. */
export async function finishPlanning(input: {
  runId: string;
  owner: string;
  summary: Record<string, unknown>;
}): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(bulkRuns)
    .set({
      state: 'planned',
      planSummary: input.summary,
      plannedAt: sql`now()`,
      leaseOwner: null,
      leaseUntil: null,
      notBefore: null,
      note: null,
    })
    .where(
      and(
        eq(bulkRuns.id, input.runId),
        eq(bulkRuns.state, 'planning'),
        eq(bulkRuns.leaseOwner, input.owner),
        isNull(bulkRuns.cancelRequestedAt),
      ),
    )
    .returning({ id: bulkRuns.id });
  return rows.length === 1;
}

/**
 * A member confirmed a planned run: the thermostats already matching are recorded unchanged, the
 * blocked ones blocked (with the plan's reason), and the run is queued to apply the rest. False
 * when it was no longer waiting (applied or discarded meanwhile).
 */
export async function confirmPlannedRun(input: {
  orgId: string;
  runId: string;
  /** A passcode was entered for the run (the passcode itself is never stored: only that fact). */
  passcodeEntered?: boolean;
}): Promise<boolean> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [run] = await tx
      .update(bulkRuns)
      .set({
        state: 'queued',
        ...(input.passcodeEntered
          ? { changes: sql`${bulkRuns.changes} || '{"passcodeEntered": true}'::jsonb` }
          : {}),
      })
      .where(
        and(
          eq(bulkRuns.id, input.runId),
          eq(bulkRuns.orgId, input.orgId),
          eq(bulkRuns.state, 'planned'),
        ),
      )
      .returning({ id: bulkRuns.id });
    if (!run) return false;
    await tx
      .update(bulkRunItems)
      .set({
        outcome: sql`case when ${bulkRunItems.planState} = 'unchanged' then 'unchanged' else 'blocked' end`,
        detail: sql`case when ${bulkRunItems.planState} = 'unchanged' then 'Already as planned; nothing sent.' else coalesce(${bulkRunItems.plan} -> 'problems' ->> 0, 'Could not be planned.') end`,
        finishedAt: sql`now()`,
      })
      .where(
        and(
          eq(bulkRunItems.runId, input.runId),
          inArray(bulkRunItems.planState, ['unchanged', 'blocked']),
          eq(bulkRunItems.outcome, 'pending'),
        ),
      );
    return true;
  });
}

/**
 * Records that the first `doneOps` operations of a thermostat's plan have been applied (and the
 * refs of the comfort settings created so far), while it is still pending.
 */
export async function recordItemSteps(input: {
  runId: string;
  thermostatIds: readonly string[];
  doneOps: number;
  created?: Record<string, string>;
}): Promise<void> {
  if (input.thermostatIds.length === 0) return;
  const db = await getDb();
  await db
    .update(bulkRunItems)
    .set({
      // Never backwards: a worker whose lease ran out unnoticed may report an older step.
      doneOps: sql`greatest(${bulkRunItems.doneOps}, ${input.doneOps})`,
      // A planned item's `attempts` count the calls carrying its next operation: a new one now.
      attempts: sql`case when ${bulkRunItems.doneOps} < ${input.doneOps} then 0 else ${bulkRunItems.attempts} end`,
      ...(input.created ? { created: input.created } : {}),
    })
    .where(
      and(
        eq(bulkRunItems.runId, input.runId),
        inArray(bulkRunItems.thermostatId, [...input.thermostatIds]),
        eq(bulkRunItems.outcome, 'pending'),
      ),
    );
}

/** A planned item that may have changed something: an operation applied, or one in flight. */
export const mayHaveChanged = sql`(${bulkRunItems.doneOps} > 0 or ${bulkRunItems.attempts} > 0)`;

/** How many of a planned run's items the scope sees, by where planning left them. */
export async function countPlanStates(input: {
  scope: Scope;
  run: Pick<BulkRun, 'id' | 'startedBy'>;
}): Promise<
  Record<(typeof PLAN_STATES)[number], number> & {
    warnings: number;
    /** Thermostats at least one of whose changes was made, or may have been (what an undo can put back). */
    changed: number;
  }
> {
  const db = await getDb();
  const rows = await db
    .select({
      state: bulkRunItems.planState,
      n: count(),
      warnings: sql<number>`count(${bulkRunItems.warning})::int`,
      changed: sql<number>`count(*) filter (where ${mayHaveChanged})::int`,
    })
    .from(bulkRunItems)
    .where(and(eq(bulkRunItems.runId, input.run.id), itemsInView(input.scope, input.run)))
    .groupBy(bulkRunItems.planState);
  const counts = { pending: 0, changes: 0, unchanged: 0, blocked: 0, warnings: 0, changed: 0 };
  for (const row of rows) {
    if (row.state) counts[row.state] = row.n;
    counts.warnings += Number(row.warnings);
    counts.changed += Number(row.changed);
  }
  return counts;
}
