import {
  CONFIGURATION_FIELDS,
  type ConfigurationField,
  validateConfiguration,
} from '@/lib/settings/configuration';
import { SMALLEST_HEAT_COOL_GAP } from '../schema';
import { INCLUDE_FIELDS } from './fields';
import type { FormReader } from './reader';
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

/** Configuration: the fields of a bulk change, a blank one left as each thermostat has it. */
export function parseConfiguration({ unit, add, text, checked, exact }: FormReader) {
  if (!checked(INCLUDE_FIELDS.configuration)) return undefined;
  const entered = Object.fromEntries(
    CONFIGURATION_FIELDS.map((field) => [field, text(field)]),
  ) as Record<ConfigurationField, string>;
  const result = validateConfiguration(entered, {
    unit,
    heatCoolMinDelta: SMALLEST_HEAT_COOL_GAP,
  });
  if (!result.ok) {
    for (const [field, messages] of Object.entries(result.fieldErrors)) {
      for (const message of messages ?? [])
        add(field === 'form' ? 'configuration' : field, message);
    }
    return undefined;
  }
  const { heatRange, coolRange, holdAction, fanMinimumOnTime } = result.changes;
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
}
