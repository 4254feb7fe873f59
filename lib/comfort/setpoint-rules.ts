import {
  displayDelta,
  displayRange,
  type TemperatureRange,
  type TemperatureUnit,
} from '@/lib/platform/units';

/** What a thermostat allows its setpoints: its heat and cool ranges (°F) and their minimum gap. */
export type SetpointRules = {
  heatRange: TemperatureRange;
  coolRange: TemperatureRange;
  heatCoolMinDelta: number;
};

/** The rule stated beside the setpoint fields, in the manager's unit. */
export function describeSetpointRules(rules: SetpointRules, unit: TemperatureUnit): string {
  const heat = displayRange(rules.heatRange, unit);
  const cool = displayRange(rules.coolRange, unit);
  const delta = displayDelta(rules.heatCoolMinDelta, unit);
  const base = `Heat ${heat.min}–${heat.max} °${unit}, cool ${cool.min}–${cool.max} °${unit}, and cool at least ${delta} °${unit} above heat.`;
  return unit === 'C'
    ? `${base} Values are sent to the thermostat in °F, rounded to 2 decimals.`
    : base;
}
