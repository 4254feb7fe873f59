import { z } from 'zod';
import type { ComfortSettingFields } from '@/lib/service/resources';
import { FAN_VALUES } from '@/lib/service/schemas';
import {
  displayDelta,
  displayRange,
  type TemperatureUnit,
  toServiceFahrenheit,
} from '@/lib/platform/units';
import type { SetpointRules } from './setpoint-rules';

/**
 * The comfort-setting schemas the actions validate with (and the unit tests test): the form's
 * own checks first, then one thermostat's rules. Input is what a form posts, as strings.
 */

const temperatureField = (label: string) =>
  z
    .string({ error: `Enter the ${label} setpoint.` })
    .trim()
    .min(1, `Enter the ${label} setpoint.`)
    .transform((value) => value.replace(',', '.'))
    .pipe(
      z
        .string()
        .regex(/^-?\d{1,3}(\.\d+)?$/, 'Enter a number, such as 70 or 21.5.')
        .transform(Number),
    );

const fanField = (label: string) =>
  z.enum(FAN_VALUES, { error: `Choose the ${label} fan: auto or on.` });

/** The form's own checks, needing nothing from the service: run first, before any call. */
export const comfortSettingFormSchema = z.object({
  name: z
    .string({ error: 'Enter a name.' })
    .trim()
    .min(1, 'Enter a name.')
    .max(32, 'Use at most 32 characters.'),
  desiredHeat: temperatureField('heat'),
  desiredCool: temperatureField('cool'),
  fanHeat: fanField('heating'),
  fanCool: fanField('cooling'),
});

export type ComfortSettingField = keyof z.input<typeof comfortSettingFormSchema>;
export const COMFORT_FIELDS: ComfortSettingField[] = [
  'name',
  'desiredHeat',
  'desiredCool',
  'fanHeat',
  'fanCool',
];

export type ComfortSettingContext = SetpointRules & {
  unit: TemperatureUnit;
  /** The thermostat's other settings: names must be unique among them (case-insensitive). */
  others: { comfortSettingRef: string; name: string }[];
  /** When editing: the stored setting, whose unchanged setpoints are kept exactly. */
  current?: { comfortSettingRef: string; desiredHeat: number; desiredCool: number };
};

/**
 * The full check for one thermostat: its ranges and minimum gap, unique names, and the
 * conversion to °F. Output is what the service takes.
 */
export function comfortSettingRulesSchema(context: ComfortSettingContext) {
  const { unit, current } = context;
  const heatShown = displayRange(context.heatRange, unit);
  const coolShown = displayRange(context.coolRange, unit);
  const deltaShown = displayDelta(context.heatCoolMinDelta, unit);
  return comfortSettingFormSchema.transform((values, ctx): ComfortSettingFields => {
    const fail = (path: ComfortSettingField, message: string) => {
      ctx.issues.push({ code: 'custom', path: [path], message, input: values[path] });
    };
    const clash = context.others.find(
      (other) =>
        other.comfortSettingRef !== current?.comfortSettingRef &&
        other.name.trim().toLowerCase() === values.name.toLowerCase(),
    );
    if (clash) fail('name', `Another comfort setting is already called ${clash.name}.`);

    // An unchanged field keeps its stored °F value exactly, whatever the display rounding.
    const heat = toServiceFahrenheit(
      values.desiredHeat,
      unit,
      context.heatRange,
      current?.desiredHeat,
    );
    const cool = toServiceFahrenheit(
      values.desiredCool,
      unit,
      context.coolRange,
      current?.desiredCool,
    );
    if (heat === null)
      fail('desiredHeat', `Heat must be between ${heatShown.min} and ${heatShown.max} °${unit}.`);
    if (cool === null)
      fail('desiredCool', `Cool must be between ${coolShown.min} and ${coolShown.max} °${unit}.`);
    if (heat !== null && cool !== null && cool - heat < context.heatCoolMinDelta - 1e-9)
      fail('desiredCool', `Cool must be at least ${deltaShown} °${unit} above heat.`);
    if (heat === null || cool === null || ctx.issues.length > 0) return z.NEVER;
    return {
      name: values.name,
      desiredHeat: heat,
      desiredCool: cool,
      fanHeat: values.fanHeat,
      fanCool: values.fanCool,
    };
  });
}

/** The fields of `next` that differ from `current` (what an edit sends). */
export function changedFields(
  current: Record<keyof ComfortSettingFields, unknown>,
  next: ComfortSettingFields,
): Partial<ComfortSettingFields> {
  const changes: Partial<ComfortSettingFields> = {};
  for (const key of Object.keys(next) as (keyof ComfortSettingFields)[]) {
    if (next[key] !== current[key]) Object.assign(changes, { [key]: next[key] });
  }
  return changes;
}
