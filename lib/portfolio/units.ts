import 'server-only';
import { and, asc, desc, eq, gte, inArray, isNull, ne, sql } from 'drizzle-orm';
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
 * across its thermostats; a unit's own label and external id, and a unit created empty. Checks no
 * role: the action opens the unit (or its building) in the member's scope first.
 */

/** A unit's label and external id as written, or why not (`taken`: the id is another unit's). */
export type UnitWrite = { ok: true; unitId: string } | { ok: false; reason: 'missing' | 'taken' };

/** Postgres's unique violation, as the driver or Drizzle's wrapper carries it. */
function isUniqueViolation(error: unknown): boolean {
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  return code === '23505' || cause?.code === '23505';
}

/** Whether another unit of the organisation has the external id already. */
async function externalIdTaken(
  tx: Pick<Awaited<ReturnType<typeof getDb>>, 'select'>,
  input: { orgId: string; externalId: string | null; except?: string },
): Promise<boolean> {
  if (input.externalId === null) return false;
  const [holder] = await tx
    .select({ id: units.id })
    .from(units)
    .where(
      and(
        eq(units.orgId, input.orgId),
        eq(units.externalId, input.externalId),
        input.except ? ne(units.id, input.except) : undefined,
      ),
    );
  return holder !== undefined;
}

/** A race lost to another writer of the same external id reads as the check would have. */
async function claimingExternalId(
  externalId: string | null,
  write: () => Promise<UnitWrite>,
): Promise<UnitWrite> {
  try {
    return await write();
  } catch (error) {
    if (externalId !== null && isUniqueViolation(error)) {
      return { ok: false, reason: 'taken' };
    }
    throw error;
  }
}

/**
 * Sets a unit's label and external id (null: none) in one transaction, relabelling the
 * thermostat in it too: a thermostat is called as its unit is.
 */
export async function updateUnit(input: {
  orgId: string;
  unitId: string;
  label: string;
  externalId: string | null;
}): Promise<UnitWrite> {
  const db = await getDb();
  return claimingExternalId(input.externalId, () =>
    db.transaction(async (tx): Promise<UnitWrite> => {
      const [unit] = await tx
        .select({ id: units.id, thermostatId: units.thermostatId })
        .from(units)
        .where(and(eq(units.orgId, input.orgId), eq(units.id, input.unitId)))
        .for('update');
      if (!unit) return { ok: false, reason: 'missing' };
      if (await externalIdTaken(tx, { ...input, except: unit.id })) {
        return { ok: false, reason: 'taken' };
      }
      await tx
        .update(units)
        .set({ label: input.label, externalId: input.externalId })
        .where(eq(units.id, unit.id));
      if (unit.thermostatId) {
        await tx
          .update(thermostats)
          .set({ unitLabel: input.label })
          .where(
            and(
              eq(thermostats.orgId, input.orgId),
              eq(thermostats.thermostatId, unit.thermostatId),
            ),
          );
      }
      return { ok: true, unitId: unit.id };
    }),
  );
}

/** Adds an empty unit (no thermostat yet) to a building. */
export async function createUnit(input: {
  orgId: string;
  buildingId: string;
  label: string;
  externalId: string | null;
}): Promise<UnitWrite> {
  const db = await getDb();
  return claimingExternalId(input.externalId, () =>
    db.transaction(async (tx): Promise<UnitWrite> => {
      if (await externalIdTaken(tx, input)) return { ok: false, reason: 'taken' };
      const [unit] = await tx.insert(units).values(input).returning({ id: units.id });
      if (!unit) throw new Error('The new unit was not returned.');
      return { ok: true, unitId: unit.id };
    }),
  );
}

export type Replacement =
  | { ok: true; replaced: string | null }
  | { ok: false; reason: 'missing' | 'taken' | 'same' | 'moving' };

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
    if (unit.old) {
      const [moving] = await tx
        .select({ to: thermostats.movingTo })
        .from(thermostats)
        .where(and(eq(thermostats.orgId, input.orgId), eq(thermostats.thermostatId, unit.old)));
      if (moving?.to) return { ok: false, reason: 'moving' };
    }
    // A unit called by its old thermostat's id (it had no label) is called by the new one's.
    const labelledById = unit.label === unit.old;
    const added = await tx
      .insert(thermostats)
      .values({
        orgId: input.orgId,
        thermostatId: input.thermostatId,
        buildingId: unit.buildingId,
        unitLabel: labelledById ? '' : unit.label,
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
    await tx
      .update(units)
      .set(
        labelledById
          ? { thermostatId: input.thermostatId, label: input.thermostatId }
          : { thermostatId: input.thermostatId },
      )
      .where(eq(units.id, unit.id));
    if (unit.old) {
      await tx
        .delete(thermostats)
        .where(and(eq(thermostats.orgId, input.orgId), eq(thermostats.thermostatId, unit.old)));
    }
    return { ok: true, replaced: unit.old };
  });
}

/**
 * These thermostats and every other that was ever in the same units (a unit's thermostats before
 * a replacement), so what is asked of a thermostat's unit reaches back across its replacements.
 */
export async function formerThermostatsToo(input: {
  orgId: string;
  thermostatIds: readonly string[];
}): Promise<string[]> {
  if (input.thermostatIds.length === 0) return [];
  const db = await getDb();
  const rows = await db
    .selectDistinct({ thermostatId: unitThermostats.thermostatId })
    .from(unitThermostats)
    .where(
      and(
        eq(unitThermostats.orgId, input.orgId),
        inArray(
          unitThermostats.unitId,
          db
            .select({ unitId: unitThermostats.unitId })
            .from(unitThermostats)
            .where(
              and(
                eq(unitThermostats.orgId, input.orgId),
                inArray(unitThermostats.thermostatId, [...input.thermostatIds]),
              ),
            ),
        ),
      ),
    );
  return [...new Set([...input.thermostatIds, ...rows.map((row) => row.thermostatId)])];
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

/**
 * The unit in the scope a thermostat that has left the portfolio was last in (replaced, or
 * removed), so an old link to it (an email's) leads to the unit; null for one never in a unit the
 * scope sees.
 */
export async function formerUnitOf(input: {
  scope: Scope;
  thermostatId: string;
}): Promise<string | null> {
  const db = await getDb();
  const [row] = await db
    .select({ unitId: units.id })
    .from(unitThermostats)
    .innerJoin(units, eq(units.id, unitThermostats.unitId))
    .where(
      and(
        eq(unitThermostats.orgId, input.scope.orgId),
        eq(unitThermostats.thermostatId, input.thermostatId),
        inBuildings(units.buildingId, input.scope),
      ),
    )
    .orderBy(desc(unitThermostats.fromAt))
    .limit(1);
  return row?.unitId ?? null;
}
