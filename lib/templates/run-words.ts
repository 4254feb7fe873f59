import { z } from 'zod';
import {
  countsInWords,
  IN_YOUR_BUILDINGS,
  runActivityEntry,
  runEntryError,
  runEntryOutcome,
  runStatus,
  thermostatCount,
} from '@/lib/bulk/words';
import type { BulkRun, RunEntry } from '@/lib/runs/store';
import { formatDelta, type TemperatureUnit } from '@/lib/platform/units';
import type { Template } from './schema';

/**
 * A planned run (a template, an undo) in words: what it stores about itself, and its one
 * activity entry once it has finished.
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
]);
export type UndoNote = z.output<typeof undoNoteSchema>;

export function noteWords(note: UndoNote, unit: TemperatureUnit): string {
  if (typeof note === 'string') return note;
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

/**
 * A finished planned run's thermostats that already matched, and those that could not take it
 * (from its plan's summary); none while it goes on, or for a configuration run.
 */
export function skippedOf(run: Pick<BulkRun, 'state' | 'kind' | 'planSummary'>): {
  skipped: number;
  blocked: number;
} {
  const finished = run.state === 'done' || run.state === 'cancelled';
  const summary = run.planSummary as { unchanged?: unknown; blocked?: unknown } | null;
  if (!finished || run.kind === 'configuration' || !summary) return { skipped: 0, blocked: 0 };
  const count = (value: unknown) => (typeof value === 'number' ? value : 0);
  const blocked = count(summary.blocked);
  return { skipped: count(summary.unchanged) + blocked, blocked };
}

/**
 * What a planned run is called, without how many thermostats: "Template “Vacant unit”", "One-off:
 * alert settings" or "Undo of …" (an undo's stored title). Null for a configuration run.
 */
export function runName(run: Pick<BulkRun, 'kind' | 'title' | 'changes'>): string | null {
  if (run.kind === 'template' && isOneOff(run)) return run.title ?? 'One-off change';
  if (run.kind === 'template') return `Template “${run.title ?? 'untitled'}”`;
  if (run.kind === 'undo') return run.title ?? 'Undo';
  return null;
}

/** "Template “Vacant unit” on 60 thermostats", "Bulk configuration of 1 thermostat": the run. */
export function runTitle(run: Pick<BulkRun, 'kind' | 'title' | 'total' | 'changes'>): string {
  const name = runName(run);
  return name === null
    ? `Bulk configuration of ${thermostatCount(run.total)}`
    : `${name} on ${thermostatCount(run.total)}`;
}

/** Whether a template run is a one-off change (`changes.oneOff`), not a saved template's. */
export function isOneOff(run: Pick<BulkRun, 'kind' | 'changes'>): boolean {
  return run.kind === 'template' && (run.changes as { oneOff?: unknown } | null)?.oneOff === true;
}

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

/**
 * What the run is called to the member reading it: `runTitle`, said to be their share for a
 * building manager seeing part of someone else's run (`partView`: its counts are that share's).
 * For headings, lists and the activity log.
 */
export function runTitleAsSeen(
  run: Pick<BulkRun, 'kind' | 'title' | 'total' | 'changes'> & { partView?: boolean },
): string {
  return `${runTitle(run)}${run.partView ? IN_YOUR_BUILDINGS : ''}`;
}

/**
 * The run's one activity entry, as it finished. Written with the whole run's counts; a run seen
 * in part (`partView`) is described from its share alone when a building manager reads the log
 * (lib/activity-log/view.ts).
 */
export function plannedRunEntry(
  run: BulkRun & { partView?: boolean },
  buildingIds: string[],
): RunEntry {
  const { skipped, blocked } = skippedOf(run);
  const status = runStatus({ ...run, skipped, blocked });
  const failures = run.failed + run.notSent + blocked;
  const unchanged = countsInWords({ ...run, unchanged: skipped - blocked, blocked });
  return {
    action: run.kind === 'undo' ? 'change.undo' : 'template.apply',
    summary: `${runTitleAsSeen(run)}. ${status.label}: ${unchanged}`,
    thermostatId: null,
    buildingId: buildingIds.length === 1 ? (buildingIds[0] ?? null) : null,
    changes: {
      runId: run.id,
      kind: run.kind,
      title: run.title,
      ...(run.templateId ? { templateId: run.templateId } : {}),
      ...(run.undoOf ? { undoOf: run.undoOf } : {}),
      ...(run.undoOfEntry ? { undoOfEntry: run.undoOfEntry } : {}),
      state: run.state,
      total: run.total,
      applied: run.applied,
      failed: run.failed,
      unconfirmed: run.unconfirmed,
      notSent: run.notSent,
      cancelled: run.cancelled,
      unchanged: skipped - blocked,
      blocked,
      buildings: buildingIds.length,
      ...(run.cancelledByName ? { cancelledBy: run.cancelledByName } : {}),
      ...(run.note ? { note: run.note } : {}),
    },
    outcome: runEntryOutcome(run, failures),
    error: runEntryError(run, failures),
  };
}

/** A finished run's one activity entry, whatever its kind (a configuration run's is its own). */
export function runEntryOf(run: BulkRun & { partView?: boolean }, buildingIds: string[]): RunEntry {
  return run.kind === 'configuration'
    ? runActivityEntry(run, buildingIds)
    : plannedRunEntry(run, buildingIds);
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
