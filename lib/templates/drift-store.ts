import 'server-only';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DriftWords } from './drift-words';
import { getDb, rowsOf } from '@/lib/db/client';
import type { Scope } from '@/lib/db/scope';
import { templateAssignments, templates, thermostats } from '@/lib/db/schema';
import { inBuildings } from '@/lib/db/scope';

/**
 * Drift: whether a thermostat still matches the template a run last applied to it (or found it
 * matching), as `template_assignments` keeps it. The check job (lib/templates/drift.ts) takes the
 * assignments due for a check, of every connected organisation, and stores what it found; the
 * needs-attention page lists those that differ, in the member's scope.
 */

/** An assignment's thermostat (a join's condition): its portfolio row, of its building. */
const assignedThermostat = and(
  eq(thermostats.orgId, templateAssignments.orgId),
  eq(thermostats.thermostatId, templateAssignments.thermostatId),
);

/** The assignments of thermostats in the member's scope (with `assignedThermostat` joined). */
const assignmentsInScope = (scope: Scope) =>
  and(eq(templateAssignments.orgId, scope.orgId), inBuildings(thermostats.buildingId, scope));

/** An assignment due for a check: its key, and which assignment it was (a newer run replaces it). */
export type DueDriftCheck = {
  orgId: string;
  thermostatId: string;
  templateId: string;
  /**
   * When it was assigned, as the database's own text: exact to the microsecond, which a
   * JavaScript date is not, so the check's result lands only on the assignment it read.
   */
  assignedAt: string;
};

/**
 * Assignments, of every organisation whose connection is active, not checked for `checkEvery`:
 * the longest unchecked first. At most `limit`.
 */
export async function listDueDriftChecks(input: {
  now?: Date;
  checkEvery: number;
  limit: number;
}): Promise<DueDriftCheck[]> {
  if (input.limit <= 0) return [];
  const db = await getDb();
  const before = new Date((input.now ?? new Date()).getTime() - input.checkEvery).toISOString();
  const result = await db.execute(sql`
    select a.org_id as "orgId", a.thermostat_id as "thermostatId",
      a.template_id as "templateId", a.assigned_at::text as "assignedAt"
    from template_assignments a
    join service_connections c on c.org_id = a.org_id and c.status = 'active'
    where a.checked_at is null or a.checked_at < ${before}::timestamptz
    order by a.checked_at asc nulls first, a.assigned_at asc
    limit ${input.limit}`);
  return rowsOf<DueDriftCheck>(result);
}

/**
 * Keeps what a check found: what differs from the template in words in each unit, or null when
 * it matches. When it already differed, it keeps when that was first found. Only for the
 * assignment that was checked: one a newer run made meanwhile is left alone.
 */
export async function saveDriftCheck(
  input: DueDriftCheck & { drift: DriftWords | null; at?: Date },
): Promise<void> {
  const db = await getDb();
  const at = input.at ?? new Date();
  // A list kept before drift had its moment (a JSON array) has no 'foundAt': found now, then.
  const drift =
    input.drift === null
      ? null
      : sql`jsonb_build_object(
          'foundAt', coalesce(${templateAssignments.drift} -> 'foundAt',
            to_jsonb(${at.toISOString()}::text)),
          'lines', ${JSON.stringify({ F: input.drift.F, C: input.drift.C })}::jsonb)`;
  await db.update(templateAssignments).set({ checkedAt: at, drift }).where(sameAssignment(input));
}

/**
 * A check whose read failed: the last drift found stays (nothing new is known), and the
 * assignment waits its turn again, so a thermostat that stays offline never holds up the rest.
 */
export async function saveDriftFailure(input: DueDriftCheck & { at?: Date }): Promise<void> {
  const db = await getDb();
  await db
    .update(templateAssignments)
    .set({ checkedAt: input.at ?? new Date() })
    .where(sameAssignment(input));
}

const sameAssignment = (input: DueDriftCheck) =>
  and(
    eq(templateAssignments.orgId, input.orgId),
    eq(templateAssignments.thermostatId, input.thermostatId),
    eq(templateAssignments.templateId, input.templateId),
    sql`${templateAssignments.assignedAt} = ${input.assignedAt}::timestamptz`,
  );

/** A thermostat in scope that differs from its template. */
export type DriftRow = {
  thermostatId: string;
  buildingId: string;
  templateId: string;
  templateName: string;
  differs: DriftWords;
  /** When a check first found it differing; null for a drift kept before that was recorded. */
  since: Date | null;
};

const linesSchema = z.array(z.string());
const storedDriftSchema = z.union([
  z.object({
    foundAt: z.iso.datetime({ offset: true }),
    lines: z.object({ F: linesSchema, C: linesSchema }),
  }),
  // Kept before drift was kept in each unit: lines in °F, all there is until the next check.
  linesSchema.transform((lines) => ({ foundAt: null, lines: { F: lines, C: lines } })),
]);

/** A stored drift as its words in each unit and when it was found; null when nothing differs. */
function readDrift(stored: unknown): { differs: DriftWords; since: Date | null } | null {
  const parsed = storedDriftSchema.safeParse(stored);
  if (!parsed.success || parsed.data.lines.F.length === 0) return null;
  const { foundAt, lines } = parsed.data;
  return { differs: lines, since: foundAt ? new Date(foundAt) : null };
}

/** The thermostats in scope (by the building each is in now) that differ from their template. */
export async function listDrift(input: { scope: Scope }): Promise<DriftRow[]> {
  const db = await getDb();
  const { scope } = input;
  const rows = await db
    .select({
      thermostatId: templateAssignments.thermostatId,
      buildingId: thermostats.buildingId,
      templateId: templateAssignments.templateId,
      templateName: templates.name,
      drift: templateAssignments.drift,
    })
    .from(templateAssignments)
    .innerJoin(thermostats, assignedThermostat)
    .innerJoin(
      templates,
      and(
        eq(templates.orgId, templateAssignments.orgId),
        eq(templates.id, templateAssignments.templateId),
      ),
    )
    .where(and(assignmentsInScope(scope), isNotNull(templateAssignments.drift)))
    .orderBy(asc(templateAssignments.thermostatId));
  return rows.flatMap(({ drift, ...row }) => {
    const found = readDrift(drift);
    return found ? [{ ...row, ...found }] : [];
  });
}

/**
 * How far the template checks have come for the thermostats in scope that have a template: how
 * many were checked at least once (a run's own result counts as its first check), of how many.
 */
export async function countDriftChecks(input: {
  scope: Scope;
}): Promise<{ checked: number; total: number }> {
  const db = await getDb();
  const { scope } = input;
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      checked: sql<number>`count(${templateAssignments.checkedAt})::int`,
    })
    .from(templateAssignments)
    .innerJoin(thermostats, assignedThermostat)
    .where(assignmentsInScope(scope));
  return { checked: Number(row?.checked ?? 0), total: Number(row?.total ?? 0) };
}
