import { MAX_PER_REQUEST } from '@/lib/runs/steps';
import type { CallWindow } from '@/lib/service/budget-store';
import type { SettingsChanges } from '@/lib/service/resources';
import type { ScheduleRange } from '@/lib/service/schemas';
import type { TemperatureUnit } from '@/lib/platform/units';
import { resolveComfortTarget } from '../comfort-match';
import type { Template } from '../schema';
import { type DiffLine, type PlanProblem, problemWords } from '../words';
import { accessPart } from './access-control';
import { alertsPart } from './alerts';
import { comfortPart } from './comfort';
import { configurationPart } from './configuration';
import { residentPart } from './resident-mode';
import { schedulePart } from './schedule';
import { rangesPart } from './schedule-ranges';
import type { OperationKind, SectionDiff, TemplateOperation, ThermostatState } from './types';

/**
 * A template on one thermostat: read its state, then compute the fewest service calls that make
 * it match, each call one operation, in an order the service accepts, and the changes in words.
 * Pure: the reads and the calls are the job's; what comes back from here is data.
 *
 * Applying the operations and planning again gives no operations (the unit tests check it):
 * every operation is derived from a difference, and each removes its difference.
 *
 * Each section has its planner in a file of its own here; this file runs them in the order the
 * service accepts, and sums up many thermostats' plans.
 */

export type { DiffLine, LockState, PlanProblem } from '../words';
export type {
  LockChanges,
  OperationKind,
  SectionDiff,
  TemplateOperation,
  ThermostatState,
} from './types';

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

/** A section's lines in the reader's unit (as planned, where they name no temperature). */
export function sectionLines(section: SectionDiff, unit: TemperatureUnit): DiffLine[] {
  return section.linesIn?.[unit] ?? section.lines;
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
