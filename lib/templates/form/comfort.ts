import { z } from 'zod';
import { ACROSS_FIELDS, passedFields } from '@/lib/platform/forms';
import { formatDelta, formatRange, formatTemperature } from '@/lib/platform/units';
import { DEVICE_LIMITS } from '@/lib/service/schemas';
import { nameKey, SMALLEST_HEAT_COOL_GAP, type Template, templateSchema } from '../schema';
import { type ComfortColumn, comfortField, INCLUDE_FIELDS } from './fields';
import { fieldOfPath } from './paths';
import { postedField, type SectionContext, temperatureField, templateSays } from './section';
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

/** The rows a post names (`comfort.<row>.<column>`), in order: the section reads those. */
export function comfortRowsPosted(fields: Iterable<string>): number[] {
  const rows = new Set<number>();
  for (const field of fields) {
    const match = /^comfort\.(\d{1,2})\.[a-zA-Z]+$/.exec(field);
    if (match) rows.add(Number(match[1]));
  }
  return [...rows].sort((a, b) => a - b);
}

type Setting = {
  name: string;
  desiredHeat?: number;
  desiredCool?: number;
  fanHeat: string;
  fanCool: string;
};

/**
 * The comfort settings section: the rows posted (`rows`, from `comfortRowsPosted`) with anything
 * typed, in order, and the row each came from; each inside the template's own ranges
 * (`configuration`, as its section gave them).
 */
export function comfortSettingsSchema({
  rows,
  configuration,
  ...context
}: SectionContext & {
  rows: readonly number[];
  configuration?: Pick<NonNullable<Template['configuration']>, 'heatRange' | 'coolRange'>;
}) {
  const { unit } = context;
  const shape = Object.fromEntries(
    rows.flatMap((row) => {
      const field = (column: ComfortColumn) => comfortField(row, column);
      return [
        [field('name'), postedField],
        [
          field('desiredHeat'),
          temperatureField(context, field('desiredHeat'), DEVICE_LIMITS.heat, 'heat setpoint'),
        ],
        [
          field('desiredCool'),
          temperatureField(context, field('desiredCool'), DEVICE_LIMITS.cool, 'cool setpoint'),
        ],
        [field('fanHeat'), postedField],
        [field('fanCool'), postedField],
      ];
    }),
  ) as Record<string, z.ZodType<unknown, unknown>>;
  return z
    .object(shape)
    .superRefine((values, ctx) => {
      const { passed, refused } = passedFields(values, ctx);
      const fail = (field: string, message: string) =>
        ctx.addIssue({ code: 'custom', path: [field], message });
      const typed = (field: string) => passed[field] !== undefined || refused(field);
      const { settings, rowOf } = settingsOf(rows, passed, typed);
      const names = new Map<string, number>();
      settings.forEach(({ name, desiredHeat: heat, desiredCool: cool }, index) => {
        const row = rowOf[index] ?? index;
        const field = (column: ComfortColumn) => comfortField(row, column);
        if (!name) fail(field('name'), 'Name the comfort setting, or clear its row.');
        if (!typed(field('desiredHeat'))) fail(field('desiredHeat'), 'Enter the heat setpoint.');
        if (!typed(field('desiredCool'))) fail(field('desiredCool'), 'Enter the cool setpoint.');
        if (heat !== undefined && cool !== undefined && cool - heat < SMALLEST_HEAT_COOL_GAP) {
          fail(
            field('desiredCool'),
            `Cool must be at least ${formatDelta(SMALLEST_HEAT_COOL_GAP, unit)} above heat (${formatTemperature(heat, unit)}) on every thermostat.`,
          );
        }
        const earlier = names.get(nameKey(name));
        if (name && earlier !== undefined) {
          fail(
            field('name'),
            `The name is already used by comfort setting ${earlier + 1} (names ignore case).`,
          );
        } else if (name) names.set(nameKey(name), row);
      });
      // The template's own settings inside its own ranges, said in the member's unit.
      settings.forEach((setting, index) => {
        const row = rowOf[index] ?? index;
        for (const [kind, range] of [
          ['Heat', configuration?.heatRange],
          ['Cool', configuration?.coolRange],
        ] as const) {
          const value = kind === 'Heat' ? setting.desiredHeat : setting.desiredCool;
          if (!range || value === undefined || (value >= range.min && value <= range.max)) continue;
          fail(
            comfortField(row, kind === 'Heat' ? 'desiredHeat' : 'desiredCool'),
            `${kind} must be within this template’s ${kind.toLowerCase()} range, ${formatRange(range, unit)}.`,
          );
        }
      });
      templateSays(ctx, templateSchema.shape.comfortSettings, settings, (path) =>
        fieldOfPath(['comfortSettings', ...path], rowOf),
      );
    }, ACROSS_FIELDS)
    .transform((values) => settingsOf(rows, values, (field) => values[field] !== undefined));
}

/**
 * The rows with a name or a setpoint typed, as settings as far as they were read (`values`),
 * and the row each came from.
 */
function settingsOf(
  rows: readonly number[],
  values: Partial<Record<string, unknown>>,
  typed: (field: string) => boolean,
): { settings: Setting[]; rowOf: number[] } {
  const settings: Setting[] = [];
  const rowOf: number[] = [];
  for (const row of rows) {
    const field = (column: ComfortColumn) => values[comfortField(row, column)];
    const name = String(field('name') ?? '').trim();
    const heat = comfortField(row, 'desiredHeat');
    const cool = comfortField(row, 'desiredCool');
    if (!name && !typed(heat) && !typed(cool)) continue;
    rowOf.push(row);
    settings.push({
      name,
      desiredHeat: field('desiredHeat') as number | undefined,
      desiredCool: field('desiredCool') as number | undefined,
      fanHeat: String(field('fanHeat') ?? '') || 'auto',
      fanCool: String(field('fanCool') ?? '') || 'auto',
    });
  }
  return { settings, rowOf };
}
