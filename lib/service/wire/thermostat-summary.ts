import { z } from 'zod';
import type { ThermostatSummary } from '@/lib/service/schemas';

/**
 * What creating or moving a thermostat answers on the wire, per the production reference:
 * `{ id, buildingId, name, thermostatName, timeZoneOffsetMinutes, hvacModes }`, none of it
 * promised by the spec, so every field is read where it is there. Setpoint needs none of it to
 * know the write was applied.
 */

const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

export const thermostatSummarySchema = z
  .looseObject({
    id: optional(z.string().min(1)),
    buildingId: optional(z.string().min(1)),
    name: optional(z.string()),
    hvacModes: optional(z.array(z.string())),
  })
  .transform(
    (wire): ThermostatSummary => ({
      thermostatId: wire.id ?? null,
      buildingId: wire.buildingId ?? null,
      name: wire.name ?? null,
      modes: wire.hvacModes ?? null,
    }),
  );
