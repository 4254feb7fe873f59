import 'server-only';
import { cache } from 'react';
import type { Scope } from '@/lib/db/scope';
import { findBuilding, findThermostat } from '@/lib/portfolio/store';
import { buildingIdSchema, thermostatIdSchema } from '@/lib/service/schemas';

/**
 * The thermostat a page or action names, if it is a well-formed id in the member's scope (their
 * organisation, and for a building manager their buildings); null otherwise, before anything
 * reaches the service. Cached per request, so a layout and its page share one lookup.
 */
export const scopedThermostat = cache(async (scope: Scope, thermostatId: unknown) => {
  const id = thermostatIdSchema.safeParse(thermostatId);
  if (!id.success) return null;
  return findThermostat({ scope, thermostatId: id.data });
});

/** The building a page or action names, if it is a well-formed id in the member's scope. */
export const scopedBuilding = cache(async (scope: Scope, buildingId: unknown) => {
  const id = buildingIdSchema.safeParse(buildingId);
  if (!id.success) return null;
  return findBuilding({ scope, buildingId: id.data });
});
