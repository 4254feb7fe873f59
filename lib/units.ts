/**
 * Temperatures between the service, which speaks °F to two decimals, and the manager, who may
 * read and type °C. The one rule, for every form and page:
 *
 * - A value is shown to the nearest step of the manager's unit (°F 0.01, °C 0.1).
 * - A range is stated rounded inward and a minimum gap rounded up, so any figure inside a stated
 *   range, and any pair of figures the stated gap apart, is accepted.
 * - An entry equal to how the value being edited, or a range end, is shown means exactly that
 *   °F value: what the manager saw comes back unchanged, and display rounding never pushes a
 *   value out of range. Any other entry converts exactly, is refused if that exact value is
 *   outside the range, and is then rounded to the service's 0.01 °F, inward at the range ends.
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

/** A °F range as stated to the manager: rounded inward, so every figure inside it is accepted. */
export function displayRange(range: TemperatureRange, unit: TemperatureUnit): TemperatureRange {
  return {
    min: roundUp(fromFahrenheit(range.min, unit), DECIMALS[unit]),
    max: roundDown(fromFahrenheit(range.max, unit), DECIMALS[unit]),
  };
}

/** `7.3 °C to 26.1 °C`: a range of limits, as stated to the manager. */
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
 * The °F to send for `entered` (typed in `unit`), or null when it is outside `range` (°F).
 * `current` is the stored value being edited: entering it as shown keeps it exactly, even if the
 * range has since narrowed (an unchanged value is not the manager's choice to defend).
 */
export function toServiceFahrenheit(
  entered: number,
  unit: TemperatureUnit,
  range: TemperatureRange,
  current?: number,
): number | null {
  // The range ends as the service can hold them (two decimals, inward).
  const min = roundUp(range.min, SERVICE_DECIMALS);
  const max = roundDown(range.max, SERVICE_DECIMALS);
  const shownAs = current === undefined ? [min, max] : [current, min, max];
  for (const fahrenheit of shownAs) if (toDisplay(fahrenheit, unit) === entered) return fahrenheit;

  const exact = toFahrenheit(entered, unit);
  if (!Number.isFinite(exact) || exact < range.min - EPSILON || exact > range.max + EPSILON)
    return null;
  return Math.min(max, Math.max(min, roundNearest(exact, SERVICE_DECIMALS)));
}
