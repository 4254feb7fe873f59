import 'server-only';
import { and, asc, eq, gte, isNull, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import {
  readingHistory,
  thermostatGroupMembers,
  thermostats,
  unitThermostats,
  units,
} from '@/lib/db/schema';
import { inBuildings, type Scope } from '@/lib/db/scope';
import type { HistoryPoint } from '@/lib/readings/store';

/**
 * A unit's thermostats over time: replacing the one in it (the unit's history, occupancy,
 * timeline and groups continue; the old thermostat leaves the portfolio) and the unit's history
 * across its thermostats. Checks no role: the action opens the unit in the member's scope first.
 */

export type Replacement =
  | { ok: true; replaced: string | null }
  | { ok: false; reason: 'missing' | 'taken' | 'same' };

/**
 * Puts `thermostatId` in the unit in one transaction: the new thermostat joins the portfolio in
 * the unit's building under the unit's label, takes the old one's places in groups, and the old
 * one leaves the portfolio (its readings of the unit stay the unit's history). A unit left empty
 * by a removal takes a thermostat the same way.
 */
export async function replaceThermostat(input: {
  orgId: string;
  unitId: string;
  thermostatId: string;
}): Promise<Replacement> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [unit] = await tx
      .select({
        id: units.id,
        buildingId: units.buildingId,
        label: units.label,
        old: units.thermostatId,
      })
      .from(units)
      .where(and(eq(units.orgId, input.orgId), eq(units.id, input.unitId)))
      .for('update');
    if (!unit) return { ok: false, reason: 'missing' };
    if (unit.old === input.thermostatId) return { ok: false, reason: 'same' };
    const added = await tx
      .insert(thermostats)
      .values({
        orgId: input.orgId,
        thermostatId: input.thermostatId,
        buildingId: unit.buildingId,
        unitLabel: unit.label,
      })
      .onConflictDoNothing()
      .returning({ id: thermostats.thermostatId });
    if (added.length === 0) return { ok: false, reason: 'taken' };
    const now = new Date();
    if (unit.old) {
      await tx
        .update(thermostatGroupMembers)
        .set({ thermostatId: input.thermostatId })
        .where(
          and(
            eq(thermostatGroupMembers.orgId, input.orgId),
            eq(thermostatGroupMembers.thermostatId, unit.old),
          ),
        );
    }
    await tx
      .update(unitThermostats)
      .set({ untilAt: now })
      .where(and(eq(unitThermostats.unitId, unit.id), isNull(unitThermostats.untilAt)));
    await tx.insert(unitThermostats).values({
      unitId: unit.id,
      orgId: input.orgId,
      thermostatId: input.thermostatId,
      fromAt: now,
    });
    // The unit lets go of the old one before it leaves, so no key empties the unit after it.
    await tx.update(units).set({ thermostatId: input.thermostatId }).where(eq(units.id, unit.id));
    if (unit.old) {
      await tx
        .delete(thermostats)
        .where(and(eq(thermostats.orgId, input.orgId), eq(thermostats.thermostatId, unit.old)));
    }
    return { ok: true, replaced: unit.old };
  });
}

/** A unit's thermostats, the first first: which one was in it from when until when. */
export async function listUnitThermostats(input: {
  orgId: string;
  unitId: string;
}): Promise<{ thermostatId: string; fromAt: Date; untilAt: Date | null }[]> {
  const db = await getDb();
  return db
    .select({
      thermostatId: unitThermostats.thermostatId,
      fromAt: unitThermostats.fromAt,
      untilAt: unitThermostats.untilAt,
    })
    .from(unitThermostats)
    .where(and(eq(unitThermostats.orgId, input.orgId), eq(unitThermostats.unitId, input.unitId)))
    .orderBy(asc(unitThermostats.fromAt));
}

/**
 * The history of the unit a thermostat is in, across its thermostats: each one's readings within
 * its time in the unit, oldest first. Empty when the scope does not see the thermostat's unit.
 */
export async function listUnitHistory(input: {
  scope: Scope;
  thermostatId: string;
  since: Date;
}): Promise<HistoryPoint[]> {
  const db = await getDb();
  const { scope } = input;
  const rows = await db
    .select({ point: readingHistory })
    .from(units)
    .innerJoin(unitThermostats, eq(unitThermostats.unitId, units.id))
    .innerJoin(
      readingHistory,
      and(
        eq(readingHistory.orgId, unitThermostats.orgId),
        eq(readingHistory.thermostatId, unitThermostats.thermostatId),
        gte(readingHistory.at, unitThermostats.fromAt),
        sql`(${unitThermostats.untilAt} is null or ${readingHistory.at} < ${unitThermostats.untilAt})`,
      ),
    )
    .where(
      and(
        eq(units.orgId, scope.orgId),
        eq(units.thermostatId, input.thermostatId),
        inBuildings(units.buildingId, scope),
        gte(readingHistory.at, input.since),
      ),
    )
    .orderBy(asc(readingHistory.at));
  return rows.map((row) => row.point);
}
