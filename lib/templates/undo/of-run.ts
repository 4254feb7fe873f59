import type { AlertChanges } from '@/lib/settings/alerts';
import type { SettingsChanges } from '@/lib/service/resources';
import { FAN_VALUES, HOLD_ACTIONS } from '@/lib/service/schemas';
import { alertsOf, comfortSettingOf, configurationOf, lockStateOf, weekByNames } from './sections';
import type { TemplateOperation, ThermostatPlan, ThermostatState } from '@/lib/templates/plan';
import { RESET_GAP, type UndoNote } from '@/lib/templates/run-words';
import { type Template, type TemplateSection, templateSchema } from '@/lib/templates/schema';

/**
 * Undoing what a planned run did to one thermostat, as a template of its own: the state read
 * before the run (`before`), limited to what the run's applied operations changed. Planned
 * against the thermostat's state now, that template gives the fewest calls that put it back. The
 * state the run left (`expected`, the run's template limited the same way) lets the undo's plan
 * warn when the thermostat has changed since.
 *
 * Nothing is deleted: comfort settings the run created are kept (the restored schedule no longer
 * uses them). A passcode is never stored, so access control the run turned off (which cleared
 * the passcode at the service) is left as it is.
 */

export type UndoTarget =
  | { ok: true; target: Template; expected: Template | null; notes: UndoNote[] }
  | { ok: false; reason: string };

const MAX_NAME = 64;

/** The template's sections named, the rest left out (null when none is left). */
export function pickSections(
  template: Template,
  sections: ReadonlySet<TemplateSection>,
): Template | null {
  const picked: Template = { name: template.name };
  if (sections.has('comfortSettings') && template.comfortSettings)
    picked.comfortSettings = template.comfortSettings;
  if (sections.has('schedule') && template.schedule) picked.schedule = template.schedule;
  // An undo puts back the whole week: what the run left there is its ranges.
  if (sections.has('schedule') && template.scheduleRanges)
    picked.scheduleRanges = template.scheduleRanges;
  if (sections.has('configuration') && template.configuration)
    picked.configuration = template.configuration;
  if (sections.has('alerts') && template.alerts) picked.alerts = template.alerts;
  if (sections.has('accessControl') && template.accessControl)
    picked.accessControl = template.accessControl;
  if (sections.has('residentMode') && template.residentMode !== undefined)
    picked.residentMode = template.residentMode;
  return Object.keys(picked).length > 1 ? picked : null;
}

export function undoTargetOf(input: {
  /** What is undone, for the target's name. */
  title: string;
  plan: ThermostatPlan;
  /** How many of the plan's operations were applied (all of them for an applied thermostat). */
  doneOps: number;
  before: ThermostatState;
  /** What the run set: its template, or the target of the undo being undone. */
  applied: Template | null;
}): UndoTarget {
  const operations = input.plan.operations.slice(0, input.doneOps);
  if (operations.length === 0) return { ok: false, reason: 'Nothing was changed here.' };
  const { before } = input;
  const notes: UndoNote[] = [];
  let body: Omit<Template, 'name'> = {};

  const resident = operations.find(
    (operation): operation is Extract<TemplateOperation, { kind: 'residentMode' }> =>
      operation.kind === 'residentMode',
  );
  // Off reset everything: back to the whole state before it, whatever the run sent after the
  // reset (an occupancy run's template), which that state covers section by section.
  const resets = resident !== undefined && !resident.changes.isResidentMode;
  if (resets) {
    body = stateBeforeReset(before, notes);
    if (operations.some((operation) => operation.kind === 'createComfortSetting')) {
      notes.push(
        'Comfort settings the run created after the reset are kept (the schedule put back no longer uses them).',
      );
    }
  } else {
    if (resident) notes.push(RESIDENT_ON_KEPT);
    const configuration = resident ? undefined : configurationBefore(operations, before, notes);
    if (configuration) body.configuration = configuration;

    const comfort = comfortBefore(operations, before, notes);
    if (comfort.length > 0) body.comfortSettings = comfort;

    if (operations.some((operation) => operation.kind === 'schedule')) {
      const week = weekByName(before);
      if (week) body.schedule = week;
      else
        notes.push(
          'The schedule before could not be named setting by setting; it is left as it is.',
        );
    }

    const alerts = alertsBefore(operations, before);
    if (alerts) body.alerts = alerts;

    const access = operations.find(
      (operation): operation is Extract<TemplateOperation, { kind: 'accessControl' }> =>
        operation.kind === 'accessControl',
    );
    if (access) {
      const known = before.accessControl ?? null;
      if (!known) {
        notes.push(
          'Access control as it was before is not known to Setpoint; it is left as it is.',
        );
      } else if (known.enabled && !access.changes.enabled) {
        notes.push(
          'Access control was turned off, which cleared its passcode; Setpoint never stores one, so it is left off. Turn it on again on the thermostat’s page with a passcode.',
        );
      } else {
        body.accessControl = known.enabled
          ? { enabled: true, settings: { ...known.settings } }
          : { enabled: false };
      }
    }
  }

  const name = `Undo: ${input.title}`.slice(0, MAX_NAME);
  const parsed = templateSchema.safeParse({ name, ...body });
  if (!parsed.success) {
    return {
      ok: false,
      reason:
        Object.keys(body).length === 0
          ? (notes.find((note) => typeof note === 'string') ?? 'Nothing here can be put back.')
          : `The earlier state cannot be sent back as it was: ${parsed.error.issues[0]?.message ?? 'it is not valid'}`,
    };
  }
  const sections = new Set(
    (Object.keys(body) as TemplateSection[]).filter((key) => key !== ('name' as string)),
  );
  const expected = input.applied ? pickSections(input.applied, sections) : null;
  return { ok: true, target: parsed.data, expected, notes };
}

export const RESIDENT_ON_KEPT =
  'Resident mode was turned on; turning it off again would reset every setting, so the undo leaves it on. Turn it off on the thermostat’s page if that is what you want.';

/**
 * Everything turning resident mode off reset, as read just before (the plan read it all), and
 * resident mode back on. Turning it on resets nothing, so it goes last, after the rest is back.
 */
function stateBeforeReset(before: ThermostatState, notes: UndoNote[]): Omit<Template, 'name'> {
  const body: Omit<Template, 'name'> = { residentMode: true };
  const settings = before.comfortSettings ?? [];
  const comfort = settings.map(comfortSettingOf);
  // The reset's gap holds now: a setting closer than it comes back with its cooling raised.
  const kept = comfort.flatMap((section) => {
    const setting = section.value;
    if (!setting) return [];
    const least = setting.desiredHeat + RESET_GAP;
    if (setting.desiredCool >= least) return [setting];
    notes.push({ kind: 'coolRaised', name: setting.name, was: setting.desiredCool, now: least });
    return [{ ...setting, desiredCool: least }];
  });
  for (const section of comfort) notes.push(...section.notes);
  if (kept.length > 0) body.comfortSettings = kept;
  const week = before.week && weekByNames(before.week, settings);
  if (week) body.schedule = week;
  else notes.push('The schedule before could not be named setting by setting; it is not restored.');
  if (before.configuration) {
    const configuration = configurationOf(before.configuration);
    if (configuration.value) body.configuration = configuration.value;
    notes.push(...configuration.notes);
  }
  if (before.alerts) {
    const alerts = alertsOf(before.alerts);
    if (alerts.value) body.alerts = alerts.value;
    notes.push(...alerts.notes);
  }
  const locks = before.accessControl ?? null;
  if (!locks) {
    notes.push(
      'Access control before the reset was not known to Setpoint; the reset turned it off, and it is left off.',
    );
  } else {
    body.accessControl = lockStateOf(locks);
    if (locks.enabled)
      notes.push(
        'The reset cleared the passcode, and Setpoint never stores one: the locks come back without it. Set a passcode on the thermostat’s access-control page.',
      );
  }
  if (before.heatCoolMinDelta !== undefined && before.heatCoolMinDelta !== RESET_GAP) {
    notes.push({ kind: 'gapReset', was: before.heatCoolMinDelta });
  }
  return body;
}

function configurationBefore(
  operations: readonly TemplateOperation[],
  before: ThermostatState,
  notes: UndoNote[],
): Template['configuration'] {
  const changed = new Set<keyof SettingsChanges>();
  for (const operation of operations) {
    if (operation.kind !== 'configuration') continue;
    for (const key of Object.keys(operation.changes) as (keyof SettingsChanges)[]) changed.add(key);
  }
  const now = before.configuration;
  if (changed.size === 0 || !now) return undefined;
  const result: NonNullable<Template['configuration']> = {};
  if (changed.has('heatRange'))
    result.heatRange = { min: now.heatRange.min, max: now.heatRange.max };
  if (changed.has('coolRange'))
    result.coolRange = { min: now.coolRange.min, max: now.coolRange.max };
  if (changed.has('fanMinimumOnTime')) result.fanMinimumOnTime = now.fanMinimumOnTime;
  if (changed.has('holdAction')) {
    const hold = HOLD_ACTIONS.find((action) => action === now.holdAction);
    if (hold) result.holdAction = hold;
    else
      notes.push(
        `Its hold action was “${now.holdAction}”, which cannot be set; it is left as it is.`,
      );
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

const fan = (value: string) => FAN_VALUES.find((known) => known === value) ?? 'auto';

function comfortBefore(
  operations: readonly TemplateOperation[],
  before: ThermostatState,
  notes: UndoNote[],
): NonNullable<Template['comfortSettings']> {
  const settings = before.comfortSettings ?? [];
  const restored: NonNullable<Template['comfortSettings']> = [];
  let created = 0;
  for (const operation of operations) {
    if (operation.kind === 'createComfortSetting') created += 1;
    if (operation.kind !== 'updateComfortSetting') continue;
    const old = settings.find(
      (setting) => setting.comfortSettingRef === operation.comfortSettingRef,
    );
    if (!old) continue;
    restored.push({
      name: old.name,
      desiredHeat: old.desiredHeat,
      desiredCool: old.desiredCool,
      fanHeat: fan(old.fanHeat),
      fanCool: fan(old.fanCool),
    });
  }
  if (created > 0) {
    notes.push(
      `${created === 1 ? 'The comfort setting it created is' : `The ${created} comfort settings it created are`} kept: Setpoint never deletes one. Delete ${created === 1 ? 'it' : 'them'} on the thermostat’s page if need be.`,
    );
  }
  return restored;
}

/** The week before, by comfort-setting name; null when a block names a setting it did not have. */
function weekByName(before: ThermostatState): string[][] | null {
  const names = new Map(
    (before.comfortSettings ?? []).map((setting) => [setting.comfortSettingRef, setting.name]),
  );
  if (!before.week) return null;
  const week: string[][] = [];
  for (const day of before.week) {
    const named: string[] = [];
    for (const ref of day) {
      const name = names.get(ref);
      if (name === undefined) return null;
      named.push(name);
    }
    week.push(named);
  }
  return week;
}

type AlertName = keyof AlertChanges;

function alertsBefore(
  operations: readonly TemplateOperation[],
  before: ThermostatState,
): Template['alerts'] {
  const now = before.alerts as Record<string, Record<string, unknown> | undefined> | undefined;
  if (!now) return undefined;
  const result: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    if (operation.kind !== 'alerts') continue;
    for (const [name, fields] of Object.entries(operation.changes) as [
      AlertName,
      Record<string, unknown>,
    ][]) {
      const old = now[name] ?? {};
      const restored = result[name] ?? {};
      const keys = new Set(Object.keys(fields));
      // An interval travels with its unit (the template refuses one without the other).
      if (keys.has('maintenanceInterval') || keys.has('maintenanceIntervalUnits')) {
        keys.add('maintenanceInterval');
        keys.add('maintenanceIntervalUnits');
      }
      for (const field of keys) {
        // A value the service left out or sent as null cannot be sent back: left as it is.
        if (old[field] !== undefined && old[field] !== null) restored[field] = old[field];
      }
      if (Object.keys(restored).length > 0) result[name] = restored;
    }
  }
  return Object.keys(result).length > 0 ? (result as Template['alerts']) : undefined;
}
