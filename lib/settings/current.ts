import 'server-only';
import { getStatus } from '@/lib/thermostat-api/resources';

type OnThermostat = { orgId: string; thermostatId: string };

/**
 * What checking a change needs from the service before anything is written: the thermostat's
 * current settings (`read`), so only changes are sent, and its heat–cool gap.
 */
export async function readWithGap<T>(
  who: OnThermostat,
  read: (who: OnThermostat) => Promise<T>,
): Promise<{ current: T; heatCoolMinDelta: number }> {
  const [current, status] = await Promise.all([read(who), getStatus(who)]);
  return { current, heatCoolMinDelta: status.heatCoolMinDelta };
}

/** How a thermostat is named in messages and the activity log. */
export const labelOf = (thermostat: { unitLabel: string; thermostatId: string }) =>
  thermostat.unitLabel || thermostat.thermostatId;
