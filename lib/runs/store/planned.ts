import 'server-only';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import type { Scope } from '@/lib/db/scope';
import { bulkRunItems, bulkRuns, type PLAN_STATES } from '@/lib/db/schema';
import { type BulkRun, type BulkRunItem, insertRun, itemsInView, type Tx } from './rows';

/**
 * A planned run (a template, a one-off change, an undo): created to be planned, each
 * thermostat's plan recorded once, planned and confirmed by a member, then applied a step at a
 * time.
 */

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
  /** The member who planned it; null for an API key. */
  startedBy: string | null;
  /** The API key that planned it, if one did. */
  startedByKey?: string | null;
  startedByName: string;
  kind: 'template' | 'undo';
  title: string;
  changes: Record<string, unknown>;
  templateId?: string | null;
  undoOf?: string | null;
  undoOfEntry?: number | null;
  items: readonly PlannedItemInput[];
}): Promise<BulkRun> {
  return insertRun(
    'planned run',
    {
      orgId: input.orgId,
      startedBy: input.startedBy,
      startedByKey: input.startedByKey ?? null,
      startedByName: input.startedByName,
      kind: input.kind,
      title: input.title,
      changes: input.changes,
      templateId: input.templateId ?? null,
      undoOf: input.undoOf ?? null,
      undoOfEntry: input.undoOfEntry ?? null,
      state: 'planning',
      total: input.items.length,
    },
    input.items.map((item) => ({
      thermostatId: item.thermostatId,
      buildingId: item.buildingId,
      planState: 'pending' as const,
      target: item.target ?? null,
      expected: item.expected ?? null,
    })),
  );
}

/**
 * Creates a one-thermostat run that plans as it goes (an occupancy run, lib/units/turnover/):
 * queued at once, in the caller's transaction, so that it exists exactly when the change that
 * asks for it does.
 */
export async function createSteppedRun(
  input: {
    orgId: string;
    startedBy: string | null;
    startedByName: string;
    kind: 'occupancy';
    title: string;
    changes: Record<string, unknown>;
    item: { thermostatId: string; buildingId: string };
  },
  tx: Tx,
): Promise<BulkRun> {
  return insertRun(
    'stepped run',
    {
      orgId: input.orgId,
      startedBy: input.startedBy,
      startedByName: input.startedByName,
      kind: input.kind,
      title: input.title,
      changes: input.changes,
      state: 'queued',
      total: 1,
    },
    [{ ...input.item, planState: 'pending' as const }],
    tx,
  );
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

/**
 * A one-thermostat run that plans as it goes (an occupancy run, lib/units/turnover/): its plan,
 * its steps with their results, and, once read, the state before it, while it is still pending.
 */
export async function recordItemProgress(input: {
  runId: string;
  thermostatId: string;
  plan: Record<string, unknown>;
  before?: Record<string, unknown>;
}): Promise<void> {
  const db = await getDb();
  await db
    .update(bulkRunItems)
    .set({
      planState: 'changes',
      plan: input.plan,
      ...(input.before ? { before: input.before } : {}),
    })
    .where(
      and(
        eq(bulkRunItems.runId, input.runId),
        eq(bulkRunItems.thermostatId, input.thermostatId),
        eq(bulkRunItems.outcome, 'pending'),
      ),
    );
}

/**
 * Every item's plan, in selection order (for the summary, and for undo); with `seenBy`, only
 * the items that member sees (a building manager's share of someone else's run).
 */
export async function listItemPlans(input: {
  runId: string;
  seenBy?: { scope: Scope; run: Pick<BulkRun, 'startedBy'> };
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
    .where(
      and(
        eq(bulkRunItems.runId, input.runId),
        input.seenBy ? itemsInView(input.seenBy.scope, input.seenBy.run) : undefined,
      ),
    )
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
