/** The service speaks Fahrenheit; managers may read Celsius. Display only: writes convert back exactly. */
export type TemperatureUnit = 'F' | 'C';

export function toDisplay(fahrenheit: number, unit: TemperatureUnit): number {
  if (unit === 'F') return Math.round(fahrenheit * 100) / 100;
  return Math.round((((fahrenheit - 32) * 5) / 9) * 10) / 10;
}

export function formatTemperature(
  fahrenheit: number | null | undefined,
  unit: TemperatureUnit,
): string {
  if (fahrenheit === null || fahrenheit === undefined) return '—';
  return `${toDisplay(fahrenheit, unit)} °${unit}`;
}
