import type { ComfortMatch, ComfortSettingTarget } from '../comfort-match';
import { diffSchedule } from '../schedule-diff';
import { nameKey } from '../schema';
import { type PlanProblem, scheduleLines } from '../words';
import { count, need } from './shared';
import type { SectionDiff, TemplateOperation, ThermostatState } from './types';

/** The whole week of a plan: the fewest range updates from the thermostat's week to the template's. */
export function schedulePart(
  week: readonly (readonly string[])[],
  current: ThermostatState,
  match: ComfortMatch | undefined,
  nodeLimit: number | undefined,
  problems: PlanProblem[],
) {
  const now = need(current.week, 'week');
  const existing = need(current.comfortSettings, 'comfortSettings');
  const targets = match?.targets ?? new Map<string, ComfortSettingTarget>();
  // A setting to be created has no ref yet: the diff works on a stand-in no real ref can equal.
  const taken = new Set([...now.flat(), ...existing.map((setting) => setting.comfortSettingRef)]);
  const standIns = new Map<string, ComfortSettingTarget>();
  const standInFor = (name: string) => {
    let standIn = `\u0000new:${nameKey(name)}`;
    while (taken.has(standIn)) standIn += '\u0000';
    standIns.set(standIn, { newName: name });
    return standIn;
  };
  const missing = new Set<string>();
  const byKey = new Map<string, string>();
  const wanted = week.map((day) =>
    day.map((name) => {
      const known = byKey.get(nameKey(name));
      if (known !== undefined) return known;
      const target = targets.get(nameKey(name));
      const ref = !target ? '' : 'ref' in target ? target.ref : standInFor(target.newName);
      if (!target) missing.add(name);
      byKey.set(nameKey(name), ref);
      return ref;
    }),
  );
  if (missing.size > 0) {
    const names = [...missing].map((name) => `“${name}”`).join(', ');
    problems.push({
      kind: 'said',
      text: `The schedule uses ${names}, which this thermostat does not have and the template does not define.`,
    });
    return {
      operations: [],
      provenFewest: true,
      section: {
        section: 'schedule',
        title: 'Schedule',
        summary: 'Cannot be applied.',
        lines: [],
      } satisfies SectionDiff,
    };
  }
  const { updates, provenFewest } = diffSchedule(now, wanted, { nodeLimit });
  const operations = updates.map(
    ({ comfortSettingRef, ...range }): TemplateOperation => ({
      kind: 'schedule',
      ...range,
      comfortSetting: standIns.get(comfortSettingRef) ?? { ref: comfortSettingRef },
    }),
  );
  const names = new Map(existing.map((setting) => [setting.comfortSettingRef, setting.name]));
  // After: the template's spelling of a name it changes, and the new settings' names.
  const namesAfter = new Map(names);
  for (const change of match?.changes ?? [])
    if ('ref' in change) namesAfter.set(change.ref, change.name);
  for (const [standIn, target] of standIns)
    if ('newName' in target) namesAfter.set(standIn, target.newName);
  const section: SectionDiff = {
    section: 'schedule',
    title: 'Schedule',
    summary: `${count(updates.length, 'range update')}${provenFewest ? ', the fewest possible' : ''}.`,
    lines: scheduleLines(now, wanted, {
      before: (ref) => names.get(ref) ?? ref,
      after: (ref) => namesAfter.get(ref) ?? ref,
    }),
  };
  return { operations, provenFewest, section };
}
