import type { CurrentSettings } from '@/lib/settings/configuration';
import type { SettingsChanges } from '@/lib/service/resources';
import type { TemperatureUnit } from '@/lib/platform/units';
import type { ComfortMatch } from '../comfort-match';
import type { Template } from '../schema';
import { configurationLines, type PlanProblem } from '../words';
import { settingsAfter } from './comfort';
import { count, linesInUnits, need } from './shared';
import type { SectionDiff, TemplateOperation, ThermostatState } from './types';

type Ranges = Pick<CurrentSettings, 'heatRange' | 'coolRange'>;
type Setpoints = { desiredHeat: number; desiredCool: number };

const sameRange = (a: { min: number; max: number }, b: { min: number; max: number }) =>
  a.min === b.min && a.max === b.max;

/** The template's configuration fields that differ from the thermostat's. */
function configurationChanges(now: CurrentSettings, wanted: Template['configuration']) {
  const changes: SettingsChanges = {};
  if (wanted?.heatRange && !sameRange(wanted.heatRange, now.heatRange))
    changes.heatRange = { ...wanted.heatRange };
  if (wanted?.coolRange && !sameRange(wanted.coolRange, now.coolRange))
    changes.coolRange = { ...wanted.coolRange };
  if (wanted?.holdAction !== undefined && wanted.holdAction !== now.holdAction)
    changes.holdAction = wanted.holdAction;
  if (wanted?.fanMinimumOnTime !== undefined && wanted.fanMinimumOnTime !== now.fanMinimumOnTime)
    changes.fanMinimumOnTime = wanted.fanMinimumOnTime;
  return changes;
}

const fits = (settings: readonly Setpoints[], ranges: Ranges): boolean =>
  settings.every(
    ({ desiredHeat: heat, desiredCool: cool }) =>
      heat >= ranges.heatRange.min &&
      heat <= ranges.heatRange.max &&
      cool >= ranges.coolRange.min &&
      cool <= ranges.coolRange.max,
  );

const union = (a: { min: number; max: number }, b: { min: number; max: number }) => ({
  min: Math.min(a.min, b.min),
  max: Math.max(a.max, b.max),
});

/**
 * The service refuses a range that leaves an existing comfort setting outside it, and a
 * setpoint outside the ranges of the moment. So the new ranges go first when today's settings
 * fit them, last when the new setpoints fit today's ranges, and otherwise in two steps: widened
 * to hold both before the comfort settings change, narrowed after.
 */
export function configurationPart(
  template: Template,
  current: ThermostatState,
  match: ComfortMatch | undefined,
  unit: TemperatureUnit,
  problems: PlanProblem[],
) {
  if (!template.configuration && !template.comfortSettings) return undefined;
  const now = need(current.configuration, 'configuration');
  const changes = configurationChanges(now, template.configuration);
  const final: Ranges = {
    heatRange: changes.heatRange ?? now.heatRange,
    coolRange: changes.coolRange ?? now.coolRange,
  };
  const existing = current.comfortSettings ?? [];
  const after = match ? settingsAfter(existing, match) : existing;
  for (const setting of after) {
    if (!fits([setting], final)) {
      problems.push({
        kind: 'outsideRanges',
        name: setting.name,
        heat: setting.desiredHeat,
        cool: setting.desiredCool,
        heatRange: { ...final.heatRange },
        coolRange: { ...final.coolRange },
      });
    }
  }
  const changed = (match?.changes ?? []).flatMap((change): Setpoints[] =>
    change.kind === 'create'
      ? [change.fields]
      : change.kind === 'update'
        ? [{ ...change.before, ...change.changes }]
        : [],
  );
  const staged = stageConfiguration(now, changes, existing, changed);
  const section: SectionDiff | undefined = template.configuration
    ? {
        section: 'configuration',
        title: 'Configuration',
        summary: `${count(Object.keys(changes).length, 'setting')} to change.`,
        ...linesInUnits(unit, (inUnit) => configurationLines(now, changes, inUnit)),
      }
    : undefined;
  return { ...staged, section };
}

function stageConfiguration(
  now: CurrentSettings,
  changes: SettingsChanges,
  existing: readonly Setpoints[],
  changed: readonly Setpoints[],
): { before: TemplateOperation[]; after: TemplateOperation[] } {
  if (Object.keys(changes).length === 0) return { before: [], after: [] };
  const op = (stage: 'before' | 'after', stageChanges: SettingsChanges): TemplateOperation[] => [
    { kind: 'configuration', stage, changes: stageChanges },
  ];
  const final: Ranges = {
    heatRange: changes.heatRange ?? now.heatRange,
    coolRange: changes.coolRange ?? now.coolRange,
  };
  if (changed.length === 0 || fits(existing, final))
    return { before: op('before', changes), after: [] };
  if (fits(changed, now)) return { before: [], after: op('after', changes) };
  const widened: SettingsChanges = {};
  const narrowed: SettingsChanges = { ...changes };
  for (const key of ['heatRange', 'coolRange'] as const) {
    const target = changes[key];
    if (!target) continue;
    const wide = union(now[key], target);
    if (!sameRange(wide, now[key])) widened[key] = wide;
    if (sameRange(wide, target)) delete narrowed[key];
  }
  return {
    before: Object.keys(widened).length > 0 ? op('before', widened) : [],
    after: Object.keys(narrowed).length > 0 ? op('after', narrowed) : [],
  };
}
