import { MAX_PER_REQUEST } from '@/lib/runs/steps';
import type { CallWindow } from '@/lib/service/budget-store';
import { applyRange, type Day } from '@/lib/schedule/blocks';
import type { LockArea } from '@/lib/settings/access-control';
import { type AlertChanges, HUMIDITY_MIN_GAP } from '@/lib/settings/alerts';
import type { CurrentSettings } from '@/lib/settings/configuration';
import type { ComfortSettingFields, SettingsChanges } from '@/lib/service/resources';
import type { AlertSettings, ComfortSetting, ScheduleRange } from '@/lib/service/schemas';
import { DAYS, LOCK_AREAS } from '@/lib/service/schemas';
import type { TemperatureUnit } from '@/lib/platform/units';
import {
  type ComfortMatch,
  type ComfortSettingTarget,
  matchComfortSettings,
  resolveComfortTarget,
} from './comfort-match';
import { diffSchedule, type Week } from './schedule-diff';
import {
  MAX_COMFORT_SETTINGS,
  nameKey,
  RESIDENT_OFF_RESETS,
  type Template,
  type TemplateAlerts,
  type TemplateScheduleRange,
  type TemplateSection,
} from './schema';
import {
  accessControlLines,
  alertLines,
  comfortLines,
  configurationLines,
  type DiffLine,
  type LockState,
  type PlanProblem,
  problemWords,
  scheduleLines,
} from './words';

/**
 * A template on one thermostat: read its state, then compute the fewest service calls that make
 * it match, each call one operation, in an order the service accepts, and the changes in words.
 * Pure: the reads and the calls are the job's; what comes back from here is data.
 *
 * Applying the operations and planning again gives no operations (the unit tests check it):
 * every operation is derived from a difference, and each removes its difference.
 */

export type { DiffLine, LockState, PlanProblem } from './words';

/** One thermostat as read before planning; a section the template leaves out need not be read. */
export type ThermostatState = {
  /** From its status: the gap its comfort settings and temperature alerts must keep. */
  heatCoolMinDelta?: number;
  /** From its status. */
  isResidentMode?: boolean;
  comfortSettings?: readonly ComfortSetting[];
  /** 7 x 48 comfort-setting refs, Monday first, as lib/schedule/load.ts reads them. */
  week?: Week;
  configuration?: CurrentSettings;
  alerts?: AlertSettings;
  /**
   * The service has no read for access control: what Setpoint last set
   * (lib/templates/last-access-control.ts), or null when that is not known.
   */
  accessControl?: LockState | null;
};

/** The reads a template needs from each thermostat (access control has none). */
export type TemplateRead = 'status' | 'comfortSettings' | 'schedule' | 'settings' | 'alertSettings';

export function readsFor(template: Template): TemplateRead[] {
  // Off resets everything: the whole state is read first, so the run's `before` holds it and
  // its undo can put it back.
  if (template.residentMode === false)
    return ['status', 'comfortSettings', 'schedule', 'settings', 'alertSettings'];
  const reads: TemplateRead[] = [];
  if (template.residentMode === true) reads.push('status');
  if ((template.comfortSettings || template.alerts) && !reads.includes('status'))
    reads.push('status');
  const week = template.schedule || template.scheduleRanges;
  if (template.comfortSettings || week) reads.push('comfortSettings');
  if (week) reads.push('schedule');
  if (template.comfortSettings || template.configuration) reads.push('settings');
  if (template.alerts) reads.push('alertSettings');
  return reads;
}

/** Whether the locks Setpoint last set are wanted: to compare with, or to keep for an undo. */
export function wantsLocks(template: Template | null): boolean {
  return template?.accessControl !== undefined || template?.residentMode === false;
}

/**
 * Each operation is exactly one service call. A schedule update names a comfort setting the
 * thermostat has, or one this plan creates (its ref exists only once it is created: see
 * `scheduleUpdateOf`). A configuration change runs before the comfort settings, after them, or
 * (when the new ranges exclude today's setpoints and the new setpoints today's ranges) both:
 * first widened to hold both, then narrowed.
 */
export type TemplateOperation =
  | { kind: 'configuration'; stage: 'before' | 'after'; changes: SettingsChanges }
  | { kind: 'createComfortSetting'; fields: ComfortSettingFields }
  | {
      kind: 'updateComfortSetting';
      comfortSettingRef: string;
      changes: Partial<ComfortSettingFields>;
    }
  | {
      kind: 'schedule';
      days: Day[];
      firstSlot: number;
      lastSlot: number;
      comfortSetting: ComfortSettingTarget;
    }
  | { kind: 'alerts'; changes: AlertChanges }
  | { kind: 'accessControl'; changes: LockChanges }
  /** Always last: off resets the thermostat's settings at the service. */
  | { kind: 'residentMode'; changes: { isResidentMode: boolean } };

/** Never a passcode: on keeps each thermostat's own, off clears it (the service's rule). */
export type LockChanges =
  | { enabled: false }
  | { enabled: true; settings: Record<LockArea, boolean> };

export type OperationKind = TemplateOperation['kind'];

export type SectionDiff = {
  section: TemplateSection;
  title: string;
  /** One sentence: what changes in the section, or why it cannot. */
  summary: string;
  /** In the unit the plan was made in. */
  lines: DiffLine[];
  /**
   * The same lines in each unit, where they name temperatures, so that every reader reads their
   * own (`sectionLines`); absent where no line does, and in plans stored before.
   */
  linesIn?: Record<TemperatureUnit, DiffLine[]>;
};

/** A section's lines in the reader's unit (as planned, where they name no temperature). */
export function sectionLines(section: SectionDiff, unit: TemperatureUnit): DiffLine[] {
  return section.linesIn?.[unit] ?? section.lines;
}

/** Lines that name temperatures: in the plan's unit, and in each unit for later readers. */
function linesInUnits(
  unit: TemperatureUnit,
  linesOf: (unit: TemperatureUnit) => DiffLine[],
): Pick<SectionDiff, 'lines' | 'linesIn'> {
  const linesIn = { F: linesOf('F'), C: linesOf('C') };
  const same = JSON.stringify(linesIn.F) === JSON.stringify(linesIn.C);
  return same ? { lines: linesIn[unit] } : { lines: linesIn[unit], linesIn };
}

export type ThermostatPlan = {
  /** In the order they must run. Empty when unchanged, or when there are problems. */
  operations: TemplateOperation[];
  /** Sections that change, in the template's order of sections. */
  diff: SectionDiff[];
  unchanged: boolean;
  /**
   * Why the template cannot be applied to this thermostat as it is; nothing runs then. In words,
   * in the unit it was planned in; a reader in another unit reads `problemFacts` (`problemsIn`).
   */
  problems: string[];
  /** The same problems without a unit, in the same order (absent when none, and in older plans). */
  problemFacts?: PlanProblem[];
  /** What applying does beyond the diff, said loudly (resident mode off resets its settings). */
  warnings?: string[];
  /** Whether no shorter list of schedule updates exists (true without a schedule). */
  scheduleProvenFewest: boolean;
};

export function planTemplate(
  template: Template,
  current: ThermostatState,
  options: { unit?: TemperatureUnit; nodeLimit?: number } = {},
): ThermostatPlan {
  const unit = options.unit ?? 'F';
  const problems: PlanProblem[] = [];
  const comfort = comfortPart(template, current, unit, problems);
  const configuration = configurationPart(template, current, comfort?.match, unit, problems);
  const schedule = template.schedule
    ? schedulePart(template.schedule, current, comfort?.match, options.nodeLimit, problems)
    : undefined;
  const ranges = template.scheduleRanges
    ? rangesPart(template.scheduleRanges, current, comfort?.match, problems)
    : undefined;
  const alerts = template.alerts ? alertsPart(template.alerts, current, unit, problems) : undefined;
  const access = template.accessControl
    ? accessPart(template.accessControl, current.accessControl ?? null)
    : undefined;
  const resident =
    template.residentMode === undefined ? undefined : residentPart(template.residentMode, current);

  const operations: TemplateOperation[] = [
    ...(configuration?.before ?? []),
    ...(comfort?.operations ?? []),
    ...(schedule?.operations ?? []),
    ...(ranges?.operations ?? []),
    ...(configuration?.after ?? []),
    ...(alerts?.operations ?? []),
    ...(access?.operations ?? []),
    ...(resident?.operations ?? []),
  ];
  const diff = [comfort, schedule, ranges, configuration, alerts, access, resident]
    .map((part) => part?.section)
    .filter((section): section is SectionDiff => section !== undefined && section.lines.length > 0);
  return {
    operations: problems.length > 0 ? [] : operations,
    diff,
    unchanged: problems.length === 0 && operations.length === 0,
    problems: problems.map((problem) => problemWords(problem, unit)),
    ...(problems.length > 0 ? { problemFacts: problems } : {}),
    ...(resident?.warnings.length ? { warnings: resident.warnings } : {}),
    scheduleProvenFewest: schedule?.provenFewest ?? true,
  };
}

/** A schedule operation as the service takes it, once the comfort settings it names exist. */
export function scheduleUpdateOf(
  operation: Extract<TemplateOperation, { kind: 'schedule' }>,
  /** Each created setting's ref by name key (lib/templates/schema.ts `nameKey`). */
  created: ReadonlyMap<string, string>,
): ScheduleRange {
  return {
    days: operation.days,
    firstSlot: operation.firstSlot,
    lastSlot: operation.lastSlot,
    comfortSettingRef: resolveComfortTarget(operation.comfortSetting, created),
  };
}

function need<T>(value: T | undefined, what: keyof ThermostatState): T {
  if (value === undefined) throw new Error(`planTemplate: the template needs current.${what}`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Comfort settings

function comfortPart(
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
function settingsAfter(existing: readonly ComfortSetting[], match: ComfortMatch) {
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

// ---------------------------------------------------------------------------------------------
// Schedule

function schedulePart(
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

/**
 * Ranges of the week, each set to a comfort setting by name, in order (a later range paints over
 * an earlier one). One update per range, less what is already so: a range keeps only the days
 * where a block it has the last word on does not hold its setting yet (counting the updates
 * kept before it), and a range left with no day is skipped. Names resolve per thermostat as the
 * week's do: its own setting, or one this change creates (named `{ newName }` until then).
 */
function rangesPart(
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

// ---------------------------------------------------------------------------------------------
// Configuration

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
function configurationPart(
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

// ---------------------------------------------------------------------------------------------
// Alerts

type ThresholdName = Exclude<keyof AlertChanges, 'hvacMaintenanceReminder'>;
const THRESHOLDS: ThresholdName[] = [
  'lowTemperatureAlert',
  'highTemperatureAlert',
  'lowHumidityAlert',
  'highHumidityAlert',
];

/** The fields of `wanted` whose value differs from `now`'s; undefined when none does. */
function differing<W extends object>(now: object | undefined, wanted: W | undefined) {
  if (!wanted) return undefined;
  const before = (now ?? {}) as Record<string, unknown>;
  const result: Partial<W> = {};
  for (const key of Object.keys(wanted) as (keyof W & string)[]) {
    if (wanted[key] !== undefined && wanted[key] !== before[key]) result[key] = wanted[key];
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

function alertsPart(
  wanted: TemplateAlerts,
  current: ThermostatState,
  unit: TemperatureUnit,
  problems: PlanProblem[],
) {
  const now = need(current.alerts, 'alerts');
  const changes: AlertChanges = {};
  const reminder = differing(now.hvacMaintenanceReminder, wanted.hvacMaintenanceReminder);
  if (reminder) changes.hvacMaintenanceReminder = reminder;
  for (const name of THRESHOLDS) {
    const change = differing(now[name], wanted[name]);
    if (change) changes[name] = change;
  }
  const hasChanges = Object.keys(changes).length > 0;
  if (hasChanges) alertGapProblems(now, changes, current, problems);
  return {
    operations: hasChanges ? [{ kind: 'alerts', changes } satisfies TemplateOperation] : [],
    section: {
      section: 'alerts',
      title: 'Alerts',
      summary: hasChanges ? 'Alert settings to change.' : 'No change.',
      ...linesInUnits(unit, (inUnit) => alertLines(now, changes, inUnit)),
    } satisfies SectionDiff,
  };
}

/** The service checks each low–high pair as it will be after the change, whatever changed. */
function alertGapProblems(
  now: AlertSettings,
  changes: AlertChanges,
  current: ThermostatState,
  problems: PlanProblem[],
) {
  const value = (name: ThresholdName) => changes[name]?.value ?? now[name]?.value;
  const low = value('lowTemperatureAlert');
  const high = value('highTemperatureAlert');
  const gap = need(current.heatCoolMinDelta, 'heatCoolMinDelta');
  if (low !== undefined && high !== undefined && high - low < gap)
    problems.push({ kind: 'temperatureAlertGap', low, high, gap });
  const dry = value('lowHumidityAlert');
  const humid = value('highHumidityAlert');
  if (dry !== undefined && humid !== undefined && humid - dry < HUMIDITY_MIN_GAP)
    problems.push({
      kind: 'said',
      text: `Its humidity alerts would be ${dry} and ${humid} %, closer than the ${HUMIDITY_MIN_GAP} % it requires.`,
    });
}

// ---------------------------------------------------------------------------------------------
// Access control

function accessPart(wanted: NonNullable<Template['accessControl']>, current: LockState | null) {
  const target: LockState = wanted.enabled
    ? { enabled: true, settings: { ...wanted.settings } }
    : {
        enabled: false,
        settings: Object.fromEntries(
          LOCK_AREAS.map((area) => [area, false]),
        ) as LockState['settings'],
      };
  // An unknown state is always written: the template's locks must hold whatever the device did.
  const same =
    current !== null &&
    current.enabled === target.enabled &&
    (!target.enabled ||
      LOCK_AREAS.every((area) => current.settings[area] === target.settings[area]));
  // The whole lock state, not only what differs: what Setpoint knows is only what it last set.
  const changes: LockChanges = wanted.enabled
    ? { enabled: true, settings: { ...wanted.settings } }
    : { enabled: false };
  return {
    operations: same ? [] : [{ kind: 'accessControl', changes } satisfies TemplateOperation],
    section: {
      section: 'accessControl',
      title: 'Access control',
      summary: current ? 'Locks to change.' : 'Not known, so set as the template says.',
      lines: same ? [] : accessControlLines(current, target),
    } satisfies SectionDiff,
  };
}

// ---------------------------------------------------------------------------------------------
// Resident mode

function residentPart(wanted: boolean, current: ThermostatState) {
  const now = need(current.isResidentMode, 'isResidentMode');
  const same = now === wanted;
  const resets = !same && !wanted;
  return {
    operations: same
      ? []
      : [{ kind: 'residentMode', changes: { isResidentMode: wanted } } satisfies TemplateOperation],
    warnings: resets ? [RESIDENT_OFF_RESETS] : [],
    section: {
      section: 'residentMode',
      title: 'Resident mode',
      summary: same
        ? 'No change.'
        : resets
          ? `Turned off. ${RESIDENT_OFF_RESETS}`
          : 'Turned on; nothing else changes.',
      lines: same
        ? []
        : [
            {
              field: 'Resident mode',
              before: now ? 'on' : 'off',
              after: resets ? 'off: every setting reset to the service’s defaults' : 'on',
            },
          ],
    } satisfies SectionDiff,
  };
}

// ---------------------------------------------------------------------------------------------
// Many thermostats

export type PlannedThermostat = { thermostatId: string; plan: ThermostatPlan };

export type PlanSummary = {
  thermostats: number;
  unchanged: number;
  changing: number;
  /** Thermostats with problems: nothing is sent to them. */
  blocked: number;
  /** Service calls the apply costs, configuration changes batched (see `configurationBatches`). */
  calls: number;
  callsByKind: Record<OperationKind, number>;
  /** How long the calls take under the call budget, at the earliest (nothing else spending it). */
  seconds: number;
  /** Whether every schedule's updates are proven the fewest. */
  scheduleProvenFewest: boolean;
  /** Thermostats whose settings turning resident mode off resets (absent in older plans). */
  resets?: number;
};

export function summarisePlan(
  planned: readonly PlannedThermostat[],
  windows: readonly CallWindow[],
): PlanSummary {
  const callsByKind: Record<OperationKind, number> = {
    configuration: configurationBatches(planned).length,
    createComfortSetting: 0,
    updateComfortSetting: 0,
    schedule: 0,
    alerts: 0,
    accessControl: 0,
    residentMode: 0,
  };
  for (const { plan } of planned) {
    for (const operation of plan.operations)
      if (operation.kind !== 'configuration') callsByKind[operation.kind]++;
  }
  const calls = Object.values(callsByKind).reduce((sum, n) => sum + n, 0);
  const blocked = planned.filter(({ plan }) => plan.problems.length > 0).length;
  const unchanged = planned.filter(({ plan }) => plan.unchanged).length;
  return {
    thermostats: planned.length,
    unchanged,
    changing: planned.length - unchanged - blocked,
    blocked,
    calls,
    callsByKind,
    seconds: estimateSeconds(calls, windows),
    scheduleProvenFewest: planned.every(({ plan }) => plan.scheduleProvenFewest),
    resets: planned.filter(
      ({ plan }) =>
        plan.problems.length === 0 &&
        plan.operations.some(
          (operation) => operation.kind === 'residentMode' && !operation.changes.isResidentMode,
        ),
    ).length,
  };
}

export type ConfigurationBatch = {
  stage: 'before' | 'after';
  changes: SettingsChanges;
  /** At most 25: one bulk request (PATCH /thermostats/settings takes the same fields for all). */
  thermostatIds: string[];
};

/**
 * Identical configuration changes of the same stage, grouped into bulk requests of at most 25
 * thermostats. A job sends a batch once each of its thermostats has run the operations before
 * its configuration operation.
 */
export function configurationBatches(planned: readonly PlannedThermostat[]): ConfigurationBatch[] {
  const groups = new Map<string, ConfigurationBatch>();
  for (const { thermostatId, plan } of planned) {
    for (const operation of plan.operations) {
      if (operation.kind !== 'configuration') continue;
      const key = `${operation.stage}:${changesKey(operation.changes)}`;
      const group = groups.get(key) ?? {
        stage: operation.stage,
        changes: operation.changes,
        thermostatIds: [],
      };
      group.thermostatIds.push(thermostatId);
      groups.set(key, group);
    }
  }
  return [...groups.values()].flatMap((group) => {
    const batches: ConfigurationBatch[] = [];
    for (let i = 0; i < group.thermostatIds.length; i += MAX_PER_REQUEST)
      batches.push({ ...group, thermostatIds: group.thermostatIds.slice(i, i + MAX_PER_REQUEST) });
    return batches;
  });
}

/** The same changes give the same key, whatever order their fields were written in. */
export function changesKey(changes: SettingsChanges): string {
  const range = (r: { min: number; max: number } | undefined) => (r ? [r.min, r.max] : null);
  return JSON.stringify([
    range(changes.heatRange),
    range(changes.coolRange),
    changes.holdAction ?? null,
    changes.fanMinimumOnTime ?? null,
  ]);
}

/**
 * The earliest the last of `calls` calls can start, in seconds, under sliding windows that each
 * allow `cap` calls in any `seconds` (lib/service/budget-store.ts): each call goes as soon as every
 * window has room, that is no sooner than `seconds` after the call `cap` places before it.
 */
export function estimateSeconds(calls: number, windows: readonly CallWindow[]): number {
  if (calls <= 0) return 0;
  const starts = new Float64Array(calls);
  for (let k = 1; k < calls; k++) {
    let start = starts[k - 1] as number;
    for (const window of windows) {
      if (k >= window.cap)
        start = Math.max(start, (starts[k - window.cap] as number) + window.seconds);
    }
    starts[k] = start;
  }
  return starts[calls - 1] as number;
}

const count = (n: number, thing: string) => `${n} ${thing}${n === 1 ? '' : 's'}`;
