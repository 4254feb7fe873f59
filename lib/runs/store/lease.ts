import 'server-only';
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { ActivityAction } from '@/lib/activity/actions';
import { getDb, rowsOf } from '@/lib/db/client';
import { activityLog, bulkRunItems, bulkRuns } from '@/lib/db/schema';
import { type BulkRun, CANCELLABLE, type ItemResult, type Tx, UNFINISHED } from './rows';
import { countBulkRunBuildings } from './runs';

/**
 * The worker's side of a run: its lease (one worker at a time), the items still to send, each
 * thermostat's result recorded once, and the run's end with its one activity entry; a member's
 * cancel, and the sweep's list of unfinished runs. The worker's writes take the run's id, which
 * it got from a run created after the checks.
 */

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
