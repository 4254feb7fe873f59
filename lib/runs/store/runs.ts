import 'server-only';
import { and, asc, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { type Database, getDb } from '@/lib/db/client';
import type { Scope } from '@/lib/db/scope';
import {
  BULK_ITEM_OUTCOMES,
  buildings,
  bulkRunItems,
  bulkRuns,
  type PLAN_STATES,
  thermostats,
} from '@/lib/db/schema';
import { inBuildings } from '@/lib/db/scope';
import {
  type BulkItemOutcome,
  type BulkRun,
  type BulkRunItem,
  insertRun,
  itemsInView,
  type Tx,
  UNFINISHED,
  visibleRuns,
} from './rows';

/**
 * A run as members see it: created after the checks, found and listed within a scope, its items
 * a page at a time and counted. Every read here takes a scope.
 */

/** Creates a queued run with one pending item per thermostat, in selection order. */
export async function createBulkRun(input: {
  orgId: string;
  /** The member who started it; null for an API key or Setpoint itself. */
  startedBy: string | null;
  startedByName: string;
  changes: Record<string, unknown>;
  retryOf?: string | null;
  items: readonly { thermostatId: string; buildingId: string }[];
}): Promise<BulkRun> {
  return insertRun(
    'bulk run',
    {
      orgId: input.orgId,
      startedBy: input.startedBy,
      startedByName: input.startedByName,
      changes: input.changes,
      retryOf: input.retryOf ?? null,
      total: input.items.length,
    },
    input.items.map((item) => ({ thermostatId: item.thermostatId, buildingId: item.buildingId })),
  );
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

/**
 * A field of a run's changes as text, written out (not a parameter), so that the same expression
 * in SELECT DISTINCT ON and ORDER BY is one, and an index on it (0024) serves it. A name only.
 */
function changesField(key: string) {
  if (!/^[A-Za-z]+$/.test(key)) throw new Error(`not a field name: ${key}`);
  return sql<string>`(${bulkRuns.changes} ->> ${sql.raw(`'${key}'`)})`;
}

/** The unfinished runs of this kind on this subject (its changes' `key` field, such as a unit). */
function unfinishedOn(input: {
  orgId: string;
  kind: BulkRun['kind'];
  key: string;
  subject: string;
}) {
  return and(
    eq(bulkRuns.orgId, input.orgId),
    eq(bulkRuns.kind, input.kind),
    inArray(bulkRuns.state, [...UNFINISHED]),
    sql`${changesField(input.key)} = ${input.subject}`,
  );
}

/** The runs of this kind on this subject, newest first: a unit's occupancy runs, for its page. */
export async function listRunsOn(input: {
  orgId: string;
  kind: BulkRun['kind'];
  key: string;
  subject: string;
  limit?: number;
}): Promise<BulkRun[]> {
  const db = await getDb();
  return db
    .select()
    .from(bulkRuns)
    .where(
      and(
        eq(bulkRuns.orgId, input.orgId),
        eq(bulkRuns.kind, input.kind),
        sql`${changesField(input.key)} = ${input.subject}`,
      ),
    )
    .orderBy(desc(bulkRuns.createdAt), desc(bulkRuns.id))
    .limit(input.limit ?? 20);
}

/**
 * Whether a run of this kind on this subject (its changes' `key` field, such as an occupancy
 * run's unit) has yet to finish; with `before`, only one started before that run (which then
 * waits for it).
 */
export async function hasUnfinishedRun(input: {
  orgId: string;
  kind: BulkRun['kind'];
  key: string;
  subject: string;
  before?: Pick<BulkRun, 'id' | 'createdAt'>;
}): Promise<boolean> {
  const { before } = input;
  const db = await getDb();
  const [found] = await db
    .select({ id: bulkRuns.id })
    .from(bulkRuns)
    .where(
      and(
        unfinishedOn(input),
        before
          ? sql`(${bulkRuns.createdAt}, ${bulkRuns.id}) < (${before.createdAt.toISOString()}::timestamptz, ${before.id}::uuid)`
          : undefined,
      ),
    )
    .limit(1);
  return found !== undefined;
}

/**
 * Asks every unfinished run of this kind on this subject that has sent nothing yet to stop, in
 * the caller's transaction (a later change of the same unit supersedes it): the engine cancels
 * it before its first call. One that has begun (a turnover that turned resident mode off) is left
 * to finish; the later run waits for it. Returns how many were asked.
 */
export async function supersedeRuns(
  tx: Tx,
  input: { orgId: string; kind: BulkRun['kind']; key: string; subject: string; byName: string },
): Promise<number> {
  const asked = await tx
    .update(bulkRuns)
    .set({
      cancelRequestedAt: sql`coalesce(${bulkRuns.cancelRequestedAt}, now())`,
      cancelledByName: sql`coalesce(${bulkRuns.cancelledByName}, ${input.byName})`,
    })
    .where(
      and(
        unfinishedOn(input),
        sql`not exists (select 1 from ${bulkRunItems} where ${bulkRunItems.runId} = ${bulkRuns.id}
          and (${bulkRunItems.doneOps} > 0 or ${bulkRunItems.attempts} > 0))`,
      ),
    )
    .returning({ id: bulkRuns.id });
  return asked.length;
}

/**
 * When each thermostat was last changed by a run of another kind than `except` (a bulk change, a
 * template, an undo): its latest applied item's end. One query for a list of thermostats.
 */
export async function lastAppliedBy(input: {
  orgId: string;
  thermostatIds: readonly string[];
  except: BulkRun['kind'];
}): Promise<Map<string, Date>> {
  if (input.thermostatIds.length === 0) return new Map();
  const db = await getDb();
  const rows = await db
    .select({
      thermostatId: bulkRunItems.thermostatId,
      at: sql<string>`max(${bulkRunItems.finishedAt})`,
    })
    .from(bulkRunItems)
    .innerJoin(bulkRuns, eq(bulkRuns.id, bulkRunItems.runId))
    .where(
      and(
        eq(bulkRuns.orgId, input.orgId),
        sql`${bulkRuns.kind} <> ${input.except}`,
        inArray(bulkRunItems.thermostatId, [...input.thermostatIds]),
        eq(bulkRunItems.outcome, 'applied'),
      ),
    )
    .groupBy(bulkRunItems.thermostatId);
  return new Map(rows.flatMap((row) => (row.at ? [[row.thermostatId, new Date(row.at)]] : [])));
}

/** The latest run of a kind on a subject, with how its one thermostat came out. */
export type LatestRun = {
  subject: string;
  runId: string;
  state: BulkRun['state'];
  changes: Record<string, unknown>;
  createdAt: Date;
  finishedAt: Date | null;
  thermostatId: string;
  outcome: BulkItemOutcome;
  detail: string;
};

/**
 * Each subject's latest run of a one-thermostat kind (an occupancy run's unit, by its changes'
 * `key` field), with its thermostat's outcome: one query for a whole list of units.
 */
export async function listLatestRuns(input: {
  orgId: string;
  kind: BulkRun['kind'];
  key: string;
  subjects: readonly string[];
}): Promise<Map<string, LatestRun>> {
  if (input.subjects.length === 0) return new Map();
  const db = await getDb();
  const subject = changesField(input.key);
  const rows = await db
    .selectDistinctOn([subject], {
      subject,
      runId: bulkRuns.id,
      state: bulkRuns.state,
      changes: bulkRuns.changes,
      createdAt: bulkRuns.createdAt,
      finishedAt: bulkRuns.finishedAt,
      thermostatId: bulkRunItems.thermostatId,
      outcome: bulkRunItems.outcome,
      detail: bulkRunItems.detail,
    })
    .from(bulkRuns)
    .innerJoin(bulkRunItems, eq(bulkRunItems.runId, bulkRuns.id))
    .where(
      and(
        eq(bulkRuns.orgId, input.orgId),
        eq(bulkRuns.kind, input.kind),
        inArray(subject, [...input.subjects]),
      ),
    )
    .orderBy(subject, desc(bulkRuns.createdAt), desc(bulkRuns.id));
  return new Map(rows.map((row) => [row.subject, row]));
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
