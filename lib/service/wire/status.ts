import { z } from 'zod';
import {
  DEFAULT_HEAT_COOL_MIN_DELTA,
  EQUIPMENT,
  type Range,
  type ThermostatStatus,
} from '@/lib/service/schemas';

/**
 * The status resource on the wire (GET `/thermostats/{id}/status`): the spec promises only
 * `isResidentMode` and `setPoint`; every other field is read by its production name where it is
 * there and of the right type (a field of another type reads as absent, never fails the status),
 * and unknown fields are ignored.
 */

/** A field that may be missing, or of an unexpected type: absent either way. */
const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

const temperature = z.number().finite();
const range = z.looseObject({ min: temperature, max: temperature });

export const wireStatusSchema = z.looseObject({
  isResidentMode: z.boolean(),
  setPoint: z.looseObject({ desiredHeat: temperature, desiredCool: temperature }),
  isConnected: optional(z.boolean()),
  hvacMode: optional(z.string().min(1)),
  temperature: optional(temperature),
  humidity: optional(z.number().finite()),
  comfortSetting: optional(z.string().min(1)),
  heatCoolMinDelta: optional(z.number().finite().positive()),
  runningEquipment: optional(z.record(z.string(), z.unknown())),
  desiredHeatRange: optional(range),
  desiredCoolRange: optional(range),
});

const EQUIPMENT_ORDER = new Map<string, number>(EQUIPMENT.map((name, index) => [name, index]));

/** The equipment flagged running, known names in Setpoint's order, then any the service added. */
export function runningOf(flags: Record<string, unknown>): string[] {
  return Object.keys(flags)
    .filter((name) => flags[name] === true)
    .sort(
      (a, b) =>
        (EQUIPMENT_ORDER.get(a) ?? EQUIPMENT.length) -
          (EQUIPMENT_ORDER.get(b) ?? EQUIPMENT.length) || a.localeCompare(b),
    );
}

const rangeOf = (value: { min: number; max: number } | undefined): Range | null =>
  value ? { min: value.min, max: value.max } : null;

export const statusSchema = wireStatusSchema.transform(
  (wire): ThermostatStatus => ({
    isResidentMode: wire.isResidentMode,
    setPoint: { desiredHeat: wire.setPoint.desiredHeat, desiredCool: wire.setPoint.desiredCool },
    hvacMode: wire.hvacMode ?? null,
    connected: wire.isConnected ?? null,
    temperature: wire.temperature ?? null,
    humidity: wire.humidity ?? null,
    comfortSetting: wire.comfortSetting ?? null,
    heatCoolMinDelta: wire.heatCoolMinDelta ?? DEFAULT_HEAT_COOL_MIN_DELTA,
    runningEquipment: wire.runningEquipment ? runningOf(wire.runningEquipment) : null,
    heatRange: rangeOf(wire.desiredHeatRange),
    coolRange: rangeOf(wire.desiredCoolRange),
  }),
);
