import { z } from 'zod';
import type { SettingsChanges } from '@/lib/service/resources';
import { DEFAULT_HEAT_COOL_MIN_DELTA, DEVICE_LIMITS, HOLD_ACTIONS } from '@/lib/service/schemas';
import { ACROSS_FIELDS, passedFields } from '@/lib/platform/forms';
import {
  formatDelta,
  formatRange,
  formatTemperature,
  type TemperatureRange as Range,
  type TemperatureUnit,
  toDisplay,
} from '@/lib/platform/units';
import { checkedBy, closerThan, temperature, typedField, wholeNumber } from './form-data';

/**
 * Configuration settings (ranges, hold action, fan minimum on-time) as a manager edits them, for
 * one thermostat (every field filled in, compared with the current settings) and for a bulk
 * change (a blank field is left as each thermostat has it). Checked here, before anything is
 * sent: numbers, the device limits, min below max, the heat-cool gap.
 */

export const CONFIGURATION_FIELDS = [
  'heatMin',
  'heatMax',
  'coolMin',
  'coolMax',
  'holdAction',
  'fanMinimumOnTime',
] as const;
export type ConfigurationField = (typeof CONFIGURATION_FIELDS)[number];
export type ConfigurationInput = Partial<Record<ConfigurationField, string | undefined>>;
export type ConfigurationErrors = Partial<Record<ConfigurationField | 'form', string[]>>;

export type HoldAction = (typeof HOLD_ACTIONS)[number];

/** Every hold action in words: what happens after someone changes the temperature at the device. */
export const HOLD_ACTION_TEXT: Record<string, { label: string; description: string }> = {
  nextTransition: {
    label: 'Until the next scheduled period',
    description:
      'A change lasts until the schedule moves to its next comfort setting (e.g. from Home to Sleep).',
  },
  '2hour': {
    label: 'Hold for 2 hours',
    description: 'A change made at the thermostat lasts two hours; then the schedule resumes.',
  },
  '4hour': {
    label: 'Hold for 4 hours',
    description: 'A change made at the thermostat lasts four hours; then the schedule resumes.',
  },
  indefinite: {
    label: 'Indefinitely',
    description:
      'A change lasts until someone resumes the schedule. The schedule is ignored meanwhile.',
  },
  askMe: {
    label: 'Ask each time',
    description: 'The thermostat asks the person changing the temperature how long to hold it.',
  },
};

export function describeHoldAction(value: string): string {
  return HOLD_ACTION_TEXT[value]?.label ?? value;
}

export const FAN_MINIMUM_ON_TIME = { min: 0, max: 55 } as const;

export { DEFAULT_HEAT_COOL_MIN_DELTA } from '@/lib/service/schemas';

/**
 * The minimum heat–cool gap a thermostat's ranges must keep (°F): its own, from a read of its
 * status or else the last status the readings store kept (`kept`); the service's default only
 * where neither says it. One rule for one thermostat and for many (`heatCoolGapRule`).
 */
export const heatCoolGapOf = (
  status: PromiseSettledResult<{ heatCoolMinDelta: number }>,
  kept?: number | null,
) =>
  status.status === 'fulfilled'
    ? status.value.heatCoolMinDelta
    : (kept ?? DEFAULT_HEAT_COOL_MIN_DELTA);

/**
 * The gap a change to many thermostats keeps: the largest of their own gaps (the default for one
 * not yet read), so that it keeps each one's. `holders` are the thermostats that need it (those
 * whose own gap it is, when any is known), for the words that say why.
 */
export type HeatCoolGapRule = { gap: number; holders: readonly string[]; assumed: boolean };

export function heatCoolGapRule(
  thermostats: readonly { label: string; gap: number | null }[],
): HeatCoolGapRule {
  const own = (gap: number | null) => gap ?? DEFAULT_HEAT_COOL_MIN_DELTA;
  if (thermostats.length === 0) {
    return { gap: DEFAULT_HEAT_COOL_MIN_DELTA, holders: [], assumed: true };
  }
  const gap = Math.max(...thermostats.map((t) => own(t.gap)));
  const needing = thermostats.filter((t) => own(t.gap) === gap);
  const known = needing.filter((t) => t.gap !== null);
  return {
    gap,
    holders: (known.length > 0 ? known : needing).map((t) => t.label),
    assumed: known.length === 0,
  };
}

/**
 * Why a change to many thermostats keeps this gap, in words: "4 °F is the largest minimum
 * heat–cool gap among the selected thermostats (Unit 12)."
 */
export function heatCoolGapWords(rule: HeatCoolGapRule, unit: TemperatureUnit): string {
  const gap = formatDelta(rule.gap, unit);
  const [first] = rule.holders;
  const more = rule.holders.length - 1;
  if (first === undefined) return `Setpoint assumes the service’s default minimum gap of ${gap}.`;
  const who = more > 0 ? `${first} and ${more} more` : first;
  return rule.assumed
    ? `${who} ${more > 0 ? 'have' : 'has'} not been read yet, so the service’s default minimum gap of ${gap} is assumed.`
    : `${gap} is the largest minimum heat–cool gap among the selected thermostats (${who}).`;
}

/**
 * The gap rule as the bulk form states it before anything is selected, over the thermostats the
 * member may choose: their one gap where they share it ("3 °F"), else the rule with its span.
 */
export function heatCoolGapRange(gaps: readonly (number | null)[], unit: TemperatureUnit): string {
  const own = [...new Set(gaps.map((gap) => gap ?? DEFAULT_HEAT_COOL_MIN_DELTA))].sort(
    (a, b) => a - b,
  );
  const [low] = own;
  const high = own.at(-1);
  if (low === undefined || high === undefined || low === high) {
    return formatDelta(low ?? DEFAULT_HEAT_COOL_MIN_DELTA, unit);
  }
  return `the largest minimum heat–cool gap among the selected thermostats (${formatDelta(low, unit)} to ${formatDelta(high, unit)} across yours)`;
}

export type CurrentSettings = {
  heatRange: Range;
  coolRange: Range;
  holdAction: string;
  fanMinimumOnTime: number;
};

export type ConfigurationResult =
  | { ok: true; changes: SettingsChanges }
  | { ok: false; fieldErrors: ConfigurationErrors };

export type ConfigurationOptions = {
  unit: TemperatureUnit;
  heatCoolMinDelta: number;
  /** One thermostat: its settings now (every field is then required). Bulk: absent. */
  current?: CurrentSettings;
  /**
   * Why the gap is `heatCoolMinDelta`, ending the gap's errors (a bulk change's
   * `heatCoolGapWords`); by default, that heat and cool setpoints must stay that far apart.
   */
  gapWords?: string;
};

/**
 * The configuration form's schema: what it gives is the changes to send (for one thermostat,
 * only what differs from `current`).
 */
export function configurationSchema(options: ConfigurationOptions) {
  const { unit, current } = options;
  const degrees = (fahrenheit: number) => formatTemperature(fahrenheit, unit);
  // Each temperature: a number, in the manager's unit, within the device's limits.
  const limit = (kind: 'heat' | 'cool', end: 'min' | 'max') =>
    typedField(
      temperature({
        unit,
        limits: DEVICE_LIMITS[kind],
        kept: current?.[`${kind}Range`][end],
        example: '68',
        limitsNote: ` (the device’s ${kind} limits)`,
      }),
      current && 'Enter a temperature.',
    );
  return z
    .object({
      heatMin: limit('heat', 'min'),
      heatMax: limit('heat', 'max'),
      coolMin: limit('cool', 'min'),
      coolMax: limit('cool', 'max'),
      // One the service takes, or null: left as it is (even one the service added since).
      holdAction: typedField(
        z
          .string()
          .transform((action) => (action === current?.holdAction ? null : action))
          .pipe(z.enum(HOLD_ACTIONS, 'Choose one of the hold actions listed.').nullable()),
        current && 'Choose a hold action.',
      ),
      // Whole minutes per hour, 0-55.
      fanMinimumOnTime: typedField(
        wholeNumber(FAN_MINIMUM_ON_TIME, 'Enter whole minutes from 0 to 55.'),
        current && 'Enter the minutes per hour (0 to 55).',
      ),
    })
    .superRefine((values, ctx) => {
      const { passed, refused } = passedFields(values, ctx);
      const fail = (field: ConfigurationField, message: string) =>
        ctx.addIssue({ code: 'custom', path: [field], message });
      // Each range: both ends (or, in bulk, neither), min below max.
      const ranges: Partial<Record<'heat' | 'cool', Range>> = {};
      for (const kind of ['heat', 'cool'] as const) {
        const minField = `${kind}Min` as const;
        const maxField = `${kind}Max` as const;
        const min = passed[minField];
        const max = passed[maxField];
        if (!current) {
          const typed = [minField, maxField].map((f) => passed[f] !== undefined || refused(f));
          if (typed[0] !== typed[1]) {
            fail(
              typed[0] ? maxField : minField,
              'Enter both the minimum and the maximum, or neither.',
            );
            continue;
          }
        }
        if (min === undefined || max === undefined) continue;
        if (min >= max) {
          fail(minField, `Must be lower than the maximum (${degrees(max)}).`);
          continue;
        }
        ranges[kind] = { min, max };
      }
      // The ranges together leave every setpoint a partner at least heatCoolMinDelta away.
      const { heat, cool } = ranges;
      if (!heat || !cool) return;
      const delta = options.heatCoolMinDelta;
      const gap = formatDelta(delta, unit);
      const why = options.gapWords ?? `heat and cool setpoints must stay ${gap} apart.`;
      if (closerThan(delta, heat.min, cool.min)) {
        fail(
          'coolMin',
          `Keep the cool minimum at least ${gap} above the heat minimum (${degrees(heat.min)}): ${why}`,
        );
      }
      if (closerThan(delta, heat.max, cool.max)) {
        fail(
          'coolMax',
          `Keep the cool maximum at least ${gap} above the heat maximum (${degrees(heat.max)}): ${why}`,
        );
      }
    }, ACROSS_FIELDS)
    .transform((values) => {
      const range = (min: number | undefined, max: number | undefined) =>
        min === undefined || max === undefined ? undefined : { min, max };
      const heat = range(values.heatMin, values.heatMax);
      const cool = range(values.coolMin, values.coolMax);
      const fan = values.fanMinimumOnTime;
      const changes: SettingsChanges = {};
      if (heat && !(current && sameRange(heat, current.heatRange))) changes.heatRange = heat;
      if (cool && !(current && sameRange(cool, current.coolRange))) changes.coolRange = cool;
      if (values.holdAction) changes.holdAction = values.holdAction;
      if (fan !== undefined && fan !== current?.fanMinimumOnTime) changes.fanMinimumOnTime = fan;
      return { changes };
    });
}

export function validateConfiguration(
  input: ConfigurationInput,
  options: ConfigurationOptions,
): ConfigurationResult {
  return checkedBy<ConfigurationField, { changes: SettingsChanges }>(
    configurationSchema(options),
    input,
  );
}

const sameRange = (a: Range, b: Range) => a.min === b.min && a.max === b.max;

/** The service's field paths (`heatRange.min`, `heatRange`) as the form's fields. */
/** The configuration form's field for a field path in the service's validation answer. */
export function configurationFieldOf(path: string): ConfigurationField | 'form' {
  const map: Record<string, ConfigurationField> = {
    'heatRange.min': 'heatMin',
    'heatRange.max': 'heatMax',
    heatRange: 'heatMin',
    'coolRange.min': 'coolMin',
    'coolRange.max': 'coolMax',
    coolRange: 'coolMin',
    holdAction: 'holdAction',
    fanMinimumOnTime: 'fanMinimumOnTime',
  };
  return map[path] ?? 'form';
}

/**
 * What a change does, in words, for the activity log: stored in °F, the service's unit, and
 * worded again in a reader's own when the log is read (lib/activity-log/view.ts).
 */
export function describeSettingsChanges(
  changes: SettingsChanges,
  unit: TemperatureUnit = 'F',
): string[] {
  const parts: string[] = [];
  // Each end a temperature with its own unit: "heat range 60 °F to 75 °F".
  if (changes.heatRange) parts.push(`heat range ${formatRange(changes.heatRange, unit)}`);
  if (changes.coolRange) parts.push(`cool range ${formatRange(changes.coolRange, unit)}`);
  if (changes.holdAction) parts.push(`hold action ${describeHoldAction(changes.holdAction)}`);
  if (changes.fanMinimumOnTime !== undefined)
    parts.push(`fan minimum on-time ${changes.fanMinimumOnTime} min/h`);
  return parts;
}

/** The form's starting values, in the manager's unit. */
export function configurationFormValues(
  current: CurrentSettings,
  unit: TemperatureUnit,
): Record<ConfigurationField, string> {
  return {
    heatMin: String(toDisplay(current.heatRange.min, unit)),
    heatMax: String(toDisplay(current.heatRange.max, unit)),
    coolMin: String(toDisplay(current.coolRange.min, unit)),
    coolMax: String(toDisplay(current.coolRange.max, unit)),
    holdAction: current.holdAction,
    fanMinimumOnTime: String(current.fanMinimumOnTime),
  };
}

/** Each change as `{ from, to }` (°F), for the activity log. */
export function settingsDiff(
  current: CurrentSettings,
  changes: SettingsChanges,
): Record<string, { from: unknown; to: unknown }> {
  const diff: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of ['heatRange', 'coolRange', 'holdAction', 'fanMinimumOnTime'] as const) {
    if (changes[key] !== undefined) diff[key] = { from: current[key], to: changes[key] };
  }
  return diff;
}
