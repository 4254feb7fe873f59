import { describeServiceError, ServiceError } from '@/lib/service/errors';
import type { BulkResult } from '@/lib/service/schemas';

/**
 * The steps of a run, for every kind: split its thermostats into requests of at most 25 (the
 * service's limit), keep a few requests in flight, and turn each answer, or each failure, into
 * one result per thermostat (none silently dropped).
 */

export const MAX_PER_REQUEST = 25;
/** Requests in flight at once for one run; the request layer also keeps to the rate limit. */
export const CHUNKS_IN_FLIGHT = 3;
/** The most thermostats one run takes (a large portfolio, in 25-thermostat requests). */
export const MAX_PER_RUN = 2000;

/** What one request said about one thermostat. */
export type BulkItemResult = {
  thermostatId: string;
  outcome: 'applied' | 'failed' | 'unconfirmed';
  detail: string;
};

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
  not_applied:
    'The service did not confirm the change, and reading the thermostat back just now shows it has not taken effect. Check it before retrying.',
};

/** An item the service's lost answer left unsettled, and reading it back could not settle. */
export const UNCONFIRMED_DETAIL =
  'The service did not confirm the change and the thermostat could not be read back: it may have been applied. Check it, or retry (sending it again is harmless).';
/** An item whose answer was lost, which reading it back showed applied. */
export const READ_BACK_DETAIL =
  'Applied (the service did not confirm it; reading the thermostat back shows it took effect).';

type Item = BulkResult['results'][number];

const SETTING_NAMES: Record<string, string> = {
  heatRange: 'Heat range',
  coolRange: 'Cool range',
  holdAction: 'Hold action',
  fanMinimumOnTime: 'Fan minimum on-time',
};

/**
 * The service's reasons for refusing settings (by field, in its words), each under the setting's
 * name, and what to do where a range was refused (a comfort setting outside it); null for none.
 */
export function refusedDetail(reasons: Record<string, unknown>): string | null {
  const entries = Object.entries(reasons);
  if (entries.length === 0) return null;
  const said = entries.map(
    ([field, message]) =>
      `${SETTING_NAMES[field.split('.')[0] ?? ''] ?? field}: ${String(message).replace(/\.$/, '')}`,
  );
  const range = entries.some(([field]) => /^(heat|cool)Range/.test(field));
  const next = range
    ? ' Change the comfort setting outside it on the thermostat’s page, or choose a wider range, then retry the failed ones.'
    : '';
  return `Refused. ${said.join('; ')}.${next}`;
}

/** One item of the service's answer, in words. */
export function describeItem(item: Item): BulkItemResult {
  const { thermostatId } = item;
  if (item.status === 'success') {
    return {
      thermostatId,
      outcome: 'applied',
      detail: item.readBack ? READ_BACK_DETAIL : 'Applied.',
    };
  }
  if (item.status === 'fail') {
    return {
      thermostatId,
      outcome: 'failed',
      detail: refusedDetail(item.reasons) ?? 'Refused by the service.',
    };
  }
  if (item.code === 'unconfirmed') {
    return { thermostatId, outcome: 'unconfirmed', detail: UNCONFIRMED_DETAIL };
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
  detail: string,
  outcome: 'failed' | 'unconfirmed' = 'failed',
): BulkItemResult[] {
  return ids.map((thermostatId) => ({ thermostatId, outcome, detail }));
}

/**
 * The requests of a run still to send: request k always carries the pending items at positions
 * 25k to 25k+24, so a run that resumes after a restart sends the same groups it planned (and a
 * request that was in flight is sent again as it was). In order of position.
 */
export function requestsOf(
  pending: readonly { thermostatId: string; position: number }[],
  size = MAX_PER_REQUEST,
): { request: number; thermostatIds: string[] }[] {
  const groups = new Map<number, string[]>();
  for (const item of [...pending].sort((a, b) => a.position - b.position)) {
    const request = Math.floor(item.position / size);
    const ids = groups.get(request) ?? [];
    ids.push(item.thermostatId);
    groups.set(request, ids);
  }
  return [...groups].map(([request, thermostatIds]) => ({ request, thermostatIds }));
}

/**
 * Runs `work` on each task in order, at most `concurrency` at once. Before each start it asks
 * `shouldStop` (the worker reads the run's state there); once that says stop, or a task throws,
 * no further task starts, and those in flight finish. Resolves with how many started and whether
 * it stopped early, or rejects with the first error once every lane has stopped.
 */
export async function runInLanes<T>(
  tasks: readonly T[],
  options: {
    concurrency: number;
    work: (task: T) => Promise<void>;
    shouldStop?: () => boolean | Promise<boolean>;
  },
): Promise<{ started: number; stopped: boolean }> {
  let next = 0;
  let stopped = false;
  let failure: { error: unknown } | null = null;
  const lane = async () => {
    while (next < tasks.length && !stopped && !failure) {
      if (await options.shouldStop?.()) {
        stopped = true;
        break;
      }
      if (stopped || failure || next >= tasks.length) break;
      const task = tasks[next++] as T;
      try {
        await options.work(task);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const lanes = Math.max(1, Math.min(options.concurrency, tasks.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  if (failure) throw (failure as { error: unknown }).error;
  return { started: next, stopped: stopped || next < tasks.length };
}

/** A failed write's outcome: `unconfirmed` where it may have been applied and no read settled it. */
export function failureOutcome(error: unknown): 'failed' | 'unconfirmed' {
  return error instanceof ServiceError && error.kind === 'unconfirmed' ? 'unconfirmed' : 'failed';
}

/** A failed write in words: the service's refusal by field, or what kind of failure it was. */
export function failureDetail(error: unknown): string {
  if (error instanceof ServiceError && error.kind === 'validation') {
    return refusedDetail(error.fieldErrors) ?? describeServiceError(error);
  }
  if (!(error instanceof ServiceError)) {
    return 'Something went wrong on our side; whether it applied is not known. Retry it.';
  }
  return describeServiceError(error);
}
