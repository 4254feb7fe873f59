import type { BulkRun, RunEntry } from './store';
import { describeSettingsChanges } from '@/lib/settings/configuration';
import type { SettingsChanges } from '@/lib/service/resources';
import {
  countsInWords,
  IN_YOUR_BUILDINGS,
  runStatus,
  runTitleAsSeen,
  skippedOf,
  thermostatCount,
} from './words';

/**
 * A finished run's one activity entry, built from its stored row alone: by its worker as it
 * ends, by a member's cancel, and again by the activity log for a building manager's share of
 * someone else's run (lib/activity-log/view.ts). Each kind has its action and its summary's head;
 * the counts, outcome and error are said one way for all.
 */

/** A finished run's one activity entry, whatever its kind. */
export function runEntry(run: BulkRun & { partView?: boolean }, buildingIds: string[]): RunEntry {
  return run.kind === 'configuration'
    ? runActivityEntry(run, buildingIds)
    : plannedRunEntry(run, buildingIds);
}

const ENTRY_ACTION = {
  configuration: 'configuration.bulk_update',
  template: 'template.apply',
  undo: 'change.undo',
  occupancy: 'unit.settings',
} as const satisfies Record<BulkRun['kind'], string>;

/**
 * The run's one activity entry, as it finished. Written with the whole run's counts; a run seen
 * in part (`partView`) is described from its share alone when a building manager reads the log
 * (lib/activity-log/view.ts).
 */
export function runActivityEntry(
  run: BulkRun & { partView?: boolean },
  buildingIds: string[],
): RunEntry {
  const changes = run.changes as SettingsChanges;
  const status = runStatus(run);
  const words = describeSettingsChanges(changes).join(', ');
  const retry = run.retryOf ? ' (a retry of the failed ones)' : '';
  const share = run.partView ? IN_YOUR_BUILDINGS : '';
  const failures = run.failed + run.notSent;
  return {
    action: 'configuration.bulk_update',
    summary: `Bulk configuration of ${thermostatCount(run.total)}${share}${retry}: ${words}. ${status.label}: ${countsInWords(run)}`,
    thermostatId: null,
    buildingId: buildingIds.length === 1 ? (buildingIds[0] ?? null) : null,
    changes: {
      runId: run.id,
      settings: changes,
      ...countsOf(run),
      buildings: buildingIds.length,
      ...(run.retryOf ? { retryOf: run.retryOf } : {}),
      ...(run.cancelledByName ? { cancelledBy: run.cancelledByName } : {}),
      ...(run.note ? { note: run.note } : {}),
    },
    outcome: runEntryOutcome(run, failures),
    error: runEntryError(run, failures),
  };
}

/** Where a run ended and its thermostats' counts, as every kind's entry keeps them. */
function countsOf(run: BulkRun) {
  const { state, total, applied, failed, unconfirmed, notSent, cancelled } = run;
  return { state, total, applied, failed, unconfirmed, notSent, cancelled };
}

/**
 * How a finished run's entry ends: done with no failure, perhaps applied where every thermostat
 * that did not certainly apply may have (its answer lost), failed otherwise.
 */
export function runEntryOutcome(
  run: Pick<BulkRun, 'state' | 'unconfirmed'>,
  failures: number,
): RunEntry['outcome'] {
  if (run.state === 'done' && failures === 0) return 'success';
  if (run.state === 'done' && failures === run.unconfirmed) return 'unconfirmed';
  return 'failure';
}

/** What a run's entry says went wrong, in a word or a count; null when nothing did. */
export function runEntryError(
  run: Pick<BulkRun, 'state' | 'applied' | 'unconfirmed'>,
  failures: number,
): string | null {
  if (run.state === 'cancelled') return 'cancelled';
  if (failures === 0) return null;
  const perhaps = run.unconfirmed > 0 ? ` (${run.unconfirmed} may have been applied)` : '';
  return run.applied === 0 && run.unconfirmed === 0 ? 'failed' : `${failures} failed${perhaps}`;
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
    action: ENTRY_ACTION[run.kind],
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
      ...countsOf(run),
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
