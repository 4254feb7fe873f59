import 'server-only';
import {
  BrokenCircuitError,
  type CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  circuitBreaker,
  ExponentialBackoff,
  fullJitterGenerator,
  handleWhen,
  retry,
  wrap,
} from 'cockatiel';
import { ServiceError } from './errors';

/**
 * How Setpoint copes with a failing or busy service, in one place (cockatiel's retry and
 * circuit breakers, and one deadline per request). The request function (./request.ts) wraps
 * each call to the service in `resilient`; the call budget is its own concern (./budget.ts).
 *
 * - One deadline per request for its time at the service: a write's one call has
 *   SERVICE_TIMEOUT_MS; a read's attempts (and the waits the service asks for) share 1.5 times
 *   that (15 s by default, where three full timeouts took 30 s), each call still cut at
 *   SERVICE_TIMEOUT_MS.
 * - Reads: up to 3 attempts, after 5xx, timeouts and dropped connections, with jittered
 *   exponential backoff (200 ms, then up to 2 s); writes are never repeated.
 * - Circuit breakers, per endpoint and thermostat (3 failures in a row) and per endpoint
 *   (10 in a row): open, they fail every call at once for 30 s, then let one call try.
 * - The service's Retry-After holds every call of every instance until the time it gave: it is
 *   kept with the call budget (./budget.ts), where a call that can wait that long waits and any
 *   other fails at once, saying until when.
 */
export const READ_ATTEMPTS = 3;
export const READ_DEADLINE_FACTOR = 1.5;
export const THERMOSTAT_BREAKER_FAILURES = 3;
export const ENDPOINT_BREAKER_FAILURES = 10;
export const BREAKER_COOL_DOWN_MS = 30_000;
/** Breakers kept at most; the oldest go first (a closed breaker forgets nothing worth keeping). */
const MAX_BREAKERS = 5_000;

/** An endpoint as its template (`GET /api/v2/thermostats/:id/status`) and the thermostat. */
export function endpointOf(
  method: string,
  path: string,
): { template: string; thermostatId: string | null } {
  const segments = (path.split('?')[0] ?? '').split('/');
  let thermostatId: string | null = null;
  const template = segments.map((segment, index) => {
    const previous = segments[index - 1];
    if (previous === 'thermostats' && index === 4 && segment !== 'settings') {
      thermostatId = decodeURIComponent(segment);
      return ':id';
    }
    if (previous === 'comfortSettings') return ':ref';
    return segment;
  });
  return { template: `${method} ${template.join('/')}`, thermostatId };
}

// ---- one deadline per request ---------------------------------------------------------------

/**
 * A request's time at the service: every send is taken from it, so retries share one deadline.
 * Time queued for a budget slot is not taken (it is ours, bounded by the budget's own wait).
 */
export class Deadline {
  private spentMs = 0;

  constructor(readonly limitMs: number) {}

  remainingMs(): number {
    return Math.max(0, this.limitMs - this.spentMs);
  }

  /** Runs `work` (a send or a wait), taking the time it took from the deadline. */
  async spend<T>(work: () => Promise<T>): Promise<T> {
    const started = Date.now();
    try {
      return await work();
    } finally {
      this.spentMs += Date.now() - started;
    }
  }
}

// ---- circuit breakers -----------------------------------------------------------------------

type Breaker = { policy: CircuitBreakerPolicy; openUntil: number };
const breakers = new Map<string, Breaker>();

// Only the service's own failures count: not the values it refused, not a missing connection.
const endpointFailures = new WeakSet<ServiceError>();

/** Marks an error as the endpoint failing (5xx, timeout, dropped connection). */
export function endpointFailure(error: ServiceError): ServiceError {
  endpointFailures.add(error);
  return error;
}

function breakerFor(key: string, failures: number): Breaker {
  const breaker = breakers.get(key);
  if (breaker) return breaker;
  const policy = circuitBreaker(
    handleWhen((error) => error instanceof ServiceError && endpointFailures.has(error)),
    { halfOpenAfter: BREAKER_COOL_DOWN_MS, breaker: new ConsecutiveBreaker(failures) },
  );
  const created: Breaker = { policy, openUntil: 0 };
  policy.onBreak(() => {
    created.openUntil = Date.now() + BREAKER_COOL_DOWN_MS;
  });
  breakers.set(key, created);
  if (breakers.size > MAX_BREAKERS) {
    const oldest = breakers.keys().next().value;
    if (oldest !== undefined) breakers.delete(oldest);
  }
  return created;
}

// ---- a call, with all of the above ------------------------------------------------------------

// Full jitter: a random wait up to 200 ms, then up to 400 ms (up to 2 s at most).
const readBackoff = new ExponentialBackoff({
  generator: fullJitterGenerator,
  initialDelay: 200,
  maxDelay: 2_000,
});

/**
 * Runs `attempt` (one send, which throws a ServiceError on failure) under the breakers of its
 * endpoint, and for a read under the retry policy, within `deadline`.
 */
export async function resilient<T>(
  request: { method: string; path: string; idempotent: boolean; deadline: Deadline },
  attempt: () => Promise<T>,
): Promise<T> {
  const { template, thermostatId } = endpointOf(request.method, request.path);
  const guards = [breakerFor(template, ENDPOINT_BREAKER_FAILURES)];
  if (thermostatId !== null) {
    guards.push(breakerFor(`${template} ${thermostatId}`, THERMOSTAT_BREAKER_FAILURES));
  }
  const guarded = wrap(...guards.map((guard) => guard.policy));
  try {
    if (!request.idempotent) return await guarded.execute(attempt);
    const retryable = handleWhen(
      (error) =>
        error instanceof ServiceError &&
        error.retryAt === null &&
        (error.kind === 'unavailable' || error.kind === 'rate_limited') &&
        request.deadline.remainingMs() > 0,
    );
    const reads = retry(retryable, { maxAttempts: READ_ATTEMPTS - 1, backoff: readBackoff });
    return await reads.execute(() => guarded.execute(attempt));
  } catch (error) {
    if (!(error instanceof BrokenCircuitError)) throw error;
    const open = guards.filter((guard) => guard.policy.state !== CircuitState.Closed);
    const until = Math.max(Date.now() + 1000, ...open.map((guard) => guard.openUntil));
    throw new ServiceError('unavailable', {
      message: `circuit open for ${template}`,
      notSent: true,
      retryAt: new Date(until),
    });
  }
}
