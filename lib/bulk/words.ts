import type { BulkItemOutcome, BulkRun, RunEntry } from '@/lib/runs/store';
import { OUTCOMES, type OutcomeKind } from '@/lib/outcomes';
import { describeHoldAction, describeSettingsChanges } from '@/lib/settings/configuration';
import type { SettingsChanges } from '@/lib/service/resources';
import { formatRange, type TemperatureUnit } from '@/lib/platform/units';

/**
 * A bulk run in words: the change as a manager reads it before confirming, the run's state as
 * every list shows it, and its one activity entry. A run with failures never reads "Done".
 */

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const thermostatCount = (n: number) => plural(n, 'thermostat');

/** Each change in the manager's unit, e.g. "Fan minimum on-time: 20 minutes per hour". */
export function changesInWords(changes: SettingsChanges, unit: TemperatureUnit): string[] {
  const words: string[] = [];
  if (changes.heatRange) words.push(`Heat range: ${formatRange(changes.heatRange, unit)}`);
  if (changes.coolRange) words.push(`Cool range: ${formatRange(changes.coolRange, unit)}`);
  if (changes.holdAction) words.push(`Hold action: ${describeHoldAction(changes.holdAction)}`);
  if (changes.fanMinimumOnTime !== undefined) {
    words.push(`Fan minimum on-time: ${plural(changes.fanMinimumOnTime, 'minute')} per hour`);
  }
  return words;
}

type Counts = Pick<
  BulkRun,
  'state' | 'total' | 'applied' | 'failed' | 'notSent' | 'cancelled' | 'cancelRequestedAt'
> & {
  /** A planned run's thermostats that needed nothing or could not be changed (not sent). */
  skipped?: number;
  /** Of those, the ones that could not be changed: a run with any never reads "Done". */
  blocked?: number;
};

/**
 * A run's state in a few words, and the outcome kind it is shown as (its tone): queued or
 * running, being cancelled, cancelled, or finished with or without failures.
 */
export function runStatus(run: Counts): { label: string; outcome: OutcomeKind } {
  const done = run.applied + run.failed + run.notSent + run.cancelled + (run.skipped ?? 0);
  const failures = run.failed + run.notSent + (run.blocked ?? 0);
  if (run.cancelRequestedAt && run.state !== 'done' && run.state !== 'cancelled') {
    return { label: 'Cancelling…', outcome: 'cancelled' };
  }
  switch (run.state) {
    case 'planning':
      return { label: 'Planning…', outcome: 'sending' };
    case 'planned':
      return { label: 'Planned: waiting for you to apply it', outcome: 'pending' };
    case 'queued':
      return { label: 'Queued', outcome: 'pending' };
    case 'running':
      return { label: `Running: ${done} of ${run.total}`, outcome: 'sending' };
    case 'cancelled':
      return {
        label: `Cancelled after ${run.applied} of ${run.total} applied`,
        outcome: 'cancelled',
      };
    case 'done':
      if (failures === 0) return { label: OUTCOMES.done.label, outcome: 'done' };
      if (run.applied === 0) return { label: OUTCOMES.failed.label, outcome: 'failed' };
      return { label: `Done with ${plural(failures, 'failure')}`, outcome: 'failed' };
  }
}

/**
 * "67 done, 5 failed, 0 not sent (of 72)", plus what was cancelled when some was, and for a
 * planned run those that already matched and those that could not take it.
 */
export function countsInWords(
  counts: Pick<BulkRun, 'applied' | 'failed' | 'notSent' | 'cancelled' | 'total'> & {
    unchanged?: number;
    blocked?: number;
    /** Of the failed, those whose answer was lost: they may have been applied. */
    unconfirmed?: number;
  },
): string {
  const count = (n: number, kind: OutcomeKind) => `${n} ${OUTCOMES[kind].label.toLowerCase()}`;
  const extra = (n: number | undefined, kind: OutcomeKind) =>
    n !== undefined && n > 0 ? `, ${count(n, kind)}` : '';
  const unconfirmed =
    counts.unconfirmed !== undefined && counts.unconfirmed > 0
      ? ` (${counts.unconfirmed} of them may have been applied)`
      : '';
  return `${count(counts.applied, 'done')}, ${count(counts.failed, 'failed')}${unconfirmed}, ${count(counts.notSent, 'not_sent')}${extra(counts.cancelled, 'cancelled')}${extra(counts.unchanged, 'unchanged')}${extra(counts.blocked, 'blocked')} (of ${counts.total}).`;
}

/**
 * What a run's page can show of its results (the key goes in the address), each in the
 * vocabulary's words, with the stored outcomes it lists.
 */
export const RESULT_FILTERS: Record<string, { label: string; outcomes?: BulkItemOutcome[] }> = {
  all: { label: 'All' },
  failed: {
    label: `${OUTCOMES.failed.label} or ${OUTCOMES.not_sent.label.toLowerCase()}`,
    outcomes: ['failed', 'unconfirmed', 'not_sent'],
  },
  applied: { label: OUTCOMES.done.label, outcomes: ['applied'] },
  pending: { label: 'Still to do', outcomes: ['pending'] },
  cancelled: { label: OUTCOMES.cancelled.label, outcomes: ['cancelled'] },
  skipped: {
    label: `${OUTCOMES.unchanged.label} or ${OUTCOMES.blocked.label.toLowerCase()}`,
    outcomes: ['unchanged', 'blocked'],
  },
};

/**
 * The thermostats of a building manager's share of someone else's run (`partView`, from
 * lib/runs/store.ts): said to be theirs, so the share never reads as the whole run.
 */
export const IN_YOUR_BUILDINGS = ' in your buildings';

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
      state: run.state,
      total: run.total,
      applied: run.applied,
      failed: run.failed,
      unconfirmed: run.unconfirmed,
      notSent: run.notSent,
      cancelled: run.cancelled,
      buildings: buildingIds.length,
      ...(run.retryOf ? { retryOf: run.retryOf } : {}),
      ...(run.cancelledByName ? { cancelledBy: run.cancelledByName } : {}),
      ...(run.note ? { note: run.note } : {}),
    },
    outcome: runEntryOutcome(run, failures),
    error: runEntryError(run, failures),
  };
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

export type ProgressLike = {
  state: string;
  cancelRequested: boolean;
  note: string | null;
  counts: Record<string, number>;
  planned?: number;
};

/** What a run's page shows that can change, as one string (the page's refresher compares it). */
export function progressSignature(progress: ProgressLike): string {
  const counts = Object.entries(progress.counts).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([
    progress.state,
    progress.cancelRequested,
    progress.note,
    counts,
    progress.planned ?? 0,
  ]);
}
