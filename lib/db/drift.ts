import 'server-only';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { getDb, rowsOf } from './client';
import type { Scope } from './queries';
import { templateAssignments, templates, thermostats } from './schema';
import { inBuildings } from './scope';

/**
 * Drift: whether a thermostat still matches the template a run last applied to it (or found it
 * matching), as `template_assignments` keeps it. The check job (lib/templates/drift.ts) takes the
 * assignments due for a check, of every connected organisation, and stores what it found; the
 * needs-attention page lists those that differ, in the member's scope.
 */

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
 * Keeps what a check found: what differs from the template in words, or null when it matches.
 * Only for the assignment that was checked: one a newer run made meanwhile is left alone.
 */
export async function saveDriftCheck(
  input: DueDriftCheck & { drift: string[] | null; at?: Date },
): Promise<void> {
  const db = await getDb();
  await db
    .update(templateAssignments)
    .set({ checkedAt: input.at ?? new Date(), drift: input.drift })
    .where(sameAssignment(input));
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
  differs: string[];
};

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
    .innerJoin(
      thermostats,
      and(
        eq(thermostats.orgId, templateAssignments.orgId),
        eq(thermostats.thermostatId, templateAssignments.thermostatId),
      ),
    )
    .innerJoin(
      templates,
      and(
        eq(templates.orgId, templateAssignments.orgId),
        eq(templates.id, templateAssignments.templateId),
      ),
    )
    .where(
      and(
        eq(templateAssignments.orgId, scope.orgId),
        isNotNull(templateAssignments.drift),
        inBuildings(thermostats.buildingId, scope),
      ),
    )
    .orderBy(asc(templateAssignments.thermostatId));
  return rows.flatMap(({ drift, ...row }) =>
    Array.isArray(drift) && drift.length > 0 ? [{ ...row, differs: drift.map(String) }] : [],
  );
}
