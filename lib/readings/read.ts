import 'server-only';
import { z } from 'zod';
import { type HistorySample, saveReadFailure, saveReading } from '@/lib/readings/store';
import { getEnv } from '@/lib/platform/env';
import type { Priority } from '@/lib/service/budget';
import { ServiceError } from '@/lib/service/errors';
import { getStatus } from '@/lib/service/resources';
import { DEFAULT_HEAT_COOL_MIN_DELTA, type ThermostatStatus } from '@/lib/service/schemas';

/**
 * Reading thermostats into the store (lib/readings/store.ts): every status read from the service,
 * by a page, an action or the poller, is kept with when it was read, so pages render from the
 * store at once and show through outages what they last knew.
 */

/** How fresh readings are kept (the service asks for status polls no more than every 5 min). */
export function freshnessTargetMs(): number {
  return getEnv().READINGS_TARGET_MINUTES * 60_000;
}

export type Reading =
  | { ok: true; status: ThermostatStatus; readAt: Date }
  | { ok: false; error: ServiceError; status: ThermostatStatus | null; readAt: Date | null };

/** What history keeps of a status. */
export function sampleOf(status: ThermostatStatus): HistorySample {
  const number = (value: unknown) => (typeof value === 'number' ? value : null);
  return {
    temperature: number(status.temperature),
    humidity: number(status.humidity),
    desiredHeat: status.setPoint.desiredHeat,
    desiredCool: status.setPoint.desiredCool,
    hvacMode: status.hvacMode,
    equipment: status.runningEquipment?.join(',') ?? null,
    connected: status.connected,
  };
}

/** Keeps a status the service just sent for this thermostat. */
export async function storeStatus(input: {
  orgId: string;
  thermostatId: string;
  status: ThermostatStatus;
}) {
  await saveReading({
    orgId: input.orgId,
    thermostatId: input.thermostatId,
    status: input.status,
    sample: sampleOf(input.status),
  });
}

const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional().catch(null);
const range = z.object({ min: z.number(), max: z.number() });

/** A status as the store keeps it (Setpoint's own shape; migration 0016 brought older ones). */
const storedStatusSchema = z
  .object({
    isResidentMode: z.boolean(),
    setPoint: z.object({ desiredHeat: z.number(), desiredCool: z.number() }),
    hvacMode: optional(z.string()),
    connected: optional(z.boolean()),
    temperature: optional(z.number()),
    humidity: optional(z.number()),
    comfortSetting: optional(z.string()),
    heatCoolMinDelta: optional(z.number()),
    runningEquipment: optional(z.array(z.string())),
    heatRange: optional(range),
    coolRange: optional(range),
  })
  .transform(
    (stored): ThermostatStatus => ({
      isResidentMode: stored.isResidentMode,
      setPoint: stored.setPoint,
      hvacMode: stored.hvacMode ?? null,
      connected: stored.connected ?? null,
      temperature: stored.temperature ?? null,
      humidity: stored.humidity ?? null,
      comfortSetting: stored.comfortSetting ?? null,
      heatCoolMinDelta: stored.heatCoolMinDelta ?? DEFAULT_HEAT_COOL_MIN_DELTA,
      runningEquipment: stored.runningEquipment ?? null,
      heatRange: stored.heatRange ?? null,
      coolRange: stored.coolRange ?? null,
    }),
  );

/** A stored status back in Setpoint's shape; null when it no longer parses. */
export function parseStoredStatus(value: unknown): ThermostatStatus | null {
  const parsed = storedStatusSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

// Concurrent reads of one thermostat (two members on one building) share one call.
const inFlight = new Map<string, Promise<Reading>>();

/**
 * Reads one thermostat from the service now, at this priority, and keeps the result (a failure
 * too, beside the last good status). Never throws.
 */
export function refreshReading(input: {
  orgId: string;
  thermostatId: string;
  priority: Priority;
  /** The last good status known, to show beside a failure. */
  last?: { status: ThermostatStatus | null; readAt: Date | null };
}): Promise<Reading> {
  const key = `${input.orgId}:${input.thermostatId}`;
  const running = inFlight.get(key);
  if (running) return running;
  const reading = read(input).finally(() => inFlight.delete(key));
  inFlight.set(key, reading);
  return reading;
}

async function read(input: Parameters<typeof refreshReading>[0]): Promise<Reading> {
  const { orgId, thermostatId, priority } = input;
  try {
    const status = await getStatus({ orgId, thermostatId, priority });
    await storeStatus({ orgId, thermostatId, status });
    return { ok: true, status, readAt: new Date() };
  } catch (caught) {
    const error = caught instanceof ServiceError ? caught : new ServiceError('unavailable');
    await saveReadFailure({ orgId, thermostatId, failure: error.kind }).catch(() => {});
    return {
      ok: false,
      error,
      status: input.last?.status ?? null,
      readAt: input.last?.readAt ?? null,
    };
  }
}
