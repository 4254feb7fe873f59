import 'server-only';
import {
  getSchedule,
  getSettings,
  getStatus,
  listComfortSettings,
} from '@/lib/thermostat-api/resources';
import { type ComfortSetting, DAYS } from '@/lib/thermostat-api/schemas';
import type { SetpointRules } from './setpoint-rules';

/** The service's default gap when a status does not report one (see the sandbox contract). */
const DEFAULT_HEAT_COOL_MIN_DELTA = 5;

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
      heatCoolMinDelta: status.heatCoolMinDelta ?? DEFAULT_HEAT_COOL_MIN_DELTA,
    },
    settings,
  };
}

/** The week as 7 lists of 48 refs, Monday first, and the zone they are in. */
export async function loadWeek({ orgId, thermostatId }: OnThermostat) {
  const schedule = await getSchedule({ orgId, thermostatId });
  // Monday first whatever order the days come in (the contract says Monday first; be tolerant).
  const byDay = new Map(schedule.days.map((day) => [day.day, day.blocks]));
  const week = DAYS.map((day) => byDay.get(day) ?? new Array<string>(48).fill(''));
  return { timeZone: schedule.timeZone, week };
}
