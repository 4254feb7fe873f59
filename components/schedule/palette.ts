/**
 * One colour per comfort setting of a thermostat, by its position in the thermostat's list (at
 * most 16), so that custom refs get colours too. Colours only mark blocks; every block's label
 * and the legend name the setting, so colour is never the only cue.
 */
const PALETTE = [
  '#f59e0b',
  '#94a3b8',
  '#6366f1',
  '#14b8a6',
  '#ec4899',
  '#84cc16',
  '#0ea5e9',
  '#f97316',
  '#a855f7',
  '#10b981',
  '#ef4444',
  '#eab308',
  '#06b6d4',
  '#d946ef',
  '#78716c',
  '#22c55e',
] as const;

/** For a ref the schedule names but the thermostat does not list. */
export const UNKNOWN_COLOR = '#e2e8f0';

export function colorAt(index: number): string {
  return PALETTE[index % PALETTE.length] ?? UNKNOWN_COLOR;
}
