import 'server-only';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { logWarning } from '@/lib/platform/log';
import { describeServiceError, ServiceError } from '@/lib/service/errors';
import { runEntry } from './entry';
import { forgetPasscode } from './passcodes';
import {
  type BulkRun,
  claimBulkRun,
  finishBulkRun,
  type ItemResult,
  markItemsSent,
  readBulkRunControl,
  recordItemResults,
  releaseBulkRunLease,
  renewBulkRunLease,
} from './store';
import { queueRun } from './sweep';

/**
 * The one run engine, for every kind of run (a configuration change, a template, a one-off
 * change, an undo). One worker at a time holds a run, by a lease renewed while it works, so a run
 * survives a restart: the next worker goes on with what is still pending. The engine claims the
 * run, keeps its lease, hears a cancel or a lost lease between calls, stops the whole run on a
 * failure that says to (a spent budget pauses it, a lost connection ends it), counts every call
 * carrying a thermostat before it is made, and ends the run: interrupted, paused, cancelled or
 * done, with its one activity entry (lib/runs/entry.ts). A kind of run supplies only how it
 * plans and what it sends (`RunKind`); the jobs registry (lib/jobs/run-kinds.ts) names them.
 */

/** How long a lease lasts without renewal; it is renewed every third of that. */
export const LEASE_SECONDS = 30;
/** Calls that may carry one thermostat before it is failed instead of sent again. */
export const MAX_SENDS = 3;
/** Said of a thermostat left unsent after a call carrying it was in flight when Setpoint stopped. */
const NOT_SENT_IN_FLIGHT =
  'A request carrying it was in flight when Setpoint stopped earlier, so it may have been applied; check it.';
export const CANCELLED_BEFORE_SENT = 'Cancelled before it was sent.';
export const CANCELLED_IN_FLIGHT =
  'Cancelled, but a request carrying it was in flight when Setpoint stopped, so it may have been applied; check it.';

/** Failures after which no further call can succeed: the rest is not sent. */
export const FATAL = new Set(['not_connected', 'reconnect', 'unauthorized', 'forbidden']);

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

/** What the engine lends a kind of run while it holds the run's lease. */
export type RunContext = {
  readonly run: BulkRun;
  readonly owner: string;
  /** Aborted once the run stops: a call still waiting for the budget is then given up. */
  readonly abandon: AbortSignal;
  /** Why the run stopped, once it has. */
  stopped(): Stop | null;
  stopWith(stop: Stop): void;
  /** Between calls: whether to stop (interrupted, cancelled, or the lease lost). */
  shouldStop(): Promise<boolean>;
  /**
   * A failed call that says to stop the whole run (the budget is spent until later, or the
   * connection is gone) stops it and answers true; any other failure is the thermostat's own.
   */
  stopsRun(error: unknown): boolean;
  /**
   * Counts a call about to carry these thermostats, before it is made (so a call in flight when
   * Setpoint stops is known to have perhaps been applied), and answers those to send: still
   * pending, and carried at most `MAX_SENDS` times. The others are failed here, `worn` saying why.
   */
  carry(
    thermostatIds: readonly string[],
    worn: (thermostatId: string) => string,
  ): Promise<string[]>;
  /** The call is known not to have reached these: it no longer counts. */
  uncarry(thermostatIds: readonly string[]): Promise<void>;
};

/** What a kind of run adds to the engine: how it plans, and what it sends. */
export type RunKind = {
  /**
   * Works the claimed run while the engine holds its lease: plans it, or sends what is pending,
   * recording each thermostat's result. Answers 'planned' when planning is done and the run waits
   * for a member to apply it.
   */
  work(context: RunContext): Promise<'planned' | undefined>;
  /** After its worker finished it (done or cancelled). */
  finished?(run: BulkRun): Promise<void>;
};

export type RunKinds = { readonly [K in BulkRun['kind']]: RunKind };

/**
 * Works one run until it is finished, cancelled, paused (the budget is spent until later: a job
 * is queued for then), planned (it waits for a member), or interrupted (`signal`; the run is left
 * for the next worker). Another worker's live lease means there is nothing to do here ('held').
 */
export async function workRun(input: {
  runId: string;
  kinds: RunKinds;
  owner?: string;
  signal?: AbortSignal;
  leaseSeconds?: number;
}): Promise<WorkOutcome> {
  const owner = input.owner ?? jobOwner();
  const leaseSeconds = input.leaseSeconds ?? LEASE_SECONDS;
  const { runId } = input;
  const run = await claimBulkRun({ runId, owner, leaseSeconds });
  if (!run) return 'held';

  let stop: Stop | null = null;
  const abandon = new AbortController();
  const stopWith = (reason: Stop) => {
    stop ??= reason;
    abandon.abort();
  };
  const context: RunContext = {
    run,
    owner,
    abandon: abandon.signal,
    stopped: () => stop,
    stopWith,
    shouldStop: async () => {
      if (input.signal?.aborted) stopWith({ kind: 'interrupted' });
      if (stop) return true;
      const control = await readBulkRunControl({ runId });
      if (!control || control.leaseOwner !== owner) stopWith({ kind: 'lost' });
      else if (control.cancelRequested) stopWith({ kind: 'cancel' });
      return stop !== null;
    },
    stopsRun: (error) => {
      const until = pauseFor(error);
      if (until) stopWith({ kind: 'pause', until, reason: describeServiceError(error) });
      else if (error instanceof ServiceError && FATAL.has(error.kind)) {
        stopWith({ kind: 'fatal', reason: describeServiceError(error) });
      } else return false;
      return true;
    },
    carry: async (thermostatIds, worn) => {
      const carried = await markItemsSent({ runId, thermostatIds: [...thermostatIds] });
      const sends = new Map(carried.map((item) => [item.thermostatId, item.attempts]));
      const tooOften = thermostatIds.filter((id) => (sends.get(id) ?? 0) > MAX_SENDS);
      await recordItemResults({
        runId,
        results: tooOften.map(
          (thermostatId): ItemResult => ({
            thermostatId,
            outcome: 'failed',
            detail: worn(thermostatId),
          }),
        ),
      });
      return thermostatIds.filter((id) => sends.has(id) && !tooOften.includes(id));
    },
    uncarry: async (thermostatIds) => {
      if (thermostatIds.length === 0) return;
      await markItemsSent({ runId, thermostatIds: [...thermostatIds], delta: -1 });
    },
  };
  const kind = input.kinds[run.kind];
  const releaseLease = keepLease({ runId, owner, leaseSeconds, onStop: stopWith });
  let planned = false;
  try {
    planned = (await kind.work(context)) === 'planned';
  } finally {
    // A throw keeps the lease until it runs out; the sweep then queues the run again.
    releaseLease();
  }
  if (planned) return 'finished';
  const ended = await endRun({ runId, owner, stop: context.stopped() });
  if (ended.finished) {
    forgetPasscode(runId);
    await kind.finished?.(ended.finished);
  }
  return ended.outcome;
}

/**
 * Keeps a worker's lease on a run while it works, renewing it every third of its length; a
 * renewal that finds the lease gone, or a cancel asked for, calls `onStop`. Returns the function
 * that stops renewing.
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
 * How a worker leaves a run: interrupted (the lease is given up for the next worker), paused
 * until the budget allows (a job is queued for then), or finished, as cancelled or done with
 * what is left not sent. A worker whose lease another has taken over, unnoticed, ends nothing:
 * the run is theirs.
 */
async function endRun(input: {
  runId: string;
  owner: string;
  stop: Stop | null;
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
    await queueRun(runId, stop.until);
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
      describe: runEntry,
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
    describe: runEntry,
  });
  return { outcome: 'finished', finished };
}
