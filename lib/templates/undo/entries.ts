import { z } from 'zod';
import { applyRange, type SlotRange } from '@/lib/schedule/blocks';
import type { AlertChanges } from '@/lib/settings/alerts';
import {
  TEMPLATE_SECTIONS,
  type Template,
  type TemplateComfortSetting,
  type TemplateSection,
  templateSchema,
} from '@/lib/templates/schema';
import type { ComfortSettingFields } from '@/lib/service/resources';
import type { ComfortSetting, LOCK_AREAS } from '@/lib/service/schemas';
import {
  alertsOf,
  comfortSettingOf,
  configurationOf,
  lockStateOf,
  type Section,
  sameName,
  weekByNames,
} from './sections';

/**
 * Every write to one thermostat keeps the state it replaced (docs/templates.md, "Undo"), in its
 * activity entry's `changes`:
 *
 *   undo: { target, expected, notes, needsPasscode }   what to go back to, and what the change
 *                                                     left (both templates; expected may be null)
 *   undo: null, undoReason: "…"                       when it cannot be undone, in words
 *
 * An undo is then a template: `target` planned against the thermostat as it is now (by name,
 * like any template), with a warning when it no longer shows `expected`. The builders here are
 * pure: each action reads what it needs before its write and passes it in. `undoOf` reads an
 * entry back, treating the stored JSON as untrusted.
 */

export type UndoData = {
  /** The state to go back to, as a template. */
  target: Template;
  /** What the change left; null when it is not known (then nothing can be compared). */
  expected: Template | null;
  /** What the undo will not restore, in words. */
  notes: string[];
  /** The change cleared a passcode: restoring access control needs one entered again. */
  needsPasscode: boolean;
};

/** What an action adds to its entry's `changes`. */
export type UndoRecord = { undo: UndoData } | { undo: null; undoReason: string };

/** The keys of `changes` that hold undo data (not shown as changes). */
export const UNDO_KEYS = ['undo', 'undoReason'] as const;

/** The entry's changes as a reader sees them: the undo data left out (it is for Setpoint). */
export function withoutUndo(changes: Record<string, unknown>): Record<string, unknown> {
  const shown = { ...changes };
  for (const key of UNDO_KEYS) delete shown[key];
  return shown;
}

export const REASONS = {
  failed: 'It failed, so nothing was changed and there is nothing to undo.',
  run: 'It changed many thermostats at once: undo the run from its own page.',
  notRecorded:
    'It was made before Setpoint kept the state each change replaced, so it cannot be undone automatically.',
  unreadable:
    'What it replaced is not recorded in a form Setpoint can use, so it cannot be undone.',
  notUndoable: 'Setpoint cannot undo this kind of change.',
  created: 'Delete it on its comfort settings page.',
  renamed: 'It was renamed; rename it back on its page.',
  residentOn:
    'Undoing it means turning resident mode off, which resets the thermostat’s settings to their defaults, so Setpoint does not do it automatically. Turn it off on the thermostat’s page if that is what you want.',
  moved: 'Move it back on the thermostat’s page.',
} as const;

export const unavailable = (reason: string): UndoRecord => ({ undo: null, undoReason: reason });

/** A template's name is at most 64 characters. */
function templateName(prefix: 'Undo' | 'Expected', what: string): string {
  const name = `${prefix}: ${what}`;
  return name.length <= 64 ? name : `${name.slice(0, 63).trimEnd()}…`;
}

/** Both templates checked as the undo machinery will read them; otherwise not undoable, said why. */
function finish(
  what: string,
  target: Omit<Template, 'name'>,
  expected: Omit<Template, 'name'> | null,
  notes: string[],
  needsPasscode = false,
): UndoRecord {
  const parsedTarget = templateSchema.safeParse({ name: templateName('Undo', what), ...target });
  if (!parsedTarget.success) {
    const problem = parsedTarget.error.issues[0]?.message;
    return unavailable(
      notes[0] ?? `What it replaced cannot be set again${problem ? `: ${problem}` : '.'}`,
    );
  }
  let parsedExpected: Template | null = null;
  if (expected) {
    const parsed = templateSchema.safeParse({ name: templateName('Expected', what), ...expected });
    // What the change left is only for a warning: without it the undo still works, unchecked.
    if (parsed.success) parsedExpected = parsed.data;
    else notes.push('What it left is not recorded, so the undo cannot warn of later changes.');
  }
  return { undo: { target: parsedTarget.data, expected: parsedExpected, notes, needsPasscode } };
}

const notesOf = (...sections: Section<unknown>[]) => sections.flatMap((section) => section.notes);

// ---------------------------------------------------------------------------------------------
// One builder per kind of write

type FromTo = { from: unknown; to: unknown };

/** configuration.update: back to each changed field's `from` (as `settingsDiff` records it). */
export function configurationUndo(input: {
  label: string;
  diff: Record<string, FromTo>;
}): UndoRecord {
  const side = (end: 'from' | 'to') =>
    Object.fromEntries(Object.entries(input.diff).map(([key, change]) => [key, change[end]]));
  const target = configurationOf(side('from'));
  const expected = configurationOf(side('to'));
  if (!target.value) return unavailable(target.notes[0] ?? REASONS.unreadable);
  return finish(
    `configuration of ${input.label}`,
    { configuration: target.value },
    expected.value ? { configuration: expected.value } : null,
    target.notes,
  );
}

type AlertsRead = Parameters<typeof alertsOf>[0];

/** alert_settings.update: the changed fields back to what the read before the save showed. */
export function alertsUndo(input: {
  label: string;
  before: AlertsRead;
  changes: AlertChanges;
}): UndoRecord {
  const after: Record<string, unknown> = { ...input.before };
  for (const [name, change] of Object.entries(input.changes)) {
    after[name] = {
      ...((input.before as Record<string, object | undefined>)[name] ?? {}),
      ...change,
    };
  }
  const target = alertsOf(input.before, input.changes);
  const expected = alertsOf(after as AlertsRead, input.changes);
  if (!target.value) return unavailable(target.notes[0] ?? REASONS.unreadable);
  return finish(
    `alert settings of ${input.label}`,
    { alerts: target.value },
    expected.value ? { alerts: expected.value } : null,
    target.notes,
  );
}

/** schedule.update: the whole week before, by comfort-setting name; expected, with the range. */
export function scheduleUndo(input: {
  label: string;
  settings: readonly ComfortSetting[];
  week: readonly (readonly string[])[];
  range: SlotRange;
  comfortSettingRef: string;
}): UndoRecord {
  const before = weekByNames(input.week, input.settings);
  if (!before)
    return unavailable(
      'Its schedule named a comfort setting the thermostat did not list, so it cannot be undone automatically.',
    );
  const after = weekByNames(
    applyRange(
      input.week.map((day) => [...day]),
      input.range,
      input.comfortSettingRef,
    ),
    input.settings,
  );
  return finish(
    `schedule of ${input.label}`,
    { schedule: before },
    after ? { schedule: after } : null,
    [],
  );
}

/**
 * comfort_setting.update: the old fields under the old name. A rename cannot be followed back
 * by name (the old name is not on the thermostat any more), so it is not undone automatically.
 */
export function comfortUpdateUndo(input: {
  label: string;
  before: ComfortSetting;
  changes: Partial<ComfortSettingFields>;
}): UndoRecord {
  const { before, changes } = input;
  if (changes.name !== undefined && !sameName(changes.name, before.name))
    return unavailable(REASONS.renamed);
  const target = comfortSettingOf(before);
  const expected = comfortSettingOf({ ...before, ...changes });
  if (!target.value) return unavailable(target.notes[0] ?? REASONS.unreadable);
  return finish(
    `${before.name} on ${input.label}`,
    { comfortSettings: [target.value] },
    expected.value ? { comfortSettings: [expected.value] } : null,
    [],
  );
}

/** comfort_setting.delete: created again with its values; the schedule is not restored. */
export function comfortDeleteUndo(input: { label: string; setting: ComfortSetting }): UndoRecord {
  const target = comfortSettingOf(input.setting);
  if (!target.value) return unavailable(target.notes[0] ?? REASONS.unreadable);
  return finish(
    `${input.setting.name} on ${input.label}`,
    { comfortSettings: [target.value] },
    null,
    [
      `Only the setting comes back: schedule times that used “${input.setting.name}” are not restored.`,
      `It was deleted, so there is nothing to compare: undo creates “${input.setting.name}” again unless the thermostat already has a setting of that name.`,
    ],
  );
}

type LockArea = (typeof LOCK_AREAS)[number];
type Locks = { enabled: boolean; settings?: Partial<Record<LockArea, boolean>> };

/**
 * access_control.update: back to what Setpoint knew before (the service has no read), locks
 * only. Turning it off cleared the passcode at the service, and Setpoint never keeps one: the
 * undo needs it entered again.
 */
export function accessControlUndo(input: {
  label: string;
  /** What Setpoint last set (lib/templates/last-access-control.ts), or null when not known. */
  before: Locks | null;
  /** As sent: `passcode` is never read from it. */
  changes: Locks;
  passcode: 'changed' | 'removed' | 'kept';
}): UndoRecord {
  if (!input.before)
    return unavailable(
      'Setpoint did not know its access control before this change (the service has no way to read it), so it cannot be undone automatically.',
    );
  const notes: string[] = [];
  const wasOn = input.before.enabled;
  const clearedPasscode = wasOn && (!input.changes.enabled || input.passcode === 'removed');
  if (clearedPasscode)
    notes.push('The change removed the passcode: enter it again to restore access control.');
  else if (wasOn && input.passcode === 'changed')
    notes.push('The passcode it set stays: Setpoint never keeps a passcode to put back.');
  return finish(
    `access control of ${input.label}`,
    { accessControl: lockStateOf(input.before) },
    { accessControl: lockStateOf(input.changes) },
    notes,
    clearedPasscode,
  );
}

/** What turning resident mode off is about to reset, each part as read (undefined: not read). */
export type StateBeforeReset = {
  comfortSettings?: readonly ComfortSetting[];
  week?: readonly (readonly string[])[];
  configuration?: Parameters<typeof configurationOf>[0];
  alerts?: AlertsRead;
  /** What Setpoint last set; null when not known. */
  accessControl?: Locks | null;
};

/**
 * resident_mode.update: turning it off resets the thermostat's settings, so the whole state read
 * just before is the target. Turning it on is undone only by that reset: not automatically.
 */
export function residentModeUndo(input: {
  label: string;
  on: boolean;
  before?: StateBeforeReset;
}): UndoRecord {
  if (input.on) return unavailable(REASONS.residentOn);
  const state = input.before ?? {};
  const notes: string[] = [];
  const target: Omit<Template, 'name'> = {};
  let comfort: Section<TemplateComfortSetting>[] = [];
  if (state.comfortSettings) {
    comfort = state.comfortSettings.map(comfortSettingOf);
    const kept = comfort.flatMap((section) => (section.value ? [section.value] : []));
    if (kept.length > 0) target.comfortSettings = kept;
  } else notes.push('Its comfort settings could not be read before the reset: not restored.');
  notes.push(...notesOf(...comfort));
  if (state.week && state.comfortSettings) {
    const week = weekByNames(state.week, state.comfortSettings);
    if (week) target.schedule = week;
    else notes.push('Its schedule named an unknown comfort setting: not restored.');
  } else notes.push('Its schedule could not be read before the reset: not restored.');
  if (state.configuration) {
    const configuration = configurationOf(state.configuration);
    if (configuration.value) target.configuration = configuration.value;
    notes.push(...configuration.notes);
  } else notes.push('Its configuration could not be read before the reset: not restored.');
  if (state.alerts) {
    const alerts = alertsOf(state.alerts);
    if (alerts.value) target.alerts = alerts.value;
    notes.push(...alerts.notes);
  } else notes.push('Its alert settings could not be read before the reset: not restored.');
  const locks = state.accessControl;
  if (locks) target.accessControl = lockStateOf(locks);
  else
    notes.push(
      'Its access control was not known to Setpoint before the reset (the reset turned it off).',
    );
  if (!TEMPLATE_SECTIONS.some((section) => target[section] !== undefined))
    return unavailable(
      'Its settings could not be read before the reset, so the reset cannot be undone automatically.',
    );
  notes.push(
    'Resident mode stays off: turn it on again on the thermostat’s page if it should be on.',
    'What the reset left is not recorded, so the undo cannot warn of later changes.',
  );
  return finish(
    `resident mode reset of ${input.label}`,
    target,
    null,
    notes,
    Boolean(locks?.enabled),
  );
}

// ---------------------------------------------------------------------------------------------
// Reading an entry back

/** What each kind of entry may restore: anything else in a stored target is refused. */
const SECTIONS_OF: Partial<Record<string, readonly TemplateSection[]>> = {
  'configuration.update': ['configuration'],
  'alert_settings.update': ['alerts'],
  'schedule.update': ['schedule'],
  'comfort_setting.update': ['comfortSettings'],
  'comfort_setting.delete': ['comfortSettings'],
  'access_control.update': ['accessControl'],
  'resident_mode.update': TEMPLATE_SECTIONS,
};

const storedUndoSchema = z.strictObject({
  target: templateSchema,
  expected: templateSchema.nullable(),
  notes: z.array(z.string().max(500)).max(40),
  needsPasscode: z.boolean(),
});

const storedReasonSchema = z.string().trim().min(1).max(500);

export type UndoOf =
  | {
      ok: true;
      thermostatId: string;
      target: Template;
      expected: Template | null;
      notes: string[];
      needsPasscode: boolean;
    }
  | { ok: false; reason: string };

/** How to undo one activity entry, or why it cannot be undone, in words. */
export function undoOf(entry: {
  action: string;
  changes: unknown;
  outcome: string;
  thermostatId: string | null;
  /** A failure's ServiceError kind, where one was recorded. */
  error?: string | null;
}): UndoOf {
  const no = (reason: string): UndoOf => ({ ok: false, reason });
  // A change that may have been applied (its answer lost; not shown by a read at once) can be
  // undone like one that was: the plan reads the thermostat first and shows what differs.
  const mayHaveApplied =
    entry.outcome === 'success' ||
    entry.outcome === 'unconfirmed' ||
    (entry.outcome === 'failure' && entry.error === 'not_applied');
  if (!mayHaveApplied) return no(REASONS.failed);
  if (!entry.thermostatId) return no(REASONS.run);
  const changes =
    entry.changes && typeof entry.changes === 'object' && !Array.isArray(entry.changes)
      ? (entry.changes as Record<string, unknown>)
      : {};
  // Kinds that are never undone automatically, whatever is stored.
  if (entry.action === 'comfort_setting.create') return no(REASONS.created);
  if (entry.action === 'thermostat.move') return no(REASONS.moved);
  if (entry.action === 'resident_mode.update' && changes.isResidentMode !== false)
    return no(REASONS.residentOn);
  const sections = SECTIONS_OF[entry.action];
  if (!sections) return no(REASONS.notUndoable);
  if (!Object.hasOwn(changes, 'undo')) return no(REASONS.notRecorded);
  if (changes.undo === null) {
    const reason = storedReasonSchema.safeParse(changes.undoReason);
    return no(reason.success ? reason.data : REASONS.unreadable);
  }
  const stored = storedUndoSchema.safeParse(changes.undo);
  if (!stored.success) return no(REASONS.unreadable);
  const { target, expected, notes, needsPasscode } = stored.data;
  const outside = (template: Template | null) =>
    template !== null &&
    TEMPLATE_SECTIONS.some(
      (section) => template[section] !== undefined && !sections.includes(section),
    );
  if (outside(target) || outside(expected)) return no(REASONS.unreadable);
  return { ok: true, thermostatId: entry.thermostatId, target, expected, notes, needsPasscode };
}
