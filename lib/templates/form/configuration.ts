import { z } from 'zod';
import { toDisplay } from '@/lib/platform/units';
import { CONFIGURATION_FIELDS, configurationSchema } from '@/lib/settings/configuration';
import { readNumber } from '@/lib/settings/form-data';
import { SMALLEST_HEAT_COOL_GAP } from '../schema';
import { INCLUDE_FIELDS } from './fields';
import { postedField, type SectionContext } from './section';
import type { TemplateDraft } from './types';
import type { FormWriter } from './writer';

/**
 * The configuration section: the fields of a thermostat's own configuration form, by the same
 * names (so their checks and error placement are reused).
 */

export function configurationValues(
  draft: TemplateDraft,
  { values, tick, temperature }: FormWriter,
) {
  const configuration = draft.configuration;
  values[INCLUDE_FIELDS.configuration] = tick(configuration !== undefined);
  temperature('heatMin', configuration?.heatRange?.min);
  temperature('heatMax', configuration?.heatRange?.max);
  temperature('coolMin', configuration?.coolRange?.min);
  temperature('coolMax', configuration?.coolRange?.max);
  values.holdAction = configuration?.holdAction ?? '';
  values.fanMinimumOnTime =
    configuration?.fanMinimumOnTime === undefined ? '' : String(configuration.fanMinimumOnTime);
}

/**
 * The fields as typed, kept apart from what the configuration form's schema reads from them (an
 * intersection merges the two, even where that schema refused a field).
 */
const typedFields = z
  .object(
    Object.fromEntries(CONFIGURATION_FIELDS.map((field) => [field, postedField])) as Record<
      (typeof CONFIGURATION_FIELDS)[number],
      typeof postedField
    >,
  )
  .transform((typed) => ({ typed }));

/**
 * Configuration: the configuration form's schema for a bulk change (a blank field left as each
 * thermostat has it), then each temperature left as it was shown kept at its exact °F.
 */
export function configurationSectionSchema({ unit, originals }: SectionContext) {
  const checked = configurationSchema({ unit, heatCoolMinDelta: SMALLEST_HEAT_COOL_GAP });
  return z.intersection(checked, typedFields).transform(({ changes, typed }) => {
    const exact = (field: keyof typeof typed, fahrenheit: number) => {
      const original = originals[field];
      const entered = readNumber(typed[field]);
      return original !== undefined &&
        entered !== undefined &&
        toDisplay(original, unit) === entered
        ? original
        : fahrenheit;
    };
    const { heatRange, coolRange, holdAction, fanMinimumOnTime } = changes;
    return {
      ...(heatRange && {
        heatRange: { min: exact('heatMin', heatRange.min), max: exact('heatMax', heatRange.max) },
      }),
      ...(coolRange && {
        coolRange: { min: exact('coolMin', coolRange.min), max: exact('coolMax', coolRange.max) },
      }),
      ...(holdAction && { holdAction }),
      ...(fanMinimumOnTime !== undefined && { fanMinimumOnTime }),
    };
  });
}
