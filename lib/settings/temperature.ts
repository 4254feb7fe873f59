import { type TemperatureUnit, toDisplay } from '@/lib/units';

/**
 * Temperatures as a manager types them, and back to what the service takes (°F, at most two
 * decimals). The one place a °C entry becomes °F: a °C figure that is how a value was shown
 * (a device limit, the current setting) means exactly that value, so rounding for display never
 * pushes a value out of range on its way back.
 */

/** The device limits of the sandbox contract (°F). */
export const DEVICE_LIMITS = {
  heat: { min: 45, max: 79 },
  cool: { min: 65, max: 92 },
} as const;

export type Range = { min: number; max: number };

/** A value as the manager reads it in their unit. */
export function shownValue(fahrenheit: number, unit: TemperatureUnit): number {
  return toDisplay(fahrenheit, unit);
}

/** A temperature difference (not a temperature) in the manager's unit. */
export function shownDelta(fahrenheitDelta: number, unit: TemperatureUnit): number {
  return unit === 'F'
    ? Math.round(fahrenheitDelta * 100) / 100
    : Math.round(((fahrenheitDelta * 5) / 9) * 10) / 10;
}

export function formatShown(fahrenheit: number, unit: TemperatureUnit): string {
  return `${shownValue(fahrenheit, unit)} °${unit}`;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * °F for a value entered in `unit`. `anchors` are exact °F values (limits, the current value):
 * an entry equal to how one of them is shown returns that anchor unchanged.
 */
export function toFahrenheit(
  entered: number,
  unit: TemperatureUnit,
  anchors: readonly number[] = [],
): number {
  for (const anchor of anchors) if (shownValue(anchor, unit) === entered) return anchor;
  if (unit === 'F') return round2(entered);
  return round2((entered * 9) / 5 + 32);
}

/** A number typed into a form: finite, or undefined when blank; NaN when not a number. */
export function readNumber(raw: unknown): number | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const text = raw.trim();
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return Number.NaN;
  return Number(text);
}

/** How many decimals a manager may type in their unit (°C is shown to one decimal). */
export const DECIMALS: Record<TemperatureUnit, number> = { F: 2, C: 1 };

export function hasAtMostDecimals(value: number, decimals: number): boolean {
  const scaled = value * 10 ** decimals;
  return Math.abs(Math.round(scaled) - scaled) < 1e-6;
}
