import { type TemperatureUnit, toDisplay } from '@/lib/units';

/**
 * Setpoint inputs in the manager's unit, and back to the service's °F. The one rule: convert
 * exactly, check the exact value against the thermostat's range, then round to two decimals
 * (the service's precision) and keep the result inside the range, so rounding can never push an
 * accepted value out of it. Limits are shown rounded inwards, so a value inside the shown range
 * is always accepted.
 */

export type Limits = { min: number; max: number };

const EPSILON = 1e-9;

export function fahrenheitOf(value: number, unit: TemperatureUnit): number {
  return unit === 'F' ? value : (value * 9) / 5 + 32;
}

/** The °F value to send, or null when `value` (in `unit`) is outside `limits` (°F). */
export function toServiceFahrenheit(
  value: number,
  unit: TemperatureUnit,
  limits: Limits,
): number | null {
  const exact = fahrenheitOf(value, unit);
  if (!Number.isFinite(exact) || exact < limits.min - EPSILON || exact > limits.max + EPSILON)
    return null;
  const rounded = Math.round(exact * 100) / 100;
  // Limits with more than two decimals: the nearest two-decimal value inside them.
  return Math.min(roundDown(limits.max, 2), Math.max(roundUp(limits.min, 2), rounded));
}

const roundUp = (value: number, decimals: number) =>
  Math.ceil(value * 10 ** decimals - EPSILON) / 10 ** decimals;
const roundDown = (value: number, decimals: number) =>
  Math.floor(value * 10 ** decimals + EPSILON) / 10 ** decimals;

/** A °F range as the manager reads it: °C at one decimal, rounded inwards. */
export function displayLimits(limits: Limits, unit: TemperatureUnit): Limits {
  if (unit === 'F') return { ...limits };
  return {
    min: roundUp(((limits.min - 32) * 5) / 9, 1),
    max: roundDown(((limits.max - 32) * 5) / 9, 1),
  };
}

/** A °F difference as the manager reads it: °C at one decimal, rounded up (never too small). */
export function displayDelta(deltaF: number, unit: TemperatureUnit): number {
  return unit === 'F' ? deltaF : roundUp((deltaF * 5) / 9, 1);
}

/** The value an input shows for a stored °F setpoint. */
export function inputValue(fahrenheit: number, unit: TemperatureUnit): string {
  return String(toDisplay(fahrenheit, unit));
}

export type SetpointRules = {
  heatRange: Limits;
  coolRange: Limits;
  heatCoolMinDelta: number;
};

/** The rule stated beside the setpoint fields. */
export function describeSetpointRules(rules: SetpointRules, unit: TemperatureUnit): string {
  const heat = displayLimits(rules.heatRange, unit);
  const cool = displayLimits(rules.coolRange, unit);
  const delta = displayDelta(rules.heatCoolMinDelta, unit);
  const base = `Heat ${heat.min}–${heat.max} °${unit}, cool ${cool.min}–${cool.max} °${unit}, and cool at least ${delta} °${unit} above heat.`;
  return unit === 'C'
    ? `${base} Values are sent to the thermostat in °F, rounded to 2 decimals.`
    : base;
}
