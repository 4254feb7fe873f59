import { applyRange } from '@/lib/schedule/blocks';
import { DAYS } from '@/lib/service/schemas';
import type { ComfortMatch, ComfortSettingTarget } from '../comfort-match';
import { nameKey, type TemplateScheduleRange } from '../schema';
import { type PlanProblem, scheduleLines } from '../words';
import { count, need } from './shared';
import type { SectionDiff, TemplateOperation, ThermostatState } from './types';

/**
 * Ranges of the week, each set to a comfort setting by name, in order (a later range paints over
 * an earlier one). One update per range, less what is already so: a range keeps only the days
 * where a block it has the last word on does not hold its setting yet (counting the updates
 * kept before it), and a range left with no day is skipped. Names resolve per thermostat as the
 * week's do: its own setting, or one this change creates (named `{ newName }` until then).
 */
export function rangesPart(
  ranges: readonly TemplateScheduleRange[],
  current: ThermostatState,
  match: ComfortMatch | undefined,
  problems: PlanProblem[],
) {
  const now = need(current.week, 'week');
  const existing = need(current.comfortSettings, 'comfortSettings');
  const targets = match?.targets ?? new Map<string, ComfortSettingTarget>();
  const missing = new Set<string>();
  const resolved = ranges.flatMap((range) => {
    const target = targets.get(nameKey(range.name));
    if (!target) missing.add(range.name);
    return target ? [{ ...range, target }] : [];
  });
  if (missing.size > 0) {
    const names = [...missing].map((name) => `“${name}”`).join(', ');
    problems.push({
      kind: 'said',
      text: `The schedule ranges use ${names}, which this thermostat does not have and the change does not create.`,
    });
    return {
      operations: [],
      section: {
        section: 'scheduleRanges',
        title: 'Schedule',
        summary: 'Cannot be applied.',
        lines: [],
      } satisfies SectionDiff,
    };
  }
  // A setting to be created has no ref yet: the week works on a stand-in no real ref can equal.
  const taken = new Set([...now.flat(), ...existing.map((setting) => setting.comfortSettingRef)]);
  const standIns = new Map<string, string>();
  const refOf = (target: ComfortSettingTarget) => {
    if ('ref' in target) return target.ref;
    const known = standIns.get(nameKey(target.newName));
    if (known) return known;
    let standIn = `\u0000new:${nameKey(target.newName)}`;
    while (taken.has(standIn)) standIn += '\u0000';
    standIns.set(nameKey(target.newName), standIn);
    return standIn;
  };
  // Which range has the last word on each block.
  const last = now.map((day) => day.map(() => -1));
  resolved.forEach((range, index) => {
    for (const day of range.days) {
      const row = last[DAYS.indexOf(day)] as number[];
      for (let block = range.firstSlot; block <= range.lastSlot; block++) row[block] = index;
    }
  });
  let week = now.map((day) => [...day]);
  const operations: TemplateOperation[] = [];
  resolved.forEach((range, index) => {
    const ref = refOf(range.target);
    const days = DAYS.filter((day) => {
      if (!range.days.includes(day)) return false;
      const at = DAYS.indexOf(day);
      for (let block = range.firstSlot; block <= range.lastSlot; block++) {
        if (last[at]?.[block] === index && week[at]?.[block] !== ref) return true;
      }
      return false;
    });
    if (days.length === 0) return;
    const update = {
      days,
      firstSlot: range.firstSlot,
      lastSlot: range.lastSlot,
    };
    week = applyRange(week, update, ref);
    operations.push({ kind: 'schedule', ...update, comfortSetting: range.target });
  });
  const names = new Map(existing.map((setting) => [setting.comfortSettingRef, setting.name]));
  const namesAfter = new Map(names);
  for (const change of match?.changes ?? [])
    if ('ref' in change) namesAfter.set(change.ref, change.name);
  for (const range of resolved)
    if ('newName' in range.target) namesAfter.set(refOf(range.target), range.target.newName);
  const skipped = ranges.length - operations.length;
  return {
    operations,
    section: {
      section: 'scheduleRanges',
      title: 'Schedule',
      summary: `${count(operations.length, 'range update')}${skipped > 0 ? `; ${count(skipped, 'range')} already so` : ''}.`,
      lines: scheduleLines(now, week, {
        before: (ref) => names.get(ref) ?? ref,
        after: (ref) => namesAfter.get(ref) ?? ref,
      }),
    } satisfies SectionDiff,
  };
}
