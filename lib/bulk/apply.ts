import 'server-only';
import { z } from 'zod';
import { type Actor, logActivity } from '@/lib/activity';
import { describeSettingsChanges } from '@/lib/settings/configuration';
import { describeServiceError, ServiceError } from '@/lib/thermostat-api/errors';
import { bulkUpdateSettings, type SettingsChanges } from '@/lib/thermostat-api/resources';
import { thermostatIdSchema } from '@/lib/thermostat-api/schemas';
import {
  type BulkItemResult,
  CHUNKS_IN_FLIGHT,
  chunk,
  failChunk,
  MAX_PER_REQUEST,
  resultsOfChunk,
  runChunks,
} from './plan';

/** One request's ids, checked again right before the call: 1..25 well-formed, no repeats. */
export const chunkIdsSchema = z
  .array(thermostatIdSchema)
  .min(1)
  .max(MAX_PER_REQUEST)
  .refine((ids) => new Set(ids).size === ids.length, 'Each thermostat once.');

/** A failure that means no further request can succeed: stop and report the rest as not sent. */
const FATAL = new Set(['not_connected', 'reconnect', 'unauthorized', 'forbidden']);

/**
 * Applies the same settings changes to many thermostats (already checked to be in the member's
 * scope and theirs to change):
 * requests of at most 25, a few in flight, one activity entry per request, and a result per
 * thermostat handed to `onChunk` as each request finishes.
 */
export async function applyBulkChanges(input: {
  actor: Actor;
  thermostatIds: string[];
  changes: SettingsChanges;
  signal?: AbortSignal;
  onChunk?: (results: BulkItemResult[]) => void | Promise<void>;
}): Promise<BulkItemResult[]> {
  const { actor, changes } = input;
  const chunks = chunk(input.thermostatIds, MAX_PER_REQUEST);
  const words = describeSettingsChanges(changes).join(', ');
  let stopReason: string | null = null;
  let sent = 0;

  return runChunks(chunks, {
    concurrency: CHUNKS_IN_FLIGHT,
    shouldStop: () =>
      input.signal?.aborted ? 'Not sent: the run was interrupted before this request.' : stopReason,
    work: async (ids) => {
      const thermostatIds = chunkIdsSchema.parse(ids);
      sent += 1;
      const request = `request ${sent} of ${chunks.length}`;
      try {
        const answer = await bulkUpdateSettings({ orgId: actor.orgId, thermostatIds, changes });
        const results = resultsOfChunk(thermostatIds, answer);
        const applied = results.filter((r) => r.outcome === 'applied').map((r) => r.thermostatId);
        const failed = results.filter((r) => r.outcome !== 'applied').map((r) => r.thermostatId);
        await logActivity({
          actor,
          action: 'configuration.bulk_update',
          summary: `Bulk configuration (${request}): ${applied.length} applied, ${failed.length} failed — ${words}`,
          changes: { settings: changes, applied, failed },
          ...(failed.length > 0 && applied.length === 0
            ? { error: new ServiceError('unavailable', { message: 'every item failed' }) }
            : {}),
        });
        return results;
      } catch (error) {
        if (error instanceof ServiceError && FATAL.has(error.kind)) {
          stopReason = `Not sent: ${describeServiceError(error)}`;
        }
        await logActivity({
          actor,
          action: 'configuration.bulk_update',
          summary: `Bulk configuration (${request}) failed for ${thermostatIds.length} thermostats — ${words}`,
          changes: { settings: changes, failed: thermostatIds },
          error,
        });
        const detail =
          error instanceof ServiceError && error.kind === 'validation'
            ? `Refused: ${Object.entries(error.fieldErrors)
                .map(([field, message]) => `${field}: ${message}`)
                .join('; ')}`
            : describeServiceError(error);
        return failChunk(thermostatIds, 'failed', detail);
      }
    },
    onError: (ids) =>
      failChunk(ids, 'failed', 'Something went wrong on our side; nothing is known. Retry it.'),
    onChunk: input.onChunk,
  });
}
