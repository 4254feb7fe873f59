import 'server-only';
import { getSchedule } from '@/lib/service/resources';
import { DAYS } from '@/lib/service/schemas';

type OnThermostat = { orgId: string; thermostatId: string };

/** The week as 7 lists of 48 refs, Monday first (in the building's zone, which Setpoint keeps). */
export async function loadWeek({ orgId, thermostatId }: OnThermostat) {
  const schedule = await getSchedule({ orgId, thermostatId });
  // Monday first whatever order the days come in (the contract says Monday first; be tolerant).
  const byDay = new Map(schedule.days.map((day) => [day.day, day.blocks]));
  const week = DAYS.map((day) => byDay.get(day) ?? new Array<string>(48).fill(''));
  return { week };
}
