import type { BulkItemOutcome, BulkRun } from './store';
import { OUTCOMES, type OutcomeKind } from '@/lib/outcomes';
import { describeHoldAction } from '@/lib/settings/configuration';
import type { SettingsChanges } from '@/lib/service/resources';
import { formatRange, type TemperatureUnit } from '@/lib/platform/units';

/**
 * A run of any kind in words: what it is called, its state as every list shows it, its counts,
 * and a configuration change as a manager reads it before confirming. A run with failures never
 * reads "Done". No server-only code: the run page's refresher (a client component) uses it.
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
 * lib/runs/store/runs.ts): said to be theirs, so the share never reads as the whole run.
 */
export const IN_YOUR_BUILDINGS = ' in your buildings';

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
  if (run.kind === 'occupancy') return run.title ?? 'Occupancy settings';
  return null;
}

/** "Template “Vacant unit” on 60 thermostats", "Bulk configuration of 1 thermostat": the run. */
export function runTitle(run: Pick<BulkRun, 'kind' | 'title' | 'total' | 'changes'>): string {
  const name = runName(run);
  if (name === null) return `Bulk configuration of ${thermostatCount(run.total)}`;
  // An occupancy run names its unit, and so its one thermostat.
  return run.kind === 'occupancy' ? name : `${name} on ${thermostatCount(run.total)}`;
}

/** Whether a template run is a one-off change (`changes.oneOff`), not a saved template's. */
export function isOneOff(run: Pick<BulkRun, 'kind' | 'changes'>): boolean {
  return run.kind === 'template' && (run.changes as { oneOff?: unknown } | null)?.oneOff === true;
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
