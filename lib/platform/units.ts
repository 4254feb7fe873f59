/**
 * Temperatures between the service, which speaks °F to two decimals, and the manager, who may
 * read and type °C. The one rule, for every form and page:
 *
 * - A value is shown to the nearest step of the manager's unit (°F 0.01, °C 0.1), and a range's
 *   limits are stated the same way, so a value at a limit reads as the limit stated beside it.
 *   A minimum gap is stated rounded up, so keeping the stated gap keeps the °F gap (at a stated
 *   limit, which means the limit itself, a gap whose °C figure is within 0.09 °F of exact can
 *   fall short; the thermostats' gaps of 2–5 °F keep a wide enough margin).
 * - An entry is accepted exactly when it lies within the stated range (inclusive, compared as
 *   the figures shown), at any number of decimals. It then converts exactly and is rounded to
 *   the service's 0.01 °F and clamped into the °F range, so it never leaves the range.
 * - An entry equal to how the value being edited is shown means exactly that °F value (what the
 *   manager saw comes back unchanged), and one equal to a stated limit means that limit.
 */
export type TemperatureUnit = 'F' | 'C';
export type TemperatureRange = { min: number; max: number };

/** Decimals a temperature is shown with in each unit (and, in settings forms, typed with). */
export const DECIMALS: Record<TemperatureUnit, number> = { F: 2, C: 1 };

/** The service takes °F with at most two decimals. */
const SERVICE_DECIMALS = 2;

/** Float noise in unit conversion; far below any step a person can type. */
const EPSILON = 1e-9;

const roundNearest = (value: number, decimals: number) =>
  Math.round(value * 10 ** decimals) / 10 ** decimals;
const roundUp = (value: number, decimals: number) =>
  Math.ceil(value * 10 ** decimals - EPSILON) / 10 ** decimals;
const roundDown = (value: number, decimals: number) =>
  Math.floor(value * 10 ** decimals + EPSILON) / 10 ** decimals;

const fromFahrenheit = (fahrenheit: number, unit: TemperatureUnit) =>
  unit === 'F' ? fahrenheit : ((fahrenheit - 32) * 5) / 9;

/** A °F value as the manager reads it in their unit. */
export function toDisplay(fahrenheit: number, unit: TemperatureUnit): number {
  return roundNearest(fromFahrenheit(fahrenheit, unit), DECIMALS[unit]);
}

export function formatTemperature(
  fahrenheit: number | null | undefined,
  unit: TemperatureUnit,
): string {
  if (fahrenheit === null || fahrenheit === undefined) return '—';
  return `${toDisplay(fahrenheit, unit)} °${unit}`;
}

/**
 * A °F range as stated to the manager: each limit to the nearest step, as a value is shown. The
 * figures inside it (inclusive) are exactly the entries accepted.
 */
export function displayRange(range: TemperatureRange, unit: TemperatureUnit): TemperatureRange {
  return { min: toDisplay(range.min, unit), max: toDisplay(range.max, unit) };
}

/** `7.2 °C to 26.1 °C`: a range of limits, as stated to the manager. */
export function formatRange(
  range: TemperatureRange,
  unit: TemperatureUnit,
  separator = ' to ',
): string {
  const shown = displayRange(range, unit);
  return `${shown.min} °${unit}${separator}${shown.max} °${unit}`;
}

/** A minimum °F difference (not a temperature) in the manager's unit, rounded up. */
export function displayDelta(fahrenheitDelta: number, unit: TemperatureUnit): number {
  const delta = unit === 'F' ? fahrenheitDelta : (fahrenheitDelta * 5) / 9;
  return roundUp(delta, DECIMALS[unit]);
}

export function formatDelta(fahrenheitDelta: number, unit: TemperatureUnit): string {
  return `${displayDelta(fahrenheitDelta, unit)} °${unit}`;
}

/** The exact °F of a value in `unit`, unrounded. */
export function toFahrenheit(value: number, unit: TemperatureUnit): number {
  return unit === 'F' ? value : (value * 9) / 5 + 32;
}

/**
 * The °F to send for `entered` (typed in `unit`), or null when it is outside `range` (°F) as
 * stated (see `displayRange`). `current` is the stored value being edited: entering it as shown
 * keeps it exactly, even if the range has since narrowed (an unchanged value is not the manager's
 * choice to defend).
 */
export function toServiceFahrenheit(
  entered: number,
  unit: TemperatureUnit,
  range: TemperatureRange,
  current?: number,
): number | null {
  if (!Number.isFinite(entered)) return null;
  if (current !== undefined && toDisplay(current, unit) === entered) return current;

  const stated = displayRange(range, unit);
  if (entered < stated.min || entered > stated.max) return null;
  // The range ends as the service can hold them (two decimals, inward).
  const min = roundUp(range.min, SERVICE_DECIMALS);
  const max = roundDown(range.max, SERVICE_DECIMALS);
  if (entered === stated.min) return min;
  if (entered === stated.max) return max;
  return Math.min(max, Math.max(min, roundNearest(toFahrenheit(entered, unit), SERVICE_DECIMALS)));
}
