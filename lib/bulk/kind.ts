import 'server-only';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { z } from 'zod';
import {
  type BulkRun,
  claimBulkRun,
  clearBulkRunLeases,
  type FinishInput,
  finishBulkRun,
  type ItemResult,
  listPendingItems,
  listUnfinishedRuns,
  markItemsSent,
  readBulkRunControl,
  recordItemResults,
  releaseBulkRunLease,
  renewBulkRunLease,
} from '@/lib/runs/store';
import { getDatabase } from '@/lib/db/client';
import { getBoss, sendJob } from '@/lib/queue/queue';
import { logWarning } from '@/lib/platform/log';
import { CallAbandoned, describeServiceError, ServiceError } from '@/lib/service/errors';
import { bulkUpdateSettings, type SettingsChanges } from '@/lib/service/resources';
import type { BulkResult } from '@/lib/service/schemas';
import { thermostatIdSchema } from '@/lib/service/schemas';
import {
  CHUNKS_IN_FLIGHT,
  failChunk,
  MAX_PER_REQUEST,
  refusedDetail,
  requestsOf,
  resultsOfChunk,
  runInLanes,
} from '@/lib/runs/steps';
import { CANCELLED_BEFORE_SENT, CANCELLED_IN_FLIGHT, queueBulkRun } from './runs';
import { runActivityEntry } from '@/lib/runs/entry';

/**
 * The bulk-run job: applies a run's pending items in requests of at most 25, a few in flight, at
 * `refresh` priority under the call budget, and records each request's results as it finishes.
 * One worker at a time holds a run (its lease, renewed while it works), so a run survives a
 * restart: the next worker sends only what is still pending. An item whose request was in flight
 * when a worker died is sent again (a configuration write sets absolute values, so a repeat
 * changes nothing more) and is recorded once. Cancel is honoured between requests.
 */

/** How long a lease lasts without renewal; it is renewed every third of that. */
export const LEASE_SECONDS = 30;
/** Requests that may carry one item before it is failed instead of sent again. */
export const MAX_SENDS = 3;
/** Said of an item left unsent after a request carrying it was in flight when Setpoint stopped. */
const NOT_SENT_IN_FLIGHT =
  'A request carrying it was in flight when Setpoint stopped earlier, so it may have been applied; check it.';
/** Why an item was failed instead of sent a fourth time. */
export const SENT_TOO_OFTEN = `Sent ${MAX_SENDS} times without an answer reaching Setpoint (it stopped each time while the request was in flight); check it and retry.`;

/** One request's ids, checked again right before the call: 1..25 well-formed, no repeats. */
export const chunkIdsSchema = z
  .array(thermostatIdSchema)
  .min(1)
  .max(MAX_PER_REQUEST)
  .refine((ids) => new Set(ids).size === ids.length, 'Each thermostat once.');

/** Failures after which no further request can succeed: the rest is not sent. */
export const FATAL = new Set(['not_connected', 'reconnect', 'unauthorized', 'forbidden']);

export type Apply = (input: {
  orgId: string;
  thermostatIds: string[];
  changes: SettingsChanges;
  /** Aborted when the run stops: a request still waiting to be sent is then given up. */
  signal?: AbortSignal;
}) => Promise<BulkResult>;

const applyAtRefreshPriority: Apply = (input) =>
  bulkUpdateSettings({ ...input, priority: 'refresh' });

const holder = globalThis as typeof globalThis & { __setpointWorkerId?: string };

/** This process's name on the leases it holds. */
export function workerId(): string {
  holder.__setpointWorkerId ??= `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  return holder.__setpointWorkerId;
}

/**
 * The name one job of this process holds a lease by. Per job, not per process: two jobs for the
 * same run in one process (a duplicate from the sweep, a retry) must not both hold its lease.
 */
export function jobOwner(): string {
  return `${workerId()}:${randomUUID().slice(0, 8)}`;
}

/** Why a worker stopped working a run before it ran out of work. */
export type Stop =
  | { kind: 'cancel' }
  | { kind: 'fatal'; reason: string }
  | { kind: 'pause'; until: Date; reason: string }
  | { kind: 'interrupted' }
  | { kind: 'lost' };

export type WorkOutcome = 'finished' | 'cancelled' | 'paused' | 'held' | 'interrupted';

/** Nothing was sent and the service (or our budget) says when to ask again: wait, do not fail. */
export function pauseFor(error: unknown): Date | null {
  if (!(error instanceof ServiceError)) return null;
  if (error.kind === 'rate_limited') {
    return (
      error.retryAt ?? new Date(Date.now() + Math.max(1, error.retryAfterSeconds ?? 10) * 1000)
    );
  }
  if (error.kind === 'unavailable' && error.retryAt) return error.retryAt;
  return null;
}

/** A failed write's outcome: `unconfirmed` where it may have been applied and no read settled it. */
export function failureOutcome(error: unknown): 'failed' | 'unconfirmed' {
  return error instanceof ServiceError && error.kind === 'unconfirmed' ? 'unconfirmed' : 'failed';
}

export function failureDetail(error: unknown): string {
  if (error instanceof ServiceError && error.kind === 'validation') {
    return refusedDetail(error.fieldErrors) ?? describeServiceError(error);
  }
  if (!(error instanceof ServiceError)) {
    return 'Something went wrong on our side; whether it applied is not known. Retry it.';
  }
  return describeServiceError(error);
}

/**
 * Works one run until it is finished, cancelled, paused (the budget is spent until later: a job
 * is queued for then), or interrupted (`signal`; the run is left for the next worker). Another
 * worker's live lease means there is nothing to do here ('held').
 */
export async function workBulkRun(input: {
  runId: string;
  owner?: string;
  apply?: Apply;
  signal?: AbortSignal;
  leaseSeconds?: number;
}): Promise<WorkOutcome> {
  const owner = input.owner ?? jobOwner();
  const apply = input.apply ?? applyAtRefreshPriority;
  const leaseSeconds = input.leaseSeconds ?? LEASE_SECONDS;
  const { runId } = input;
  const run = await claimBulkRun({ runId, owner, leaseSeconds });
  if (!run) return 'held';

  let stop: Stop | null = null;
  // Once the run stops, its requests still waiting for the budget are not sent.
  const abandon = new AbortController();
  const stopWith = (reason: Stop) => {
    stop ??= reason;
    abandon.abort();
  };
  const releaseLease = keepLease({ runId, owner, leaseSeconds, onStop: stopWith });

  const changes = run.changes as SettingsChanges;
  const send = async ({ thermostatIds }: { thermostatIds: string[] }) => {
    const carried = await markItemsSent({ runId, thermostatIds });
    const sends = new Map(carried.map((item) => [item.thermostatId, item.attempts]));
    const worn = thermostatIds.filter((id) => (sends.get(id) ?? 0) > MAX_SENDS);
    if (worn.length > 0) {
      await recordItemResults({
        runId,
        results: failChunk(worn, SENT_TOO_OFTEN),
      });
    }
    const ids = thermostatIds.filter((id) => sends.has(id) && !worn.includes(id));
    if (ids.length === 0) return;
    let results: ItemResult[];
    try {
      const answer = await apply({
        orgId: run.orgId,
        thermostatIds: chunkIdsSchema.parse(ids),
        changes,
        signal: abandon.signal,
      });
      results = resultsOfChunk(ids, answer);
    } catch (error) {
      if (error instanceof CallAbandoned) {
        // Never sent: its items stay pending, for how the run ends to say.
        await markItemsSent({ runId, thermostatIds: ids, delta: -1 });
        return;
      }
      const until = pauseFor(error);
      if (until || (error instanceof ServiceError && FATAL.has(error.kind))) {
        // Nothing was applied: this request does not count, and its items stay pending.
        await markItemsSent({ runId, thermostatIds: ids, delta: -1 });
        stopWith(
          until
            ? { kind: 'pause', until, reason: describeServiceError(error) }
            : { kind: 'fatal', reason: describeServiceError(error) },
        );
        return;
      }
      results = failChunk(ids, failureDetail(error), failureOutcome(error));
    }
    await recordItemResults({ runId, results });
  };

  try {
    await runInLanes(requestsOf(await listPendingItems({ runId })), {
      concurrency: CHUNKS_IN_FLIGHT,
      work: send,
      shouldStop: async () => {
        if (input.signal?.aborted) stopWith({ kind: 'interrupted' });
        if (stop) return true;
        const control = await readBulkRunControl({ runId });
        if (!control || control.leaseOwner !== owner) stopWith({ kind: 'lost' });
        else if (control.cancelRequested) stopWith({ kind: 'cancel' });
        return stop !== null;
      },
    });
  } finally {
    releaseLease();
  }
  const ended = await endLeasedRun({
    runId,
    owner,
    stop: stop as Stop | null,
    describe: runActivityEntry,
  });
  return ended.outcome;
}

/**
 * Keeps a worker's lease on a run while it works, renewing it every third of its length; a
 * renewal that finds the lease gone calls `onLost`. Returns the function that stops renewing.
 */
export function keepLease(input: {
  runId: string;
  owner: string;
  leaseSeconds: number;
  /** Called when the lease is lost, or a cancel is asked for: between calls, not only before. */
  onStop: (stop: Stop) => void;
}): () => void {
  const { runId, owner, leaseSeconds } = input;
  const renewal = setInterval(
    () => {
      renewBulkRunLease({ runId, owner, leaseSeconds }).then(
        (lease) => {
          if (!lease.held) input.onStop({ kind: 'lost' });
          else if (lease.cancelRequested) input.onStop({ kind: 'cancel' });
        },
        (error: unknown) => logWarning(`run ${runId}: lease not renewed`, String(error)),
      );
    },
    (leaseSeconds * 1000) / 3,
  );
  renewal.unref();
  return () => clearInterval(renewal);
}

/**
 * How a worker leaves a run, for every kind of run: interrupted (the lease is given up for the
 * next worker), paused until the budget allows (a job is queued for then), or finished, as
 * cancelled or done with what is left not sent. A worker whose lease another has taken over,
 * unnoticed, ends nothing: the run is theirs.
 */
export async function endLeasedRun(input: {
  runId: string;
  owner: string;
  stop: Stop | null;
  describe: FinishInput['describe'];
}): Promise<{ outcome: WorkOutcome; finished: BulkRun | null }> {
  const { runId, owner, stop } = input;
  const interrupted = { outcome: 'interrupted' as const, finished: null };
  if (stop?.kind === 'lost') return interrupted;
  if (stop?.kind === 'interrupted') {
    await releaseBulkRunLease({ runId, owner });
    return interrupted;
  }
  if (stop?.kind === 'pause') {
    await releaseBulkRunLease({
      runId,
      owner,
      notBefore: stop.until,
      note: `Waiting: ${stop.reason}`,
    });
    await queueBulkRun(runId, stop.until);
    return { outcome: 'paused', finished: null };
  }
  const control = await readBulkRunControl({ runId });
  if (control?.leaseOwner !== owner) return interrupted;
  // A cancel that came after the last request started still cancels what is left (if anything).
  if (stop?.kind === 'cancel' || control.cancelRequested) {
    const finished = await finishBulkRun({
      runId,
      state: 'cancelled',
      rest: {
        outcome: 'cancelled',
        detail: CANCELLED_BEFORE_SENT,
        inFlightDetail: CANCELLED_IN_FLIGHT,
      },
      describe: input.describe,
    });
    return { outcome: 'cancelled', finished };
  }
  const reason = stop?.kind === 'fatal' ? stop.reason : null;
  const finished = await finishBulkRun({
    runId,
    state: 'done',
    rest: {
      outcome: 'not_sent',
      detail: reason ? `Not sent: ${reason}` : 'Not sent.',
      inFlightDetail: `Not sent again${reason ? `: ${reason}` : '.'} ${NOT_SENT_IN_FLIGHT}`,
    },
    note: reason,
    describe: input.describe,
  });
  return { outcome: 'finished', finished };
}

/**
 * Makes sure every unfinished run has a worker coming: a run no live lease holds, not waiting
 * for later, whose job is not queued any more (lost, failed, or taken by a worker that died) gets
 * a new job. At the start of a process on the embedded database every lease is a dead
 * process's (PGlite is opened by one process), so they are dropped first and the runs resume at
 * once; on PostgreSQL another instance may be alive, so its leases are waited out. Returns how
 * many runs were queued.
 */
export async function resumeBulkRuns(options: { atStartUp?: boolean } = {}): Promise<number> {
  if (options.atStartUp && (await getDatabase()).kind === 'pglite') await clearBulkRunLeases();
  const boss = await getBoss();
  let queued = 0;
  let recheck: number | null = null;
  for (const run of await listUnfinishedRuns()) {
    if (run.leaseLive) {
      // Held now; should its holder be gone, look again once the lease has run out.
      const at = (run.leaseUntil?.getTime() ?? Date.now()) + 1000;
      recheck = recheck === null ? at : Math.min(recheck, at);
      continue;
    }
    if (run.waiting) continue; // a job is queued for when it may go on
    if (run.jobId) {
      const job = await boss.getJobById('bulk-run', run.jobId).catch(() => null);
      if (job && (job.state === 'created' || job.state === 'retry')) continue;
    }
    await queueBulkRun(run.id);
    queued += 1;
  }
  if (recheck !== null) {
    await sendJob('resume-bulk-runs', {}, { startAfter: new Date(recheck) }).catch(
      (error: unknown) => logWarning('bulk runs: recheck not queued', String(error)),
    );
  }
  return queued;
}
