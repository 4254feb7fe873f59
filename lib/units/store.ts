import 'server-only';
import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { todayIn } from '@/lib/platform/time-format';
import {
  buildings,
  organizations,
  unitEvents,
  unitOccupancy,
  unitSteps,
  unitThermostats,
  units,
} from '@/lib/db/schema';
import { inBuildings, type Scope } from '@/lib/db/scope';
import type { Tx } from '@/lib/runs/store';
import type { Transition, UnitEvent, UnitState } from './lifecycle';
import { DEFAULT_LEAD_MINUTES } from './policy-store';

/**
 * The units feature's store: a unit with its occupancy, the units of a building, and a change of
 * occupancy applied with the unit locked, so two changes at once are applied one after the other
 * (and a replayed one finds the state it made). Checks no role: lib/units/change.ts does.
 */

export type Unit = {
  id: string;
  orgId: string;
  buildingId: string;
  buildingName: string;
  timeZone: string;
  label: string;
  externalId: string | null;
  thermostatId: string | null;
  occupancy: UnitState;
  /** Since when the unit is in its state; null while it has never changed (occupied). */
  since: Date | null;
  /** Since when Setpoint has known it: its first thermostat's arrival, where its history starts. */
  knownSince: Date | null;
  createdAt: Date;
};

export type UnitEventRow = {
  id: number;
  at: Date;
  event: string;
  fromState: string;
  toState: string;
  detail: Record<string, unknown>;
  actorName: string;
  /** The run that put the thermostat in the new state's settings, if one was started. */
  runId: string | null;
};

type OccupancyRow = {
  state: string;
  moveOutOn: string | null;
  moveInAt: string | null;
  ready: boolean;
};

/** A unit's occupancy from its row: no row, or a row the lifecycle does not know, is occupied. */
export function occupancyOf(row: OccupancyRow | null): UnitState {
  switch (row?.state) {
    case 'notice_given':
      return row.moveOutOn
        ? { state: 'notice_given', moveOutOn: row.moveOutOn }
        : { state: 'occupied' };
    case 'vacant':
      return { state: 'vacant' };
    case 'make_ready':
      return { state: 'make_ready' };
    case 'move_in_scheduled':
      return row.moveInAt
        ? {
            state: 'move_in_scheduled',
            moveInAt: new Date(row.moveInAt).toISOString(),
            ready: row.ready,
          }
        : { state: 'vacant' };
    default:
      return { state: 'occupied' };
  }
}

const rowOf = (state: UnitState): OccupancyRow => ({
  state: state.state,
  moveOutOn: state.state === 'notice_given' ? state.moveOutOn : null,
  moveInAt: state.state === 'move_in_scheduled' ? state.moveInAt : null,
  ready: state.state === 'move_in_scheduled' ? state.ready : false,
});

const unitColumns = {
  id: units.id,
  orgId: units.orgId,
  buildingId: units.buildingId,
  buildingName: buildings.name,
  timeZone: buildings.timeZone,
  label: units.label,
  externalId: units.externalId,
  thermostatId: units.thermostatId,
  createdAt: units.createdAt,
  state: unitOccupancy.state,
  moveOutOn: unitOccupancy.moveOutOn,
  moveInAt: unitOccupancy.moveInAt,
  ready: unitOccupancy.ready,
  since: unitOccupancy.since,
  knownSince:
    sql<Date | null>`(select min(${unitThermostats.fromAt}) from ${unitThermostats} where ${unitThermostats.unitId} = ${units.id})`.mapWith(
      (value: string | Date | null) => (value === null ? null : new Date(value)),
    ),
};

type UnitRow = Omit<Unit, 'occupancy' | 'since' | 'knownSince'> & {
  knownSince: Date | null;
  state: string | null;
  moveOutOn: string | null;
  moveInAt: string | null;
  ready: boolean | null;
  since: Date | null;
};

const toUnit = (row: UnitRow): Unit => ({
  id: row.id,
  orgId: row.orgId,
  buildingId: row.buildingId,
  buildingName: row.buildingName,
  timeZone: row.timeZone,
  label: row.label,
  externalId: row.externalId,
  thermostatId: row.thermostatId,
  occupancy: occupancyOf(
    row.state === null
      ? null
      : {
          state: row.state,
          moveOutOn: row.moveOutOn,
          moveInAt: row.moveInAt,
          ready: row.ready ?? false,
        },
  ),
  since: row.since,
  knownSince: row.knownSince,
  createdAt: row.createdAt,
});

async function selectUnits(where: ReturnType<typeof and>): Promise<Unit[]> {
  const db = await getDb();
  const rows = await db
    .select(unitColumns)
    .from(units)
    .innerJoin(
      buildings,
      and(eq(buildings.orgId, units.orgId), eq(buildings.buildingId, units.buildingId)),
    )
    .leftJoin(unitOccupancy, eq(unitOccupancy.unitId, units.id))
    .where(where)
    .orderBy(sql`natural_sort_key(${units.label}) collate "C"`, asc(units.id));
  return rows.map(toUnit);
}

/** Where a page of units ends: the last unit's creation (as the database keeps it) and id. */
export type UnitCursor = { createdAt: string; id: string };

/**
 * A page of the units in the scope, oldest first, after `after` (the cursor of the page before),
 * filtered by building, state and external id: the API's list. Oldest first, by the database's
 * own instant (to the microsecond), so a unit added meanwhile comes at the end and none is
 * skipped or seen twice. `next` is null on the last page.
 */
export async function pageOfUnits(input: {
  scope: Scope;
  limit: number;
  after?: UnitCursor | null;
  buildingId?: string;
  state?: UnitState['state'];
  externalId?: string;
}): Promise<{ units: Unit[]; next: UnitCursor | null }> {
  const { after } = input;
  const db = await getDb();
  const keys = await db
    .select({ id: units.id, createdAt: sql<string>`${units.createdAt}::text` })
    .from(units)
    .leftJoin(unitOccupancy, eq(unitOccupancy.unitId, units.id))
    .where(
      and(
        inScope(input.scope),
        input.buildingId ? eq(units.buildingId, input.buildingId) : undefined,
        input.externalId ? eq(units.externalId, input.externalId) : undefined,
        input.state
          ? sql`coalesce(${unitOccupancy.state}, 'occupied') = ${input.state}`
          : undefined,
        after
          ? sql`(${units.createdAt}, ${units.id}) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(units.createdAt), asc(units.id))
    .limit(input.limit + 1);
  const page = keys.slice(0, input.limit);
  const found =
    page.length === 0
      ? []
      : await selectUnits(
          inArray(
            units.id,
            page.map((key) => key.id),
          ),
        );
  const byId = new Map(found.map((unit) => [unit.id, unit]));
  const last = page.at(-1);
  return {
    units: page.flatMap((key) => byId.get(key.id) ?? []),
    next: keys.length > input.limit && last ? { createdAt: last.createdAt, id: last.id } : null,
  };
}

const inScope = (scope: Scope) =>
  and(eq(units.orgId, scope.orgId), inBuildings(units.buildingId, scope));

/** The units of one building in the scope, in label order ("Unit 2" before "Unit 10"). */
export function listUnits(input: { scope: Scope; buildingId: string }): Promise<Unit[]> {
  return selectUnits(and(inScope(input.scope), eq(units.buildingId, input.buildingId)));
}

/**
 * The units in these states that hold a thermostat, in the scope (one building's, if given):
 * for Needs attention's vacant units.
 */
export function listUnitsInStates(input: {
  scope: Scope;
  states: readonly UnitState['state'][];
  buildingId?: string;
}): Promise<Unit[]> {
  return selectUnits(
    and(
      inScope(input.scope),
      inArray(unitOccupancy.state, [...input.states]),
      isNotNull(units.thermostatId),
      input.buildingId ? eq(units.buildingId, input.buildingId) : undefined,
    ),
  );
}

/**
 * The units in the scope (one building's, if given) with a thermostat whose resident gave notice
 * and whose move-out day has passed in the building's calendar with no move-out recorded.
 */
export async function listPassedMoveOuts(input: {
  scope: Scope;
  buildingId?: string;
  now?: Date;
}): Promise<(Unit & { occupancy: { state: 'notice_given'; moveOutOn: string } })[]> {
  const noticed = await listUnitsInStates({ ...input, states: ['notice_given'] });
  return noticed.flatMap((unit) =>
    unit.occupancy.state === 'notice_given' &&
    unit.occupancy.moveOutOn < todayIn(unit.timeZone, input.now)
      ? [{ ...unit, occupancy: unit.occupancy }]
      : [],
  );
}

/** The organisation's units with these external ids, by external id (one query). */
export async function findUnitsByExternalId(
  orgId: string,
  externalIds: readonly string[],
): Promise<Map<string, Unit>> {
  if (externalIds.length === 0) return new Map();
  const found = await selectUnits(
    and(eq(units.orgId, orgId), inArray(units.externalId, [...externalIds])),
  );
  return new Map(found.flatMap((unit) => (unit.externalId ? [[unit.externalId, unit]] : [])));
}

/** One unit, if the scope sees it. */
export async function findUnit(input: { scope: Scope; unitId: string }): Promise<Unit | null> {
  const [unit] = await selectUnits(and(inScope(input.scope), eq(units.id, input.unitId)));
  return unit ?? null;
}

/** The unit a thermostat is in, if the scope sees it. */
export async function findUnitOfThermostat(input: {
  scope: Scope;
  thermostatId: string;
}): Promise<Unit | null> {
  const [unit] = await selectUnits(
    and(inScope(input.scope), eq(units.thermostatId, input.thermostatId)),
  );
  return unit ?? null;
}

/** A unit's changes of occupancy, newest first. */
export async function listUnitEvents(input: {
  orgId: string;
  unitId: string;
  limit?: number;
}): Promise<UnitEventRow[]> {
  const db = await getDb();
  return db
    .select({
      id: unitEvents.id,
      at: unitEvents.at,
      event: unitEvents.event,
      fromState: unitEvents.fromState,
      toState: unitEvents.toState,
      detail: unitEvents.detail,
      actorName: unitEvents.actorName,
      runId: unitEvents.runId,
    })
    .from(unitEvents)
    .where(and(eq(unitEvents.orgId, input.orgId), eq(unitEvents.unitId, input.unitId)))
    .orderBy(desc(unitEvents.at), desc(unitEvents.id))
    .limit(input.limit ?? 100);
}

/**
 * Applies an event to a unit's occupancy with the unit locked: the new state, its event row,
 * the run that puts the thermostat in the new state's settings (`startRun`, given the new state
 * and the transaction) and a scheduled move-in's steps are written together, or nothing is (a
 * refused event, or one that changes nothing: a replayed event starts no second run). In the
 * caller's transaction when given one (a scheduled step taken in the same one).
 */
export async function applyToUnit(
  input: {
    orgId: string;
    unitId: string;
    event: UnitEvent;
    apply: (current: UnitState) => Transition;
    actor: { userId: string | null; name: string };
    startRun?: (state: UnitState, tx: Tx) => Promise<string | null>;
  },
  within?: Tx,
): Promise<(Transition & { from: UnitState; runId: string | null }) | null> {
  const work = async (tx: Tx) => {
    const [unit] = await tx
      .select({ id: units.id })
      .from(units)
      .where(and(eq(units.orgId, input.orgId), eq(units.id, input.unitId)))
      .for('update');
    if (!unit) return null;
    const [current] = await tx
      .select({
        state: unitOccupancy.state,
        moveOutOn: unitOccupancy.moveOutOn,
        moveInAt: unitOccupancy.moveInAt,
        ready: unitOccupancy.ready,
      })
      .from(unitOccupancy)
      .where(eq(unitOccupancy.unitId, input.unitId));
    const from = occupancyOf(current ?? null);
    const result = input.apply(from);
    if (!result.ok || !result.changed) return { ...result, from, runId: null };
    const row = rowOf(result.state);
    const since = new Date();
    await tx
      .insert(unitOccupancy)
      .values({ unitId: input.unitId, orgId: input.orgId, ...row, since })
      .onConflictDoUpdate({
        target: unitOccupancy.unitId,
        // A new date for the same state (a move-out moved) keeps when the state began.
        set: result.state.state === from.state ? { ...row } : { ...row, since },
      });
    if (rowOf(from).moveInAt !== row.moveInAt) {
      await scheduleSteps(tx, { orgId: input.orgId, unitId: input.unitId, moveInAt: row.moveInAt });
    }
    const runId =
      result.state.state === from.state
        ? null
        : ((await input.startRun?.(result.state, tx)) ?? null);
    const { event, ...detail } = input.event;
    await tx.insert(unitEvents).values({
      unitId: input.unitId,
      orgId: input.orgId,
      event,
      fromState: from.state,
      toState: result.state.state,
      detail,
      userId: input.actor.userId,
      actorName: input.actor.name,
      runId,
    });
    return { ...result, from, runId };
  };
  if (within) return work(within);
  const db = await getDb();
  return db.transaction(work);
}

/**
 * A unit's move-in steps, anew: the pending ones cancelled (the move-in was moved, cancelled or
 * recorded), and for a move-in at `moveInAt` its two steps: the preparation the organisation's
 * lead before it (at once when that has passed), and the move-in itself.
 */
async function scheduleSteps(
  tx: Tx,
  input: { orgId: string; unitId: string; moveInAt: string | null },
): Promise<void> {
  await tx
    .update(unitSteps)
    .set({ state: 'cancelled', doneAt: new Date() })
    .where(and(eq(unitSteps.unitId, input.unitId), eq(unitSteps.state, 'pending')));
  if (!input.moveInAt) return;
  const [org] = await tx
    .select({ lead: organizations.moveInLeadMinutes })
    .from(organizations)
    .where(eq(organizations.id, input.orgId));
  const at = new Date(input.moveInAt);
  const prepare = new Date(at.getTime() - (org?.lead ?? DEFAULT_LEAD_MINUTES) * 60_000);
  await tx.insert(unitSteps).values([
    {
      orgId: input.orgId,
      unitId: input.unitId,
      step: 'prepare',
      moveInAt: input.moveInAt,
      dueAt: prepare,
    },
    {
      orgId: input.orgId,
      unitId: input.unitId,
      step: 'move_in',
      moveInAt: input.moveInAt,
      dueAt: at,
    },
  ]);
}
