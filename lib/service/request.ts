import 'server-only';
import pLimit from 'p-limit';
import { getEnv } from '@/lib/platform/env';
import { logWarning } from '@/lib/platform/log';
import {
  ConnectionError,
  getAccessToken,
  markTokenRefused,
} from '@/lib/service/connection/connection';
import { BudgetExhausted, observeLimits, type Priority, withCall } from './budget';
import { CallAbandoned, ServiceError, type ServiceErrorKind } from './errors';
import {
  Deadline,
  endpointFailure,
  endpointOf,
  READ_DEADLINE_FACTOR,
  resilient,
} from './resilience';
import { failureOf, type OnUnreadable, type Reader, readAnswer, writeAnswer } from './wire/answers';

/**
 * The one way Setpoint calls the thermostat service: bearer token (refreshed once after a 401),
 * a slot from the deployment's one call budget (./budget.ts) at the caller's priority, bounded
 * concurrency in this process, the resilience policies of ./resilience.ts (one deadline,
 * retries for reads only, circuit breakers), the envelope parsed with zod, and every failure
 * turned into a ServiceError. Resource functions (./resources.ts) sit on top; nothing else sees
 * a URL or a wire format.
 *
 * A read must answer with a success envelope whose data its schema reads. A write is applied
 * when the service answers 2xx with no body (204), or with any success envelope: its data is
 * returned where the schema reads it, and null otherwise (nothing more is needed to know it was
 * applied). A 2xx that is not a success envelope, a 5xx, a timeout or a dropped connection
 * leaves a write unsettled: it may have been applied (./confirm.ts reads it back).
 */

/** A day: a longer Retry-After is taken as a day, not as a reason to stop for good. */
const RETRY_AFTER_MAX_S = 24 * 60 * 60;
/** Concurrent requests in flight from this process (the service asks for a few at a time). */
const CONCURRENCY = 12;
const sends = pLimit(CONCURRENCY);

/**
 * How long a call may wait for a budget slot: a person waits seconds, background work minutes
 * (its job runs again later anyway). A slot further off fails the call at once, saying when.
 */
const QUEUE_WAIT_MS: Record<Priority, number> = {
  interactive: 20_000,
  page: 20_000,
  refresh: 5 * 60_000,
  background: 5 * 60_000,
};

/**
 * Calls asking the budget for a slot at once, from this process (each asks in a transaction of
 * its own): a person's calls and background calls apart, so that background calls waiting
 * minutes for their share never hold up a person's call, whose share has room.
 */
const askers = { person: pLimit(CONCURRENCY), background: pLimit(CONCURRENCY) };
const ASKERS_OF: Record<Priority, keyof typeof askers> = {
  interactive: 'person',
  page: 'person',
  refresh: 'background',
  background: 'background',
};

/**
 * Waits for a budget slot, then for a sending slot, then runs `work` (a token, then one send);
 * the budget counts the call until `work` has ended.
 */
function scheduled<T>(request: ServiceRequest<unknown>, work: () => Promise<T>): Promise<T> {
  const priority = request.priority ?? 'interactive';
  const { signal } = request;
  return askers[ASKERS_OF[priority]](async () => {
    try {
      return await withCall(
        { orgId: request.orgId, priority, deadline: Date.now() + QUEUE_WAIT_MS[priority], signal },
        () =>
          sends(() => {
            // The last moment it can be given up: after this it is sent.
            if (signal?.aborted) throw new CallAbandoned();
            return work();
          }),
      );
    } catch (error) {
      if (signal?.aborted && !(error instanceof ServiceError)) throw new CallAbandoned();
      if (!(error instanceof BudgetExhausted)) throw error;
      throw new ServiceError('rate_limited', {
        notSent: true,
        retryAt: error.until,
        retryAfterSeconds: Math.max(1, Math.ceil((error.until.getTime() - Date.now()) / 1000)),
      });
    }
  });
}

export type ServiceRequest<T> = {
  orgId: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path under the base URL, e.g. `/api/v2/thermostats/123/status`. */
  path: string;
  body?: unknown;
  /** Reads the envelope's `data` on success (a wire schema of ./wire/, into Setpoint's type). */
  schema: Reader<T>;
  /** Whose wait this is, for the call budget; a person's by default. */
  priority?: Priority;
  /**
   * Gives the call up while it waits (for the budget or a sending slot): it is then never sent,
   * and fails with CallAbandoned. Once sent, it runs to its end.
   */
  signal?: AbortSignal;
};

/** A read: the answer's data as its schema reads it, or a ServiceError. */
export function serviceRead<T>(request: ServiceRequest<T> & { method: 'GET' }): Promise<T> {
  return serviceRequest(request, parseRead);
}

/**
 * A write: applied when this resolves, with the answer's data where the service sent a readable
 * one (null otherwise). A ServiceError that `changedNothing` does not clear may have been
 * applied.
 */
export function serviceWrite<T>(
  request: ServiceRequest<T> & { method: 'POST' | 'PATCH' | 'DELETE' },
): Promise<T | null> {
  return serviceRequest(request, parseWrite);
}

async function serviceRequest<T, R>(
  request: ServiceRequest<T>,
  parse: (request: ServiceRequest<T>, response: Response) => Promise<R>,
): Promise<R> {
  const idempotent = request.method === 'GET';
  const timeoutMs = getEnv().SERVICE_TIMEOUT_MS;
  const deadline = new Deadline(idempotent ? timeoutMs * READ_DEADLINE_FACTOR : timeoutMs);
  // Once per request: the token may have expired at the service before our clock said so.
  let retriedAfter401 = false;

  const attempt = async (): Promise<R> => {
    for (;;) {
      // The token is taken once a slot is free, not before queueing: a call that waited behind
      // others then uses the token they refreshed instead of one the service already refused.
      const { token, outcome } = await scheduled(request, async () => {
        const left = Math.min(timeoutMs, deadline.remainingMs());
        if (left <= 0) return { token: null, outcome: { kind: 'out_of_time' } as const };
        const token = await accessTokenFor(request.orgId);
        const signal = AbortSignal.timeout(left);
        return { token, outcome: await deadline.spend(() => send(request, token.token, signal)) };
      });
      if (outcome.kind === 'out_of_time') {
        throw new ServiceError('unavailable', { message: 'out of time', notSent: true });
      }
      if (outcome.kind !== 'response') {
        throw endpointFailure(new ServiceError('unavailable', { message: outcome.kind }));
      }
      if (outcome.response.status === 401 && token && !retriedAfter401) {
        // Said at once, so calls queued behind this one (and its resend) join the refresh.
        retriedAfter401 = true;
        markTokenRefused(request.orgId, token.token);
        continue;
      }
      const failure = await readFailure(outcome.response, deadline);
      if (!failure) return parse(request, outcome.response);
      throw failure.kind === 'unavailable' ? endpointFailure(failure) : failure;
    }
  };

  try {
    return await resilient(
      { method: request.method, path: request.path, idempotent, deadline },
      attempt,
    );
  } catch (error) {
    // An answer Setpoint could not read was said already, with where it broke (`unreadable`).
    if (error instanceof ServiceError && !saidAsUnreadable(error)) {
      logWarning(
        `service ${endpointOf(request.method, request.path).template} failed: ${error.kind} ${error.status ?? ''}${error.retryAt ? ` (no calls before ${error.retryAt.toISOString()})` : ''}`,
      );
    }
    throw error;
  }
}

async function accessTokenFor(orgId: string) {
  try {
    return await getAccessToken(orgId);
  } catch (error) {
    if (error instanceof ConnectionError) {
      const kind: ServiceErrorKind = error.kind === 'unavailable' ? 'unavailable' : error.kind;
      throw new ServiceError(kind, { notSent: true });
    }
    throw error;
  }
}

type Outcome =
  | { kind: 'response'; response: Response }
  | { kind: 'timeout' | 'network' }
  /** The request's deadline was spent before this send: it was not made. */
  | { kind: 'out_of_time' };

async function send<T>(
  request: ServiceRequest<T>,
  token: string,
  signal: AbortSignal,
): Promise<Outcome> {
  const url = new URL(request.path, getEnv().SERVICE_BASE_URL);
  try {
    const response = await fetch(url, {
      method: request.method,
      headers: {
        // The only scheme the service speaks (token-endpoint.ts refuses any other type).
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal,
      cache: 'no-store',
    });
    return { kind: 'response', response };
  } catch {
    return { kind: signal.aborted ? 'timeout' : 'network' };
  }
}

/**
 * A ServiceError for a failed response, or null for a success. What the response says of the
 * budget (a 429's Retry-After, a low x-ratelimit-remaining) is recorded for every instance.
 */
async function readFailure(response: Response, deadline: Deadline): Promise<ServiceError | null> {
  const status = response.status;
  const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
  const retryAt =
    status === 429 ? new Date(Date.now() + Math.max(1, retryAfterSeconds ?? 1) * 1000) : null;
  // Bookkeeping: a database that fails it must not turn an answer (a write applied) into a
  // failure of our own.
  await observeLimits({ status, headers: response.headers, retryAt }).catch((error: unknown) =>
    logWarning('could not record the service’s rate-limit answer', String(error)),
  );
  if (response.ok) return null;
  const body: unknown = await response.json().catch(() => null);
  // Longer than this request could ever wait: said at once (a shorter one is waited out by a
  // read's next attempt, in the budget's queue, or reported by a write).
  if (retryAt && retryAfterSeconds !== null && retryAfterSeconds * 1000 > deadline.limitMs) {
    return new ServiceError('rate_limited', { status, retryAfterSeconds, retryAt });
  }
  return failureOf(status, body, retryAfterSeconds);
}

/** A success status whose body broke the contract: `unreadable` logged it where it broke. */
const saidAsUnreadable = (error: ServiceError) =>
  error.kind === 'invalid_response' && error.status !== null && error.status < 300;

/** Says once, in the server log, where an answer broke the contract (never its values). */
const unreadable =
  <T>(request: ServiceRequest<T>, status: number): OnUnreadable =>
  (issue) =>
    logWarning(
      `service ${endpointOf(request.method, request.path).template} answered ${status} with something Setpoint could not read` +
        (issue
          ? ` at ${issue.path.join('.') || '(data)'}: ${issue.message}`
          : ' (not a success envelope)'),
    );

const textOf = (response: Response) => response.text().catch(() => '\u0000unreadable');

async function parseRead<T>(request: ServiceRequest<T>, response: Response): Promise<T> {
  const { status } = response;
  return readAnswer(request.schema, status, await textOf(response), unreadable(request, status));
}

async function parseWrite<T>(request: ServiceRequest<T>, response: Response): Promise<T | null> {
  const { status } = response;
  return writeAnswer(request.schema, status, await textOf(response), unreadable(request, status));
}

/**
 * Seconds from a Retry-After header (seconds or an HTTP date); null when absent or unreadable.
 * Not capped to what a request can wait: a longer wait is honoured by not calling at all.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value) : (Date.parse(value) - now) / 1000;
  if (!Number.isFinite(seconds)) return null;
  return Math.min(Math.max(Math.ceil(seconds), 0), RETRY_AFTER_MAX_S);
}
