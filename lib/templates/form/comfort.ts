import { formatDelta, formatRange } from '@/lib/platform/units';
import { DEVICE_LIMITS } from '@/lib/service/schemas';
import { nameKey, SMALLEST_HEAT_COOL_GAP, type Template } from '../schema';
import { type ComfortColumn, comfortField, INCLUDE_FIELDS } from './fields';
import type { FormReader } from './reader';
import type { TemplateDraft } from './types';
import type { FormWriter } from './writer';

/** The comfort settings section: a row per setting, `comfort.<row>.<column>`. */

export function comfortValues(draft: TemplateDraft, { values, tick, temperature }: FormWriter) {
  values[INCLUDE_FIELDS.comfortSettings] = tick(draft.comfortSettings !== undefined);
  draft.comfortSettings?.forEach((setting, row) => {
    values[comfortField(row, 'name')] = setting.name;
    temperature(comfortField(row, 'desiredHeat'), setting.desiredHeat);
    temperature(comfortField(row, 'desiredCool'), setting.desiredCool);
    values[comfortField(row, 'fanHeat')] = setting.fanHeat ?? 'auto';
    values[comfortField(row, 'fanCool')] = setting.fanCool ?? 'auto';
  });
}

/**
 * Comfort settings: the rows with anything typed, in order (none unless ticked), and the row
 * each came from.
 */
export function parseComfortSettings(read: FormReader): {
  settings?: Record<string, unknown>[];
  rowOf: number[];
} {
  const { form, unit, add, text, checked, temperature, degrees } = read;
  const rowOf: number[] = [];
  if (!checked(INCLUDE_FIELDS.comfortSettings)) return { rowOf };
  const rows = new Set<number>();
  for (const key of form.keys()) {
    const match = /^comfort\.(\d{1,2})\.[a-zA-Z]+$/.exec(key);
    if (match) rows.add(Number(match[1]));
  }
  const settings: Record<string, unknown>[] = [];
  const names = new Map<string, number>();
  for (const row of [...rows].sort((a, b) => a - b)) {
    const field = (column: ComfortColumn) => comfortField(row, column);
    const name = text(field('name')).trim();
    if (!name && !text(field('desiredHeat')).trim() && !text(field('desiredCool')).trim()) continue;
    if (!name) add(field('name'), 'Name the comfort setting, or clear its row.');
    const heat = temperature(field('desiredHeat'), DEVICE_LIMITS.heat, 'heat setpoint');
    const cool = temperature(field('desiredCool'), DEVICE_LIMITS.cool, 'cool setpoint');
    if (heat !== undefined && cool !== undefined && cool - heat < SMALLEST_HEAT_COOL_GAP) {
      add(
        field('desiredCool'),
        `Cool must be at least ${formatDelta(SMALLEST_HEAT_COOL_GAP, unit)} above heat (${degrees(heat)}) on every thermostat.`,
      );
    }
    const earlier = names.get(nameKey(name));
    if (name && earlier !== undefined) {
      add(
        field('name'),
        `The name is already used by comfort setting ${earlier + 1} (names ignore case).`,
      );
    } else if (name) names.set(nameKey(name), row);
    rowOf.push(row);
    settings.push({
      name,
      desiredHeat: heat,
      desiredCool: cool,
      fanHeat: text(field('fanHeat')) || 'auto',
      fanCool: text(field('fanCool')) || 'auto',
    });
  }
  return { settings, rowOf };
}

/** The template's own settings inside its own ranges, said in the member's unit. */
export function checkComfortInRanges(
  { unit, add }: FormReader,
  settings: { desiredHeat?: number; desiredCool?: number }[] | undefined,
  rowOf: readonly number[],
  configuration: Template['configuration'],
) {
  settings?.forEach((setting, index) => {
    const row = rowOf[index] ?? index;
    for (const [kind, range] of [
      ['Heat', configuration?.heatRange],
      ['Cool', configuration?.coolRange],
    ] as const) {
      const value = kind === 'Heat' ? setting.desiredHeat : setting.desiredCool;
      if (!range || value === undefined || (value >= range.min && value <= range.max)) continue;
      add(
        comfortField(row, kind === 'Heat' ? 'desiredHeat' : 'desiredCool'),
        `${kind} must be within this template’s ${kind.toLowerCase()} range, ${formatRange(range, unit)}.`,
      );
    }
  });
}
