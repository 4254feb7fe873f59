import 'server-only';
import { getSettings, getStatus, listComfortSettings } from '@/lib/service/resources';
import type { ComfortSetting } from '@/lib/service/schemas';
import type { SetpointRules } from './setpoint-rules';

type OnThermostat = { orgId: string; thermostatId: string };

/** What validating a comfort setting needs from the service: its ranges, gap and siblings. */
export async function loadComfortRules({ orgId, thermostatId }: OnThermostat): Promise<{
  rules: SetpointRules;
  settings: ComfortSetting[];
}> {
  const [config, status, settings] = await Promise.all([
    getSettings({ orgId, thermostatId }),
    getStatus({ orgId, thermostatId }),
    listComfortSettings({ orgId, thermostatId }),
  ]);
  return {
    rules: {
      heatRange: { min: config.heatRange.min, max: config.heatRange.max },
      coolRange: { min: config.coolRange.min, max: config.coolRange.max },
      heatCoolMinDelta: status.heatCoolMinDelta,
    },
    settings,
  };
}
