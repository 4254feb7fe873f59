import 'server-only';
import { z } from 'zod';
import type { Actor } from '@/lib/activity/sink';
import { logActivity } from '@/lib/activity/sink';
import { ensureBuilding, listOrganizationBuildings } from '@/lib/portfolio/store';
import { isKnownTimeZone } from '@/lib/platform/time-format';
import { buildingIdSchema } from '@/lib/service/schemas';

/**
 * Adding a building to the portfolio. The service lists no buildings and says of no thermostat
 * which building it is in, so a manager names each building once, with the id the service knows
 * it by (creating and moving thermostats name it) and its time zone (its schedules run in it).
 */

export const BUILDING_FIELDS = ['name', 'buildingId', 'timeZone', 'address'] as const;
export type BuildingField = (typeof BUILDING_FIELDS)[number];

export const buildingNameSchema = z
  .string('Enter a name.')
  .trim()
  .min(1, 'Enter a name.')
  .max(32, 'Use at most 32 characters.')
  .regex(/^[\p{L}\p{N}\p{P}\p{Zs}]+$/u, 'Use printable characters only.');

export const newBuildingSchema = z.object({
  name: buildingNameSchema,
  buildingId: z
    .string('Enter the building’s id at the service.')
    .trim()
    .toLowerCase()
    .min(1, 'Enter the building’s id at the service.')
    .pipe(buildingIdSchema),
  timeZone: z
    .string('Choose its time zone.')
    .refine((zone) => zone !== '' && isKnownTimeZone(zone), 'Choose its time zone.'),
  address: z.string('Enter the address as text.').trim().max(200, 'Use at most 200 characters.'),
});

export type NewBuilding = z.output<typeof newBuildingSchema>;

/**
 * Adds the building, unless the organisation has one of that id or name (an error per field).
 * The caller has checked that the member may manage the portfolio.
 */
export async function addBuilding(
  actor: Actor,
  building: NewBuilding,
): Promise<{ ok: true } | { ok: false; fieldErrors: Partial<Record<BuildingField, string[]>> }> {
  const existing = await listOrganizationBuildings({ orgId: actor.orgId });
  const sameId = existing.find((other) => other.buildingId === building.buildingId);
  if (sameId) {
    return {
      ok: false,
      fieldErrors: { buildingId: [`Your portfolio has this building already: ${sameId.name}.`] },
    };
  }
  if (existing.some((other) => other.name.toLowerCase() === building.name.toLowerCase())) {
    return { ok: false, fieldErrors: { name: ['Another building has this name.'] } };
  }
  await ensureBuilding({ orgId: actor.orgId, ...building });
  await logActivity({
    actor,
    action: 'building.create',
    buildingId: building.buildingId,
    summary: `Added the building ${building.name}`,
    changes: { ...building },
  });
  return { ok: true };
}

/** Every time zone the runtime knows, for choosing a building's. */
export function timeZoneChoices(): string[] {
  return Intl.supportedValuesOf('timeZone');
}
