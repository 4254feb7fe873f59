import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { occupancyPolicies, organizations, unitSteps } from '@/lib/db/schema';
import type { UnitStateName } from './lifecycle';
import type { PolicyRow, StatePolicy } from './policies';

/** The occupancy policies' rows: the organisation's ('' building) and each building's own. */

export async function listPolicyRows({ orgId }: { orgId: string }): Promise<PolicyRow[]> {
  const db = await getDb();
  return db
    .select({
      buildingId: occupancyPolicies.buildingId,
      state: occupancyPolicies.state,
      templateId: occupancyPolicies.templateId,
      residentMode: occupancyPolicies.residentMode,
    })
    .from(occupancyPolicies)
    .where(eq(occupancyPolicies.orgId, orgId));
}

/**
 * Saves one policy (the organisation's, `buildingId` '', or a building's) in one transaction:
 * a state given its own values is written, one that inherits has its row removed.
 */
export async function savePolicyRows(input: {
  orgId: string;
  buildingId: string;
  policies: Record<UnitStateName, StatePolicy | 'inherit'>;
  byName: string;
}): Promise<void> {
  const db = await getDb();
  const entries = Object.entries(input.policies) as [UnitStateName, StatePolicy | 'inherit'][];
  const inherited = entries.filter(([, policy]) => policy === 'inherit').map(([state]) => state);
  await db.transaction(async (tx) => {
    if (inherited.length > 0) {
      await tx
        .delete(occupancyPolicies)
        .where(
          and(
            eq(occupancyPolicies.orgId, input.orgId),
            eq(occupancyPolicies.buildingId, input.buildingId),
            inArray(occupancyPolicies.state, inherited),
          ),
        );
    }
    for (const [state, policy] of entries) {
      if (policy === 'inherit') continue;
      const values = {
        templateId: policy.templateId,
        residentMode: policy.residentMode,
        updatedAt: new Date(),
        updatedByName: input.byName,
      };
      await tx
        .insert(occupancyPolicies)
        .values({ orgId: input.orgId, buildingId: input.buildingId, state, ...values })
        .onConflictDoUpdate({
          target: [occupancyPolicies.orgId, occupancyPolicies.buildingId, occupancyPolicies.state],
          set: values,
        });
    }
  });
}

/** How long before a scheduled move-in its unit's thermostat is prepared, in minutes. */
export async function readMoveInLead({ orgId }: { orgId: string }): Promise<number> {
  const db = await getDb();
  const [org] = await db
    .select({ lead: organizations.moveInLeadMinutes })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return org?.lead ?? DEFAULT_LEAD_MINUTES;
}

export const DEFAULT_LEAD_MINUTES = 240;

/** A new lead, and the preparations still to come moved to it, in one transaction. */
export async function saveMoveInLead(input: { orgId: string; minutes: number }): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx
      .update(organizations)
      .set({ moveInLeadMinutes: input.minutes })
      .where(eq(organizations.id, input.orgId));
    await tx
      .update(unitSteps)
      .set({ dueAt: sql`${unitSteps.moveInAt} - make_interval(mins => ${input.minutes})` })
      .where(
        and(
          eq(unitSteps.orgId, input.orgId),
          eq(unitSteps.step, 'prepare'),
          eq(unitSteps.state, 'pending'),
        ),
      );
  });
}
