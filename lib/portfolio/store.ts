import 'server-only';
import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { buildings, thermostats, unitThermostats, units } from '@/lib/db/schema';
import {
  type BuildingKey,
  inBuildings,
  type Scope,
  type ThermostatKey,
  type ThermostatSelection,
} from '@/lib/db/scope';

/** The portfolio store: an organisation's buildings and thermostats, in a member's scope. */

const thermostatIs = (key: ThermostatKey) =>
  and(eq(thermostats.orgId, key.orgId), eq(thermostats.thermostatId, key.thermostatId));
const buildingIs = (key: BuildingKey) =>
  and(eq(buildings.orgId, key.orgId), eq(buildings.buildingId, key.buildingId));
/** Joins a thermostat to the building it is in. */
const buildingOfThermostat = and(
  eq(buildings.orgId, thermostats.orgId),
  eq(buildings.buildingId, thermostats.buildingId),
);
/** The unit a thermostat is in. */
const unitOfThermostat = (key: ThermostatKey) =>
  and(eq(units.orgId, key.orgId), eq(units.thermostatId, key.thermostatId));

/** The buildings and thermostats a scope may see. */
const buildingsInScope = (scope: Scope) =>
  and(eq(buildings.orgId, scope.orgId), inBuildings(buildings.buildingId, scope));
const thermostatsInScope = (scope: Scope) =>
  and(eq(thermostats.orgId, scope.orgId), inBuildings(thermostats.buildingId, scope));

export type Building = typeof buildings.$inferSelect;
export type PortfolioThermostat = typeof thermostats.$inferSelect;
export type BuildingSummary = Building & { thermostatCount: number };

/** The buildings in scope, by name, with how many thermostats each has. */
export async function listBuildings({ scope }: { scope: Scope }): Promise<BuildingSummary[]> {
  const db = await getDb();
  const rows = await db
    .select({ building: buildings, thermostatCount: count(thermostats.thermostatId) })
    .from(buildings)
    .leftJoin(
      thermostats,
      and(eq(thermostats.orgId, buildings.orgId), eq(thermostats.buildingId, buildings.buildingId)),
    )
    .where(buildingsInScope(scope))
    .groupBy(buildings.orgId, buildings.buildingId)
    .orderBy(asc(buildings.name));
  return rows.map((row) => ({ ...row.building, thermostatCount: row.thermostatCount }));
}

/** Every building of the organisation (for an owner or admin choosing a manager's buildings). */
export async function listOrganizationBuildings({ orgId }: { orgId: string }): Promise<Building[]> {
  const db = await getDb();
  return db.select().from(buildings).where(eq(buildings.orgId, orgId)).orderBy(asc(buildings.name));
}

export async function findBuilding(input: {
  scope: Scope;
  buildingId: string;
}): Promise<Building | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(buildings)
    .where(and(buildingsInScope(input.scope), eq(buildings.buildingId, input.buildingId)));
  return row ?? null;
}

/** Adds a building the organisation did not have yet; an existing one keeps its name and address. */
export async function ensureBuilding(
  input: BuildingKey & { name: string; timeZone: string; address?: string },
): Promise<string> {
  const db = await getDb();
  await db.insert(buildings).values(input).onConflictDoNothing();
  // A building already in the portfolio keeps the name its managers gave it.
  const [row] = await db.select({ name: buildings.name }).from(buildings).where(buildingIs(input));
  return row?.name ?? input.name;
}

export async function updateBuilding(
  input: BuildingKey & { name: string; address: string },
): Promise<void> {
  const db = await getDb();
  await db
    .update(buildings)
    .set({ name: input.name, address: input.address })
    .where(buildingIs(input));
}

/** Thermostats in scope: all, one building's, or only these ids (none when the list is empty). */

export async function listThermostats(input: ThermostatSelection): Promise<PortfolioThermostat[]> {
  if (input.thermostatIds?.length === 0) return [];
  const db = await getDb();
  return db
    .select()
    .from(thermostats)
    .where(
      and(
        thermostatsInScope(input.scope),
        input.buildingId ? eq(thermostats.buildingId, input.buildingId) : undefined,
        input.thermostatIds ? inArray(thermostats.thermostatId, input.thermostatIds) : undefined,
      ),
    )
    .orderBy(asc(thermostats.unitLabel), asc(thermostats.thermostatId));
}

export type ScopedThermostat = PortfolioThermostat & { building: Building | null };

export async function findThermostat(input: {
  scope: Scope;
  thermostatId: string;
}): Promise<ScopedThermostat | null> {
  const db = await getDb();
  const [row] = await db
    .select({ thermostat: thermostats, building: buildings })
    .from(thermostats)
    .leftJoin(buildings, buildingOfThermostat)
    .where(and(thermostatsInScope(input.scope), eq(thermostats.thermostatId, input.thermostatId)));
  return row ? { ...row.thermostat, building: row.building } : null;
}

/** Which of these thermostats the organisation already has, each with its building's name. */
export async function findKnownThermostats(input: {
  orgId: string;
  thermostatIds: string[];
}): Promise<Map<string, string>> {
  if (input.thermostatIds.length === 0) return new Map();
  const db = await getDb();
  const rows = await db
    .select({ id: thermostats.thermostatId, building: buildings.name })
    .from(thermostats)
    .innerJoin(buildings, buildingOfThermostat)
    .where(
      and(
        eq(thermostats.orgId, input.orgId),
        inArray(thermostats.thermostatId, input.thermostatIds),
      ),
    );
  return new Map(rows.map((row) => [row.id, row.building]));
}

/** The label a unit takes from its thermostat: the thermostat's, or its id where it has none. */
const unitLabelOf = (input: { thermostatId: string; unitLabel: string }) =>
  input.unitLabel === '' ? input.thermostatId : input.unitLabel;

/**
 * Adds a thermostat (false: it was already here). It goes back into the unit of this building
 * it last left, if that unit is still empty, so a thermostat removed and added again keeps its
 * unit's occupancy, timeline and history; else into an empty unit of the building with its label
 * (made first, by CSV); otherwise it comes in a unit of its own, labelled as it is. Its time in the unit starts now, by the app's clock, as its readings are stamped.
 */
export async function addThermostat(
  input: ThermostatKey & { buildingId: string; unitLabel: string },
): Promise<boolean> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(thermostats)
      .values(input)
      .onConflictDoNothing()
      .returning({ id: thermostats.thermostatId });
    if (rows.length === 0) return false;
    const [left] = await tx
      .select({ id: units.id, label: units.label })
      .from(unitThermostats)
      .innerJoin(units, eq(units.id, unitThermostats.unitId))
      .where(
        and(
          eq(unitThermostats.orgId, input.orgId),
          eq(unitThermostats.thermostatId, input.thermostatId),
          eq(units.buildingId, input.buildingId),
          isNull(units.thermostatId),
        ),
      )
      .orderBy(desc(unitThermostats.fromAt))
      .limit(1);
    // Otherwise an empty unit of the building called as it is takes it: units made first (by
    // CSV, with their external ids) receive the thermostats added by those labels.
    const [waiting] =
      left || input.unitLabel === ''
        ? []
        : await tx
            .select({ id: units.id, label: units.label })
            .from(units)
            .where(
              and(
                eq(units.orgId, input.orgId),
                eq(units.buildingId, input.buildingId),
                isNull(units.thermostatId),
                sql`lower(${units.label}) = lower(${input.unitLabel})`,
              ),
            )
            .orderBy(asc(units.createdAt))
            .limit(1);
    // Added again with no label, it takes its unit's back.
    if (left && input.unitLabel === '' && left.label !== input.thermostatId) {
      await tx.update(thermostats).set({ unitLabel: left.label }).where(thermostatIs(input));
    }
    // The unit's own spelling of the label is the thermostat's too.
    if (waiting && waiting.label !== input.unitLabel) {
      await tx.update(thermostats).set({ unitLabel: waiting.label }).where(thermostatIs(input));
    }
    const label = left && input.unitLabel === '' ? left.label : unitLabelOf(input);
    const into = left ?? waiting;
    const [unit] = into
      ? await tx
          .update(units)
          .set({ thermostatId: input.thermostatId, label: waiting ? waiting.label : label })
          .where(eq(units.id, into.id))
          .returning({ id: units.id })
      : await tx
          .insert(units)
          .values({
            orgId: input.orgId,
            buildingId: input.buildingId,
            label,
            thermostatId: input.thermostatId,
          })
          .returning({ id: units.id });
    if (unit) {
      await tx.insert(unitThermostats).values({
        unitId: unit.id,
        orgId: input.orgId,
        thermostatId: input.thermostatId,
        fromAt: new Date(),
      });
    }
    return true;
  });
}

/** Relabels a thermostat and the unit it is in: a unit is called as its thermostat is. */
export async function updateThermostatLabel(
  input: ThermostatKey & { unitLabel: string },
): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.update(thermostats).set({ unitLabel: input.unitLabel }).where(thermostatIs(input));
    await tx
      .update(units)
      .set({ label: unitLabelOf(input) })
      .where(unitOfThermostat(input));
  });
}

/**
 * Claims a thermostat for a move from the building it is in: true for the one caller that finds
 * it there with no move in flight. A second, concurrent move sees the first instead of racing it.
 */
export async function startMove(
  input: ThermostatKey & { from: string; to: string },
): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(thermostats)
    .set({ movingTo: input.to })
    .where(
      and(
        thermostatIs(input),
        eq(thermostats.buildingId, input.from),
        isNull(thermostats.movingTo),
      ),
    )
    .returning({ id: thermostats.thermostatId });
  return rows.length === 1;
}

/** Ends a claimed move: in the new building when it was made, where it was when it failed. */
export async function finishMove(input: ThermostatKey & { movedTo: string | null }): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx
      .update(thermostats)
      .set(input.movedTo ? { movingTo: null, buildingId: input.movedTo } : { movingTo: null })
      .where(thermostatIs(input));
    // The unit goes where its thermostat went: a move corrects where the unit is.
    if (input.movedTo) {
      await tx.update(units).set({ buildingId: input.movedTo }).where(unitOfThermostat(input));
    }
  });
}

/**
 * Removes a thermostat from the portfolio. Its unit stays, empty, with its occupancy, timeline and
 * history (the readings of its period, thinned and then gone with age like every history).
 */
export async function removeThermostat(input: ThermostatKey): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx
      .update(unitThermostats)
      .set({ untilAt: new Date() })
      .where(
        and(
          eq(unitThermostats.orgId, input.orgId),
          eq(unitThermostats.thermostatId, input.thermostatId),
          isNull(unitThermostats.untilAt),
        ),
      );
    await tx.delete(thermostats).where(thermostatIs(input));
  });
}

/** Thermostats in scope whose id is this one or whose label contains the text, at most `limit`. */
export async function searchThermostats(input: {
  scope: Scope;
  text: string;
  limit?: number;
}): Promise<PortfolioThermostat[]> {
  const db = await getDb();
  const text = input.text.trim();
  const pattern = `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  return db
    .select()
    .from(thermostats)
    .where(
      and(
        thermostatsInScope(input.scope),
        or(eq(thermostats.thermostatId, text), ilike(thermostats.unitLabel, pattern)),
      ),
    )
    .orderBy(asc(thermostats.unitLabel))
    .limit(input.limit ?? 50);
}
