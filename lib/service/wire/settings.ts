import { z } from 'zod';
import type { BulkItem, BulkResult, HoldAction, ThermostatSettings } from '@/lib/service/schemas';
import { errorWords, refusalReasons } from './envelope';

/**
 * The configuration settings resource on the wire (`/settings`, one thermostat and the bulk
 * update of up to 25). Hold actions are the production v2 values; the consumer API's older
 * names, which a service may still report, read as the value they mean and are never sent.
 */

const LEGACY_HOLD_ACTIONS: Record<string, HoldAction> = {
  nextPeriod: 'nextTransition',
  useEndTime2hour: '2hour',
  useEndTime4hour: '4hour',
};

/** A hold action as Setpoint keeps it: an older name as the production value it means. */
export function holdActionOf(value: string): string {
  return LEGACY_HOLD_ACTIONS[value] ?? value;
}

const temperature = z.number().finite();
const range = z.looseObject({ min: temperature, max: temperature });

export const settingsSchema = z
  .looseObject({
    heatRange: range,
    coolRange: range,
    // An unknown value (one the service added since) is kept and shown as it is.
    holdAction: z.string().min(1),
    fanMinimumOnTime: z.number().finite(),
  })
  .transform(
    (wire): ThermostatSettings => ({
      heatRange: { min: wire.heatRange.min, max: wire.heatRange.max },
      coolRange: { min: wire.coolRange.min, max: wire.coolRange.max },
      holdAction: holdActionOf(wire.holdAction),
      fanMinimumOnTime: wire.fanMinimumOnTime,
    }),
  );

const bulkItemSchema = z.looseObject({
  thermostatId: z.string(),
  status: z.string(),
  data: z.unknown().optional(),
});

/**
 * The bulk update's answer: a result per thermostat. `succeeded` and `failed` counts, where the
 * service adds them, are not needed (Setpoint counts the items itself). An item of a status
 * Setpoint does not know reads as an error, never as applied.
 */
export const bulkResultSchema = z
  .looseObject({ results: z.array(bulkItemSchema) })
  .transform((wire): BulkResult => ({ results: wire.results.map(bulkItemOf) }));

function bulkItemOf(item: z.infer<typeof bulkItemSchema>): BulkItem {
  const { thermostatId } = item;
  if (item.status === 'success') return { thermostatId, status: 'success' };
  if (item.status === 'fail') {
    const data =
      item.data && typeof item.data === 'object' ? (item.data as Record<string, unknown>) : {};
    return { thermostatId, status: 'fail', reasons: refusalReasons(data) };
  }
  const { code, message } = errorWords({ ...item, status: 'error' });
  return { thermostatId, status: 'error', code, message };
}
