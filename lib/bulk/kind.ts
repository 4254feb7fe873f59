import 'server-only';
import { z } from 'zod';
import { MAX_SENDS, type RunContext, type RunKind } from '@/lib/runs/engine';
import { type ItemResult, listPendingItems, recordItemResults } from '@/lib/runs/store';
import {
  CHUNKS_IN_FLIGHT,
  failChunk,
  failureDetail,
  failureOutcome,
  MAX_PER_REQUEST,
  requestsOf,
  resultsOfChunk,
  runInLanes,
} from '@/lib/runs/steps';
import { CallAbandoned } from '@/lib/service/errors';
import { bulkUpdateSettings, type SettingsChanges } from '@/lib/service/resources';
import type { BulkResult } from '@/lib/service/schemas';
import { thermostatIdSchema } from '@/lib/service/schemas';

/**
 * The configuration kind of run, on the run engine (lib/runs/engine.ts): applies a run's pending
 * thermostats in requests of at most 25, a few in flight, at `refresh` priority under the call
 * budget, and records each request's results as it finishes. A thermostat whose request was in
 * flight when a worker died is sent again (a configuration write sets absolute values, so a
 * repeat changes nothing more) and is recorded once. Nothing to plan: it is applied at once.
 */

/** Why a thermostat was failed instead of sent a fourth time. */
export const SENT_TOO_OFTEN = `Sent ${MAX_SENDS} times without an answer reaching Setpoint (it stopped each time while the request was in flight); check it and retry.`;

/** One request's ids, checked again right before the call: 1..25 well-formed, no repeats. */
export const chunkIdsSchema = z
  .array(thermostatIdSchema)
  .min(1)
  .max(MAX_PER_REQUEST)
  .refine((ids) => new Set(ids).size === ids.length, 'Each thermostat once.');

export type Apply = (input: {
  orgId: string;
  thermostatIds: string[];
  changes: SettingsChanges;
  /** Aborted when the run stops: a request still waiting to be sent is then given up. */
  signal?: AbortSignal;
}) => Promise<BulkResult>;

const applyAtRefreshPriority: Apply = (input) =>
  bulkUpdateSettings({ ...input, priority: 'refresh' });

export function configurationKind(apply: Apply = applyAtRefreshPriority): RunKind {
  return {
    async work(context) {
      await runInLanes(requestsOf(await listPendingItems({ runId: context.run.id })), {
        concurrency: CHUNKS_IN_FLIGHT,
        shouldStop: context.shouldStop,
        work: ({ thermostatIds }) => send(context, apply, thermostatIds),
      });
      return undefined;
    },
  };
}

/** One request: the same changes to up to 25 thermostats. */
async function send(context: RunContext, apply: Apply, thermostatIds: string[]): Promise<void> {
  const { run } = context;
  const ids = await context.carry(thermostatIds, () => SENT_TOO_OFTEN);
  if (ids.length === 0) return;
  let results: ItemResult[];
  try {
    const answer = await apply({
      orgId: run.orgId,
      thermostatIds: chunkIdsSchema.parse(ids),
      changes: run.changes as SettingsChanges,
      signal: context.abandon,
    });
    results = resultsOfChunk(ids, answer);
  } catch (error) {
    // Never sent (given up as the run stopped), or nothing was applied and the whole run stops
    // (a spent budget pauses it, a lost connection ends it): the request does not count, and its
    // thermostats stay pending, for how the run ends to say.
    if (error instanceof CallAbandoned || context.stopsRun(error)) {
      await context.uncarry(ids);
      return;
    }
    results = failChunk(ids, failureDetail(error), failureOutcome(error));
  }
  await recordItemResults({ runId: run.id, results });
}
