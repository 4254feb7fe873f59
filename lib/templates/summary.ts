import { getEnv } from '@/lib/env';
import { budgetWindows } from '@/lib/thermostat-api/budget-windows';
import { type PlanSummary, summarisePlan, type ThermostatPlan } from './plan';

/**
 * A planned run's summary over the item plans given: all of a run's when it is planned, or only
 * those a member sees (lib/db/bulk-runs.ts), so that counts, calls and time are never summed over
 * thermostats outside their scope. Its time is at the pace a run is applied (`refresh`).
 */
export function summariseItemPlans(
  items: readonly { thermostatId: string; plan: Record<string, unknown> | null }[],
): PlanSummary {
  return summarisePlan(
    items.map((item) => ({
      thermostatId: item.thermostatId,
      plan: (item.plan ?? {
        operations: [],
        diff: [],
        unchanged: false,
        problems: ['Not planned.'],
        scheduleProvenFewest: true,
      }) as unknown as ThermostatPlan,
    })),
    budgetWindows(getEnv().SERVICE_RATE_LIMIT, 'refresh'),
  );
}
