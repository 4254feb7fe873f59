import type { TemperatureUnit } from '@/lib/platform/units';
import type { DiffLine } from '../words';
import type { SectionDiff, ThermostatState } from './types';

/** What every section's planner uses: the state it needs, its lines in each unit, a count in words. */

export function need<T>(value: T | undefined, what: keyof ThermostatState): T {
  if (value === undefined) throw new Error(`planTemplate: the template needs current.${what}`);
  return value;
}

/** Lines that name temperatures: in the plan's unit, and in each unit for later readers. */
export function linesInUnits(
  unit: TemperatureUnit,
  linesOf: (unit: TemperatureUnit) => DiffLine[],
): Pick<SectionDiff, 'lines' | 'linesIn'> {
  const linesIn = { F: linesOf('F'), C: linesOf('C') };
  const same = JSON.stringify(linesIn.F) === JSON.stringify(linesIn.C);
  return same ? { lines: linesIn[unit] } : { lines: linesIn[unit], linesIn };
}

export const count = (n: number, thing: string) => `${n} ${thing}${n === 1 ? '' : 's'}`;
