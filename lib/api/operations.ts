import 'server-only';
import type { z } from 'zod';
import { findBuilding, listBuildings } from '@/lib/portfolio/store';
import { announceUnitChange, type UnitActor, unitChange } from '@/lib/units/change';
import { createUnitAs, saveUnitFields } from '@/lib/units/edit';
import type { UnitEvent } from '@/lib/units/lifecycle';
import { settingsOfUnits, type UnitSettings } from '@/lib/units/settings';
import { findUnit, pageOfUnits, type Unit, type UnitCursor } from '@/lib/units/store';
import { type ApiAnswer, type ApiCall, ApiProblem, invalidInput, notFound } from './http';
import { DATABASE_TIMESTAMP, decodeCursor, encodeCursor, query } from './paging';
import { scopeOfKey } from './keys';
import {
  type buildingSchema,
  listBuildingsQuerySchema,
  listUnitsQuerySchema,
  newUnitSchema,
  unitChangesSchema,
  unitEventSchema,
  type unitSchema,
} from './schemas';

/**
 * The API's operations on buildings and units, each answering in its response schema's shape
 * (lib/api/schemas.ts). A key limited to some buildings sees nothing else: another building's
 * unit or building is a 404, as one that does not exist.
 */

// --- Buildings ----------------------------------------------------------------------------------

type BuildingBody = z.output<typeof buildingSchema>;

const buildingBody = (building: {
  buildingId: string;
  name: string;
  timeZone: string;
  address: string;
}): BuildingBody => ({
  id: building.buildingId,
  name: building.name,
  timeZone: building.timeZone,
  address: building.address,
});

const isBuildingCursor = (value: unknown): value is { c: number; i: string } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { c?: unknown }).c === 'number' &&
  typeof (value as { i?: unknown }).i === 'string';

/** The buildings the key may see, oldest first, a page at a time. */
export async function listBuildingsOperation(call: ApiCall<object>): Promise<ApiAnswer> {
  const parsed = listBuildingsQuerySchema.safeParse(query(call.url));
  if (!parsed.success) throw invalidInput(parsed.error);
  const after = decodeCursor(parsed.data.after, isBuildingCursor);
  const all = (await listBuildings({ scope: scopeOfKey(call.key) })).sort(
    (a, b) =>
      a.createdAt.getTime() - b.createdAt.getTime() || a.buildingId.localeCompare(b.buildingId),
  );
  const rest = after
    ? all.filter(
        (building) =>
          building.createdAt.getTime() > after.c ||
          (building.createdAt.getTime() === after.c && building.buildingId > after.i),
      )
    : all;
  const page = rest.slice(0, parsed.data.limit);
  const last = page.at(-1);
  return {
    status: 200,
    body: {
      data: page.map(buildingBody),
      next:
        rest.length > page.length && last
          ? encodeCursor({ c: last.createdAt.getTime(), i: last.buildingId })
          : null,
    },
  };
}

export async function readBuildingOperation(
  call: ApiCall<{ buildingId: string }>,
): Promise<ApiAnswer> {
  const building = await findBuilding({
    scope: scopeOfKey(call.key),
    buildingId: call.params.buildingId,
  });
  if (!building) throw notFound('building');
  return { status: 200, body: buildingBody(building) };
}

// --- Units --------------------------------------------------------------------------------------

type UnitBody = z.output<typeof unitSchema>;

function unitBody(unit: Unit, settings: UnitSettings | undefined): UnitBody {
  const { occupancy } = unit;
  const found = settings ?? { status: 'unknown' as const };
  return {
    id: unit.id,
    buildingId: unit.buildingId,
    label: unit.label,
    externalId: unit.externalId,
    thermostatId: unit.thermostatId,
    state: occupancy.state,
    since: unit.since?.toISOString() ?? null,
    moveOutOn: occupancy.state === 'notice_given' ? occupancy.moveOutOn : null,
    moveInAt: occupancy.state === 'move_in_scheduled' ? occupancy.moveInAt : null,
    settings: {
      status: found.status,
      runId: 'runId' in found ? found.runId : null,
      detail: found.status === 'differs' ? found.detail : null,
    },
  };
}

async function unitBodies(orgId: string, units: Unit[]): Promise<UnitBody[]> {
  const settings = await settingsOfUnits(orgId, units);
  return units.map((unit) => unitBody(unit, settings.get(unit.id)));
}

const UNIT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isUnitCursor = (value: unknown): value is UnitCursor =>
  typeof value === 'object' &&
  value !== null &&
  DATABASE_TIMESTAMP.test(String((value as { createdAt?: unknown }).createdAt)) &&
  UNIT_ID.test(String((value as { id?: unknown }).id));

/** The units the key may see, oldest first, filtered, a page at a time. */
export async function listUnitsOperation(call: ApiCall<object>): Promise<ApiAnswer> {
  const parsed = listUnitsQuerySchema.safeParse(query(call.url));
  if (!parsed.success) throw invalidInput(parsed.error);
  const { after, limit, ...filters } = parsed.data;
  const page = await pageOfUnits({
    scope: scopeOfKey(call.key),
    limit,
    after: decodeCursor(after, isUnitCursor),
    ...filters,
  });
  return {
    status: 200,
    body: {
      data: await unitBodies(call.key.orgId, page.units),
      next: page.next ? encodeCursor(page.next) : null,
    },
  };
}

async function unitFor(call: ApiCall<{ unitId: string }>): Promise<Unit> {
  const unit = UNIT_ID.test(call.params.unitId)
    ? await findUnit({ scope: scopeOfKey(call.key), unitId: call.params.unitId })
    : null;
  if (!unit) throw notFound('unit');
  return unit;
}

export async function readUnitOperation(call: ApiCall<{ unitId: string }>): Promise<ApiAnswer> {
  const unit = await unitFor(call);
  const [body] = await unitBodies(call.key.orgId, [unit]);
  return { status: 200, body };
}

/**
 * Records what happened to a unit, as a member does on its page: the lifecycle decides (a replay
 * changes nothing), and the run its new state's policy asks for starts with it. 202 with the run
 * when one started, 200 otherwise; a change that does not fit the state is a 409.
 */
export async function unitEventOperation(call: ApiCall<{ unitId: string }>): Promise<ApiAnswer> {
  const parsed = unitEventSchema.safeParse(call.body);
  if (!parsed.success) throw invalidInput(parsed.error);
  const unit = await unitFor(call);
  const event = parsed.data as UnitEvent;
  if (event.event === 'schedule_move_in' && Date.parse(event.moveInAt) <= Date.now()) {
    throw new ApiProblem(422, 'Invalid request', 'A move-in is scheduled for a time to come.', [
      { field: 'moveInAt', message: 'A move-in is scheduled for a time still to come.' },
    ]);
  }
  const normalised: UnitEvent =
    event.event === 'schedule_move_in'
      ? { event: 'schedule_move_in', moveInAt: new Date(event.moveInAt).toISOString() }
      : event;
  const by: UnitActor = {
    orgId: call.key.orgId,
    userId: null,
    name: `API key “${call.key.name}”`,
    temperatureUnit: 'F',
  };
  const change = { by, unit, event: normalised };
  const result = await (await unitChange(change))();
  if (!result) throw notFound('unit');
  if (!result.ok) throw new ApiProblem(409, 'Conflict', `${result.reason} Nothing was changed.`);
  await announceUnitChange({ ...change, result });
  const now = await unitFor(call);
  const [body] = await unitBodies(call.key.orgId, [now]);
  return {
    status: result.runId ? 202 : 200,
    body: { unit: body, changed: result.changed, run: result.runId ? { id: result.runId } : null },
  };
}

const writerOf = (call: ApiCall<unknown>) => ({
  orgId: call.key.orgId,
  userId: null,
  name: `API key “${call.key.name}”`,
});

/** Adds an empty unit to a building the key may see: 201 with the unit. */
export async function createUnitOperation(call: ApiCall<object>): Promise<ApiAnswer> {
  const parsed = newUnitSchema.safeParse(call.body);
  if (!parsed.success) throw invalidInput(parsed.error);
  const { buildingId, label, externalId = null } = parsed.data;
  const building = await findBuilding({ scope: scopeOfKey(call.key), buildingId });
  if (!building) throw notFound('building');
  const created = await createUnitAs({ member: writerOf(call), building, label, externalId });
  if (!created.ok) {
    if ('taken' in created) {
      throw new ApiProblem(409, 'Conflict', created.taken, [
        { field: 'externalId', message: created.taken },
      ]);
    }
    throw notFound('building');
  }
  const unit = await findUnit({ scope: scopeOfKey(call.key), unitId: created.unitId });
  if (!unit) throw notFound('unit');
  const [body] = await unitBodies(call.key.orgId, [unit]);
  return { status: 201, body };
}

/** Changes a unit's label or external id (its thermostat takes the label): 200 with the unit. */
export async function updateUnitOperation(call: ApiCall<{ unitId: string }>): Promise<ApiAnswer> {
  const parsed = unitChangesSchema.safeParse(call.body);
  if (!parsed.success) throw invalidInput(parsed.error);
  const unit = await unitFor(call);
  const saved = await saveUnitFields({
    member: writerOf(call),
    unit,
    label: parsed.data.label ?? unit.label,
    externalId: parsed.data.externalId === undefined ? unit.externalId : parsed.data.externalId,
  });
  if (!saved.ok) {
    if ('taken' in saved) {
      throw new ApiProblem(409, 'Conflict', saved.taken, [
        { field: 'externalId', message: saved.taken },
      ]);
    }
    throw notFound('unit');
  }
  const [body] = await unitBodies(call.key.orgId, [await unitFor(call)]);
  return { status: 200, body };
}
