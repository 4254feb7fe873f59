import type { ComfortSetting } from '@/lib/service/schemas';
import type { TemperatureUnit } from '@/lib/platform/units';
import { type ComfortMatch, matchComfortSettings } from '../comfort-match';
import { MAX_COMFORT_SETTINGS, type Template } from '../schema';
import { comfortLines, type PlanProblem } from '../words';
import { count, linesInUnits, need } from './shared';
import type { SectionDiff, TemplateOperation, ThermostatState } from './types';

/** The comfort settings of a plan: each matched by name, then created or changed. */
export function comfortPart(
  template: Template,
  current: ThermostatState,
  unit: TemperatureUnit,
  problems: PlanProblem[],
) {
  // The schedule needs the thermostat's names even when the template defines no settings.
  if (!template.comfortSettings && !template.schedule && !template.scheduleRanges) return undefined;
  const existing = need(current.comfortSettings, 'comfortSettings');
  const match = matchComfortSettings(template.comfortSettings ?? [], existing);
  const operations = match.changes.flatMap((change): TemplateOperation[] => {
    if (change.kind === 'create') return [{ kind: 'createComfortSetting', fields: change.fields }];
    if (change.kind === 'update')
      return [
        { kind: 'updateComfortSetting', comfortSettingRef: change.ref, changes: change.changes },
      ];
    return [];
  });
  const creates = match.changes.filter((change) => change.kind === 'create').length;
  if (existing.length + creates > MAX_COMFORT_SETTINGS) {
    problems.push({
      kind: 'said',
      text: `It has ${existing.length} comfort settings; creating ${creates} more would pass the limit of ${MAX_COMFORT_SETTINGS}.`,
    });
  }
  if (template.comfortSettings) {
    const delta = need(current.heatCoolMinDelta, 'heatCoolMinDelta');
    for (const change of match.changes) {
      const fields = change.kind === 'create' ? change.fields : undefined;
      const updated = change.kind === 'update' ? { ...change.before, ...change.changes } : fields;
      if (updated && updated.desiredCool - updated.desiredHeat < delta) {
        problems.push({
          kind: 'comfortGap',
          name: change.name,
          heat: updated.desiredHeat,
          cool: updated.desiredCool,
          gap: delta,
        });
      }
    }
  }
  const updates = match.changes.filter((change) => change.kind === 'update').length;
  const section: SectionDiff = {
    section: 'comfortSettings',
    title: 'Comfort settings',
    summary: `${count(creates, 'comfort setting')} to create, ${updates} to change.`,
    ...linesInUnits(unit, (inUnit) => comfortLines(match.changes, inUnit)),
  };
  return { match, operations, section };
}

/** Every comfort setting as it will be once the comfort operations ran. */
export function settingsAfter(existing: readonly ComfortSetting[], match: ComfortMatch) {
  const updated = new Map(
    match.changes.flatMap((change) => (change.kind === 'update' ? [[change.ref, change]] : [])),
  );
  return [
    ...existing.map((setting) => {
      const change = updated.get(setting.comfortSettingRef);
      return { ...setting, ...(change?.kind === 'update' ? change.changes : {}) };
    }),
    ...match.changes.flatMap((change) => (change.kind === 'create' ? [change.fields] : [])),
  ];
}
