import type { BulkResult } from '@/lib/thermostat-api/schemas';

/**
 * The pure part of a bulk change: split a selection into requests of at most 25 (the service's
 * limit), turn each answer into one result per thermostat, and merge runs and retries, so that
 * every selected thermostat always ends with a result and none is silently dropped.
 */

export const MAX_PER_REQUEST = 25;
/** Requests in flight at once for one run; the request layer also keeps to the rate limit. */
export const CHUNKS_IN_FLIGHT = 3;
/** The most thermostats one run takes (a large portfolio, in 25-thermostat requests). */
export const MAX_PER_RUN = 2000;

export type BulkOutcome = 'applied' | 'failed' | 'not_attempted';
export type BulkItemResult = { thermostatId: string; outcome: BulkOutcome; detail: string };

export function chunk<T>(items: readonly T[], size = MAX_PER_REQUEST): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new Error('chunk size must be a positive integer');
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

const ITEM_CODES: Record<string, string> = {
  thermostat_not_found:
    'The service does not know this thermostat (or your account may not see it).',
  thermostat_offline: 'The thermostat is offline.',
  service_unavailable: 'The service could not reach this thermostat right now.',
  internal_error: 'The service failed on this thermostat.',
};

type Item = BulkResult['results'][number];

/** One item of the service's answer, in words. */
export function describeItem(item: Item): BulkItemResult {
  const { thermostatId } = item;
  if (item.status === 'success') return { thermostatId, outcome: 'applied', detail: 'Applied.' };
  if (item.status === 'fail') {
    const data = item.data && typeof item.data === 'object' ? item.data : {};
    const reasons = Object.entries(data as Record<string, unknown>).map(
      ([field, message]) => `${field}: ${String(message)}`,
    );
    return {
      thermostatId,
      outcome: 'failed',
      detail: reasons.length ? `Refused: ${reasons.join('; ')}` : 'Refused by the service.',
    };
  }
  const known = item.code ? ITEM_CODES[item.code] : undefined;
  return {
    thermostatId,
    outcome: 'failed',
    detail: known ?? item.message ?? `Failed${item.code ? ` (${item.code})` : ''}.`,
  };
}

/**
 * One result per id of a request, in request order: the service's answer where it gave one;
 * an id it left out is failed, not forgotten.
 */
export function resultsOfChunk(ids: readonly string[], answer: BulkResult): BulkItemResult[] {
  const byId = new Map(answer.results.map((item) => [item.thermostatId, item]));
  return ids.map((thermostatId) => {
    const item = byId.get(thermostatId);
    return item
      ? describeItem(item)
      : {
          thermostatId,
          outcome: 'failed',
          detail: 'The service did not report on this thermostat; check it and retry.',
        };
  });
}

/** Every id of a request that failed as a whole. */
export function failChunk(
  ids: readonly string[],
  outcome: Exclude<BulkOutcome, 'applied'>,
  detail: string,
): BulkItemResult[] {
  return ids.map((thermostatId) => ({ thermostatId, outcome, detail }));
}

/**
 * The results of a run for `selection`, in selection order: later results (a retry) replace
 * earlier ones for the same id; an id with no result at all is "not attempted".
 */
export function mergeResults(
  selection: readonly string[],
  ...runs: ReadonlyArray<readonly BulkItemResult[]>
): BulkItemResult[] {
  const latest = new Map<string, BulkItemResult>();
  for (const run of runs) for (const result of run) latest.set(result.thermostatId, result);
  return selection.map(
    (thermostatId) =>
      latest.get(thermostatId) ?? {
        thermostatId,
        outcome: 'not_attempted',
        detail: 'Not sent.',
      },
  );
}

export function summarize(results: readonly BulkItemResult[]) {
  const counts = { applied: 0, failed: 0, not_attempted: 0 };
  for (const result of results) counts[result.outcome] += 1;
  return { ...counts, total: results.length };
}

/** What a retry sends: the failed ones and the ones never sent. */
export function toRetry(results: readonly BulkItemResult[]): string[] {
  return results.filter((r) => r.outcome !== 'applied').map((r) => r.thermostatId);
}

/**
 * Runs `work` on each chunk with at most `concurrency` in flight, in order of start. A chunk
 * whose work throws gets `onError`'s results; once `shouldStop()` says so, the chunks not yet
 * started are "not attempted" with its reason.
 */
export async function runChunks(
  chunks: readonly string[][],
  options: {
    concurrency: number;
    work: (ids: string[]) => Promise<BulkItemResult[]>;
    onError: (ids: string[], error: unknown) => BulkItemResult[];
    onChunk?: (results: BulkItemResult[]) => void | Promise<void>;
    shouldStop?: () => string | null;
  },
): Promise<BulkItemResult[]> {
  const all: BulkItemResult[] = [];
  let next = 0;
  const lane = async () => {
    while (next < chunks.length) {
      const ids = chunks[next++] as string[];
      const stop = options.shouldStop?.() ?? null;
      let results: BulkItemResult[];
      if (stop !== null) results = failChunk(ids, 'not_attempted', stop);
      else {
        try {
          results = await options.work(ids);
        } catch (error) {
          results = options.onError(ids, error);
        }
      }
      all.push(...results);
      await options.onChunk?.(results);
    }
  };
  const lanes = Math.max(1, Math.min(options.concurrency, chunks.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  return all;
}
