import { z } from 'zod';
import { formatDelta, formatTemperature, type TemperatureUnit } from '@/lib/platform/units';
import { describeTemplate } from './describe';
import { type Template, templateSchema } from './schema';

/**
 * A planned run (a template, a one-off change, an undo) in words: what it stores about itself,
 * what an undo cannot put back, and what applying its plan costs. (What every run is called and
 * its activity entry: lib/runs/words.ts and lib/runs/entry.ts.)
 */

/** The heat–cool gap a reset leaves (the service's default), which no request sets back. */
export const RESET_GAP = 5;

/**
 * A note of what an undo cannot put back: in words, or, where it names temperatures, as facts
 * worded in each reader's unit (`noteWords`).
 */
export const undoNoteSchema = z.union([
  z.string(),
  z.object({ kind: z.literal('gapReset'), was: z.number() }),
  /** A comfort setting closer than the reset's gap, put back with its cooling raised to fit. */
  z.object({
    kind: z.literal('coolRaised'),
    name: z.string(),
    was: z.number(),
    now: z.number(),
  }),
]);
export type UndoNote = z.output<typeof undoNoteSchema>;

export function noteWords(note: UndoNote, unit: TemperatureUnit): string {
  if (typeof note === 'string') return note;
  if (note.kind === 'coolRaised') {
    return `“${note.name}” comes back cooling to ${formatTemperature(note.now, unit)}, not ${formatTemperature(note.was, unit)}: the reset's heat–cool gap of ${formatDelta(RESET_GAP, unit)} does not allow less.`;
  }
  return `Its heat–cool gap was ${formatDelta(note.was, unit)}; the reset made it ${formatDelta(RESET_GAP, unit)}, and no request sets it back.`;
}

/**
 * What a planned run stores in `changes`: the template (a template run; an undo's items each
 * carry their own target) and the unit its plan is written in (the unit of whoever planned it).
 */
export const runChangesSchema = z.object({
  template: z.record(z.string(), z.unknown()).optional(),
  unit: z.enum(['F', 'C']).default('F'),
  /** A passcode was entered when it was applied (never the passcode itself). */
  passcodeEntered: z.boolean().default(false),
  /** What an undo cannot put back (shown with its plan). */
  notes: z.array(undoNoteSchema).default([]),
  /** A one-off change: a template body planned without saving a template (no templateId). */
  oneOff: z.boolean().default(false),
});
export type RunChanges = z.output<typeof runChangesSchema>;

/** The sections a one-off change sets, in words, in the form's order. */
export function oneOffSections(template: Omit<Template, 'name'>): string[] {
  const parts: string[] = [];
  if (template.comfortSettings) parts.push('comfort settings');
  if (template.schedule) parts.push('weekly schedule');
  if (template.scheduleRanges) parts.push('schedule ranges');
  if (template.configuration) parts.push('configuration');
  if (template.alerts) parts.push('alert settings');
  if (template.accessControl) parts.push('access control');
  if (template.residentMode !== undefined)
    parts.push(template.residentMode ? 'resident mode on' : 'resident mode off');
  return parts;
}

/** "One-off: alert settings, schedule ranges": the run's title (a template name is 64 at most). */
export function oneOffTitle(template: Omit<Template, 'name'>): string {
  const title = `One-off: ${oneOffSections(template).join(', ')}`;
  return title.length <= 64 ? title : `${title.slice(0, 63).trimEnd()}…`;
}

/** "under a second", "45 seconds", "6 minutes", "1 hour 20 minutes": a plan's time, rounded up. */
export function durationInWords(seconds: number): string {
  if (seconds < 1) return 'under a second';
  if (seconds < 90) {
    const whole = Math.ceil(seconds);
    return `${whole} second${whole === 1 ? '' : 's'}`;
  }
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} minutes`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const hourWords = `${hours} hour${hours === 1 ? '' : 's'}`;
  return rest === 0 ? hourWords : `${hourWords} ${rest} minute${rest === 1 ? '' : 's'}`;
}

/**
 * What applying a plan costs, as its summary says it: the calls, and the least time the call
 * budget lets them take ("at least under a second" read as nonsense, so a short one is just that).
 */
export function applyCostInWords(calls: number, seconds: number): string {
  if (calls === 0) return 'Applying it sends nothing to the service.';
  const count = `${calls.toLocaleString('en')} service call${calls === 1 ? '' : 's'}`;
  const time = seconds < 1 ? 'under a second' : `at least ${durationInWords(seconds)}`;
  return `Applying it takes ${count}: ${time} within the service’s limits, longer when other work shares them.`;
}

/**
 * What a planned run does, in the member's unit: an undo's promise and what it cannot put back,
 * or a template's (or a one-off change's) sections, a line each.
 */
export function plannedRunInWords(
  run: { kind: string; changes: Record<string, unknown> },
  unit: TemperatureUnit,
): string[] {
  const changes = runChangesSchema.safeParse(run.changes);
  if (run.kind === 'undo') {
    return [
      'Puts back, on each thermostat, what the undone change replaced (as far as it can).',
      ...(changes.data?.notes ?? []).map((note) => noteWords(note, unit)),
    ];
  }
  const template = templateSchema.safeParse(changes.data?.template);
  return template.success
    ? describeTemplate(template.data, unit).map(
        (section) => `${section.title}: ${section.lines.join('; ')}`,
      )
    : [];
}
