import { z } from 'zod';

/** A unit's id as an address carries it (a uuid; anything else is no unit). */
export const unitIdSchema = z.uuid();

export const unitPath = (unit: { id: string }) => `/units/${encodeURIComponent(unit.id)}`;
export const buildingUnitsPath = (building: { buildingId: string }) =>
  `/buildings/${encodeURIComponent(building.buildingId)}/units`;
