import 'server-only';
import { and, asc, eq, sql } from 'drizzle-orm';
import { type BulkRun, type BulkRunItem, itemsInView, mayHaveChanged } from '@/lib/runs/store';
import { getDb, rowsOf } from '@/lib/db/client';
import type { Scope } from '@/lib/db/scope';
import {
  bulkRunItems,
  bulkRuns,
  templateAssignments,
  templates,
  thermostats,
} from '@/lib/db/schema';

/**
 * What only planned runs (template, one-off, undo) ask of the runs' tables: the template a run
 * assigns for drift, what an undo can put back, and the locks a run last set.
 */

/**
 * After a template run: every thermostat it applied to, or found already matching, is now
 * assigned that template (for drift), replacing any earlier assignment.
 */
export async function assignTemplate(input: { runId: string; templateId: string }): Promise<void> {
  const db = await getDb();
  await db.execute(sql`
    insert into ${templateAssignments} (org_id, thermostat_id, template_id, run_id, assigned_at, checked_at, drift)
    select run.org_id, item.thermostat_id, ${input.templateId}, run.id, now(), now(), null
    from ${bulkRunItems} as item
    join ${bulkRuns} as run on run.id = item.run_id
    join ${thermostats} as t on t.org_id = run.org_id and t.thermostat_id = item.thermostat_id
    where item.run_id = ${input.runId} and item.outcome in ('applied', 'unchanged')
      and exists (select 1 from ${templates} where ${templates.id} = ${input.templateId})
    on conflict (org_id, thermostat_id) do update
      set template_id = excluded.template_id, run_id = excluded.run_id,
          assigned_at = excluded.assigned_at, checked_at = excluded.checked_at, drift = null
  `);
}

/**
 * The items of a finished planned run that the scope sees (as `listBulkRunItems` decides) and
 * that may have changed something: applied, failed after some of their operations, or stopped
 * with an operation in flight. `mayHaveDone` counts that one too: it may have been applied.
 */
export async function listUndoableItems(input: {
  scope: Scope;
  run: Pick<BulkRun, 'id' | 'startedBy'>;
}): Promise<
  (Pick<BulkRunItem, 'thermostatId' | 'buildingId' | 'plan' | 'before' | 'target'> & {
    mayHaveDone: number;
  })[]
> {
  const db = await getDb();
  return db
    .select({
      thermostatId: bulkRunItems.thermostatId,
      buildingId: bulkRunItems.buildingId,
      plan: bulkRunItems.plan,
      before: bulkRunItems.before,
      target: bulkRunItems.target,
      mayHaveDone: sql<number>`(${bulkRunItems.doneOps} + case when ${bulkRunItems.attempts} > 0 then 1 else 0 end)::int`,
    })
    .from(bulkRunItems)
    .where(
      and(
        eq(bulkRunItems.runId, input.run.id),
        itemsInView(input.scope, input.run),
        mayHaveChanged,
      ),
    )
    .orderBy(asc(bulkRunItems.position));
}

/**
 * The locks a template or an undo run last set on a thermostat (its access-control operation
 * applied, or resident mode turned off, which resets them), for what Setpoint knows of access
 * control, which the service cannot read.
 */
export async function findLastRunLocks(input: {
  orgId: string;
  thermostatId: string;
}): Promise<{ at: Date; actorName: string; changes: Record<string, unknown> } | null> {
  const db = await getDb();
  const result = await db.execute(sql`
    select item.finished_at as at, run.started_by_name as actor_name, op.value as changes
    from ${bulkRunItems} as item
    join ${bulkRuns} as run on run.id = item.run_id
    cross join lateral jsonb_array_elements(item.plan -> 'operations') with ordinality as op(value, n)
    where run.org_id = ${input.orgId}
      and item.thermostat_id = ${input.thermostatId}
      and item.finished_at is not null
      and (
        op.value ->> 'kind' = 'accessControl'
        -- Turning resident mode off reset access control: off, no locks (its changes say no more).
        or (op.value ->> 'kind' = 'residentMode'
          and op.value -> 'changes' ->> 'isResidentMode' = 'false')
      )
      and op.n <= item.done_ops
    order by item.finished_at desc
    limit 1
  `);
  const [row] = rowsOf<{ at: Date | string; actor_name: string; changes: { changes?: unknown } }>(
    result,
  );
  if (!row) return null;
  const changes = row.changes.changes;
  return {
    at: new Date(row.at),
    actorName: row.actor_name,
    changes: changes && typeof changes === 'object' ? (changes as Record<string, unknown>) : {},
  };
}
