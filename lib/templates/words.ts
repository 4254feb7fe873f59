import { describeRange } from '@/lib/schedule/blocks';
import { LOCK_AREA_TEXT, type LockArea } from '@/lib/settings/access-control';
import type { AlertChanges } from '@/lib/settings/alerts';
import { describeHoldAction } from '@/lib/settings/configuration';
import type { ComfortSettingFields, SettingsChanges } from '@/lib/service/resources';
import { type AlertSettings, DAYS, LOCK_AREAS } from '@/lib/service/schemas';
import {
  formatDelta,
  formatRange,
  formatTemperature,
  type TemperatureUnit,
} from '@/lib/platform/units';
import type { ComfortSettingChange } from './comfort-match';
import type { Week } from './schedule-diff';
import type { TemplateSection } from './schema';

/**
 * A plan's changes in words, one line per field: what it is now and what it becomes ("Heat
 * range: 45 °F to 79 °F → 50 °F to 75 °F"). Only what changes is listed. Temperatures in the
 * manager's unit; a passcode is never mentioned, only the locks.
 */

export type DiffLine = { field: string; before: string; after: string };

/**
 * Why a template cannot be applied to a thermostat, as facts without a unit (temperatures in the
 * service's °F), so that each reader reads it in their own unit (`problemWords`). A reason with no
 * temperature in it is kept as its words (`said`).
 */
export type PlanProblem =
  | { kind: 'comfortGap'; name: string; heat: number; cool: number; gap: number }
  | {
      kind: 'outsideRanges';
      name: string;
      heat: number;
      cool: number;
      heatRange: { min: number; max: number };
      coolRange: { min: number; max: number };
    }
  | { kind: 'temperatureAlertGap'; low: number; high: number; gap: number }
  | { kind: 'said'; text: string };

/** A problem in words, temperatures in `unit`. */
export function problemWords(problem: PlanProblem, unit: TemperatureUnit): string {
  const degrees = (fahrenheit: number) => formatTemperature(fahrenheit, unit);
  switch (problem.kind) {
    case 'comfortGap':
      return `${quoted(problem.name)} would heat to ${degrees(problem.heat)} and cool to ${degrees(problem.cool)}; this thermostat keeps them at least ${formatDelta(problem.gap, unit)} apart.`;
    case 'outsideRanges':
      return `${quoted(problem.name)} (heat ${degrees(problem.heat)}, cool ${degrees(problem.cool)}) would be outside the heat range ${formatRange(problem.heatRange, unit)} or the cool range ${formatRange(problem.coolRange, unit)}.`;
    case 'temperatureAlertGap':
      return `Its temperature alerts would be ${degrees(problem.low)} and ${degrees(problem.high)}, closer than the ${formatDelta(problem.gap, unit)} it requires.`;
    case 'said':
      return problem.text;
  }
}

/**
 * A stored plan's problems in the reader's unit: worded now from its facts, or (a plan stored
 * before they were kept, or a reason given without a plan) as they were worded when planned.
 */
export function problemsIn(
  plan: { problems: readonly string[]; problemFacts?: readonly PlanProblem[] },
  unit: TemperatureUnit,
): string[] {
  return plan.problemFacts
    ? plan.problemFacts.map((problem) => problemWords(problem, unit))
    : [...plan.problems];
}

export type LockState = { enabled: boolean; settings: Record<LockArea, boolean> };

const onOff = (on: boolean | undefined) => (on === undefined ? '—' : on ? 'on' : 'off');
const quoted = (name: string) => `“${name}”`;

const COMFORT_FIELD_WORDS: Record<keyof ComfortSettingFields, string> = {
  name: 'name',
  desiredHeat: 'heat setpoint',
  desiredCool: 'cool setpoint',
  fanHeat: 'fan when heating',
  fanCool: 'fan when cooling',
};

function comfortValue(value: string | number, unit: TemperatureUnit): string {
  return typeof value === 'number' ? formatTemperature(value, unit) : String(value);
}

export function comfortLines(
  changes: readonly ComfortSettingChange[],
  unit: TemperatureUnit,
): DiffLine[] {
  return changes.flatMap((change): DiffLine[] => {
    if (change.kind === 'unchanged') return [];
    if (change.kind === 'create') {
      const { desiredHeat, desiredCool, fanHeat, fanCool } = change.fields;
      return [
        {
          field: quoted(change.name),
          before: 'not on this thermostat',
          after: `created: heat ${formatTemperature(desiredHeat, unit)}, cool ${formatTemperature(desiredCool, unit)}, fan ${fanHeat} when heating, ${fanCool} when cooling`,
        },
      ];
    }
    return (Object.keys(change.changes) as (keyof ComfortSettingFields)[]).map((field) => ({
      field: `${quoted(change.before.name)} ${COMFORT_FIELD_WORDS[field]}`,
      before: comfortValue(change.before[field], unit),
      after: comfortValue(change.changes[field] as string | number, unit),
    }));
  });
}

/**
 * The week's changed blocks: per day, each stretch whose comfort setting changes the same way,
 * and days with the same stretch said once ("Monday–Friday 08:30–17:30: Home → Away").
 */
export function scheduleLines(
  current: Week,
  target: Week,
  /** A ref's name now, and once the plan ran (a renamed or new setting). */
  names: { before: (ref: string) => string; after: (ref: string) => string },
): DiffLine[] {
  const stretches = new Map<string, { days: number[]; first: number; last: number } & DiffLine>();
  current.forEach((blocks, day) => {
    const wanted = target[day] ?? [];
    let block = 0;
    while (block < blocks.length) {
      const before = blocks[block] as string;
      const after = wanted[block] as string;
      if (before === after) {
        block++;
        continue;
      }
      const first = block;
      while (
        block + 1 < blocks.length &&
        blocks[block + 1] === before &&
        wanted[block + 1] === after
      )
        block++;
      const key = `${first}-${block}:${before}\u0000${after}`;
      const stretch = stretches.get(key);
      if (stretch) stretch.days.push(day);
      else
        stretches.set(key, {
          days: [day],
          first,
          last: block,
          field: '',
          before: names.before(before),
          after: names.after(after),
        });
      block++;
    }
  });
  return [...stretches.values()]
    .sort((a, b) => (a.days[0] ?? 0) - (b.days[0] ?? 0) || a.first - b.first)
    .map(({ days, first, last, before, after }) => ({
      field: describeRange({
        days: days.map((day) => DAYS[day] as (typeof DAYS)[number]),
        firstSlot: first,
        lastSlot: last,
      }),
      before,
      after,
    }));
}

export function configurationLines(
  current: {
    heatRange: { min: number; max: number };
    coolRange: { min: number; max: number };
    holdAction: string;
    fanMinimumOnTime: number;
  },
  changes: SettingsChanges,
  unit: TemperatureUnit,
): DiffLine[] {
  const lines: DiffLine[] = [];
  if (changes.heatRange)
    lines.push({
      field: 'Heat range',
      before: formatRange(current.heatRange, unit),
      after: formatRange(changes.heatRange, unit),
    });
  if (changes.coolRange)
    lines.push({
      field: 'Cool range',
      before: formatRange(current.coolRange, unit),
      after: formatRange(changes.coolRange, unit),
    });
  if (changes.holdAction)
    lines.push({
      field: 'Hold action',
      before: describeHoldAction(current.holdAction),
      after: describeHoldAction(changes.holdAction),
    });
  if (changes.fanMinimumOnTime !== undefined)
    lines.push({
      field: 'Fan minimum on-time',
      before: `${current.fanMinimumOnTime} min/h`,
      after: `${changes.fanMinimumOnTime} min/h`,
    });
  return lines;
}

type ThresholdName = Exclude<keyof AlertChanges, 'hvacMaintenanceReminder'>;
const THRESHOLD_WORDS: Record<ThresholdName, { label: string; temperature: boolean }> = {
  lowTemperatureAlert: { label: 'Low temperature alert', temperature: true },
  highTemperatureAlert: { label: 'High temperature alert', temperature: true },
  lowHumidityAlert: { label: 'Low humidity alert', temperature: false },
  highHumidityAlert: { label: 'High humidity alert', temperature: false },
};

const interval = (count: number | undefined, units: string | undefined) =>
  count === undefined ? '—' : `${count} ${units ?? ''}${count === 1 ? '' : 's'}`.trim();

export function alertLines(
  current: AlertSettings,
  changes: AlertChanges,
  unit: TemperatureUnit,
): DiffLine[] {
  const lines: DiffLine[] = [];
  const reminder = changes.hvacMaintenanceReminder;
  const now = current.hvacMaintenanceReminder;
  if (reminder?.enabled !== undefined)
    lines.push({
      field: 'HVAC maintenance reminder',
      before: onOff(now.enabled),
      after: onOff(reminder.enabled),
    });
  if (reminder?.lastMaintenanceDate !== undefined)
    lines.push({
      field: 'Last maintenance',
      before: now.lastMaintenanceDate ?? '—',
      after: reminder.lastMaintenanceDate,
    });
  if (reminder?.maintenanceInterval !== undefined || reminder?.maintenanceIntervalUnits) {
    lines.push({
      field: 'Maintenance interval',
      before: interval(now.maintenanceInterval, now.maintenanceIntervalUnits),
      after: interval(
        reminder.maintenanceInterval ?? now.maintenanceInterval,
        reminder.maintenanceIntervalUnits ?? now.maintenanceIntervalUnits,
      ),
    });
  }
  for (const name of Object.keys(THRESHOLD_WORDS) as ThresholdName[]) {
    const change = changes[name];
    if (!change) continue;
    const { label, temperature } = THRESHOLD_WORDS[name];
    const value = (v: number | undefined) =>
      v === undefined ? '—' : temperature ? formatTemperature(v, unit) : `${v} %`;
    if (change.enabled !== undefined)
      lines.push({
        field: label,
        before: onOff(current[name]?.enabled),
        after: onOff(change.enabled),
      });
    if (change.value !== undefined)
      lines.push({
        field: `${label} threshold`,
        before: value(current[name]?.value),
        after: value(change.value),
      });
  }
  return lines;
}

const UNKNOWN_LOCKS = 'not known (the service has no read for it)';

export function accessControlLines(current: LockState | null, target: LockState): DiffLine[] {
  const lines: DiffLine[] = [];
  if (current?.enabled !== target.enabled)
    lines.push({
      field: 'Access control',
      before: current ? onOff(current.enabled) : UNKNOWN_LOCKS,
      after: target.enabled ? 'on (each thermostat keeps its own passcode)' : 'off (unlocked)',
    });
  if (!target.enabled) return lines;
  const locked = (on: boolean) => (on ? 'locked' : 'unlocked');
  for (const area of LOCK_AREAS) {
    // Off, every area is unlocked; unknown, every area is stated.
    const before = current ? current.enabled && current.settings[area] : undefined;
    if (before === target.settings[area]) continue;
    lines.push({
      field: `${LOCK_AREA_TEXT[area].label} lock`,
      before: before === undefined ? 'not known' : locked(before),
      after: locked(target.settings[area]),
    });
  }
  return lines;
}

/** Each section as a plan's summary names it. */
export const SECTION_TITLES: Record<TemplateSection, string> = {
  comfortSettings: 'Comfort settings',
  schedule: 'Weekly schedule',
  scheduleRanges: 'Schedule ranges',
  configuration: 'Configuration',
  alerts: 'Alert settings',
  accessControl: 'Access control',
  residentMode: 'Resident mode',
};

/**
 * A section of a plan in one line, counted over the thermostats that can take the plan:
 * "Weekly schedule: changes on 3 of 3", "Comfort settings: already match on 5 of 5",
 * "Configuration: changes on 2 of 5, already match on 3".
 */
export function sectionCountWords(count: {
  section: TemplateSection;
  changing: number;
  of: number;
}): string {
  const title = SECTION_TITLES[count.section];
  const n = (value: number) => value.toLocaleString('en');
  const { changing, of } = count;
  if (of === 0) return `${title}: none of the thermostats can take the change`;
  if (changing === 0) return `${title}: already match on ${n(of)} of ${n(of)}`;
  if (changing >= of) return `${title}: changes on ${n(changing)} of ${n(of)}`;
  return `${title}: changes on ${n(changing)} of ${n(of)}, already match on ${n(of - changing)}`;
}
