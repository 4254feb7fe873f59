import type { BulkRun, RunEntry } from '@/lib/db/bulk-runs';
import { describeHoldAction, describeSettingsChanges } from '@/lib/settings/configuration';
import type { SettingsChanges } from '@/lib/thermostat-api/resources';
import { formatRange, type TemperatureUnit } from '@/lib/units';

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
>;

export type RunTone = 'success' | 'failure' | 'warning' | 'progress';

/** A run's state in a few words, and how to colour it. */
export function runStatus(run: Counts): { label: string; tone: RunTone } {
  const done = run.applied + run.failed + run.notSent + run.cancelled;
  const failures = run.failed + run.notSent;
  switch (run.state) {
    case 'queued':
      return { label: run.cancelRequestedAt ? 'Cancelling…' : 'Queued', tone: 'progress' };
    case 'running':
      return run.cancelRequestedAt
        ? { label: 'Cancelling…', tone: 'warning' }
        : { label: `Running: ${done} of ${run.total}`, tone: 'progress' };
    case 'cancelled':
      return {
        label: `Cancelled after ${run.applied} of ${run.total} applied`,
        tone: 'warning',
      };
    case 'done':
      if (failures === 0) return { label: 'Done', tone: 'success' };
      if (run.applied === 0) return { label: 'Failed', tone: 'failure' };
      return { label: `Done with ${plural(failures, 'failure')}`, tone: 'failure' };
  }
}

/** "67 applied, 5 failed, 0 not sent (of 72)", plus what was cancelled when some was. */
export function countsInWords(
  counts: Pick<BulkRun, 'applied' | 'failed' | 'notSent' | 'cancelled' | 'total'>,
): string {
  const cancelled = counts.cancelled > 0 ? `, ${counts.cancelled} cancelled` : '';
  return `${counts.applied} applied, ${counts.failed} failed, ${counts.notSent} not sent${cancelled} (of ${counts.total}).`;
}

/** The run's one activity entry, as it finished. */
export function runActivityEntry(run: BulkRun, buildingIds: string[]): RunEntry {
  const changes = run.changes as SettingsChanges;
  const status = runStatus(run);
  const words = describeSettingsChanges(changes).join(', ');
  const retry = run.retryOf ? ' (a retry of the failed ones)' : '';
  const failures = run.failed + run.notSent;
  return {
    action: 'configuration.bulk_update',
    summary: `Bulk configuration of ${thermostatCount(run.total)}${retry}: ${words}. ${status.label}: ${countsInWords(run)}`,
    thermostatId: null,
    buildingId: buildingIds.length === 1 ? (buildingIds[0] ?? null) : null,
    changes: {
      runId: run.id,
      settings: changes,
      state: run.state,
      total: run.total,
      applied: run.applied,
      failed: run.failed,
      notSent: run.notSent,
      cancelled: run.cancelled,
      buildings: buildingIds.length,
      ...(run.retryOf ? { retryOf: run.retryOf } : {}),
      ...(run.cancelledByName ? { cancelledBy: run.cancelledByName } : {}),
      ...(run.note ? { note: run.note } : {}),
    },
    outcome: run.state === 'done' && failures === 0 ? 'success' : 'failure',
    error:
      run.state === 'cancelled'
        ? 'cancelled'
        : failures === 0
          ? null
          : run.applied === 0
            ? 'failed'
            : `${failures} failed`,
  };
}

export type ProgressLike = {
  state: string;
  cancelRequested: boolean;
  note: string | null;
  counts: Record<string, number>;
};

/** What a run's page shows that can change, as one string (the page's refresher compares it). */
export function progressSignature(progress: ProgressLike): string {
  const counts = Object.entries(progress.counts).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([progress.state, progress.cancelRequested, progress.note, counts]);
}
