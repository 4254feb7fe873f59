import 'server-only';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type CallKind,
  type CallWindow,
  endCalls,
  type FairShare,
  recordServiceLimits,
  takeCalls,
} from '@/lib/service/budget-store';
import { getEnv } from '@/lib/platform/env';
import { logWarning } from '@/lib/platform/log';

/**
 * The one call budget of the deployment. The service limits the whole deployment (per client
 * address) to 50 calls a second, 500 a minute and 10,000 an hour, and 120 token calls per two
 * hours; every call from every instance takes a slot here first, from windows kept in the
 * database (lib/service/budget-store.ts). Configured a little under the service's limits, so network
 * jitter cannot push a window over.
 *
 * Priorities share the windows: a member's write and the thermostat in front of them may fill
 * them; the rows of a page being viewed leave a little room for those; refreshing stale readings
 * and background work (the poller, bulk runs) leave more. So when the budget is short, what a
 * person is waiting for goes first.
 */
import { budgetWindows, PRIORITIES, type Priority, type ServiceLimits } from './budget-windows';

export { budgetWindows, PRIORITIES, type Priority, type ServiceLimits };

export function tokenWindows(limits: ServiceLimits): CallWindow[] {
  return [
    {
      seconds: limits.tokenWindowSeconds,
      cap: Math.max(1, limits.tokenPerWindow - Math.ceil(limits.tokenPerWindow * 0.08)),
    },
  ];
}

/**
 * Refreshing readings and background work are divided fairly among organisations over the
 * minute (lib/service/budget-store.ts's FairShare); what a person does or looks at is not.
 */
function fairShareOf(windows: CallWindow[], priority: Priority): FairShare | undefined {
  const minute = windows.find((window) => window.seconds === 60);
  if (!minute || PRIORITIES[priority] < PRIORITIES.refresh) return undefined;
  return { fromPriority: PRIORITIES.refresh, seconds: 60, cap: minute.cap };
}

/** What a call could not get: a slot before its deadline. `until` is when one is expected. */
export class BudgetExhausted extends Error {
  override name = 'BudgetExhausted';
  constructor(
    readonly until: Date,
    readonly reason: string,
  ) {
    super(`No call budget before ${until.toISOString()} (${reason})`);
  }
}

type CallInput = {
  orgId: string | null;
  priority: Priority;
  deadline: number;
  /** Stops the wait for a slot (the call is given up; see ./request.ts). */
  signal?: AbortSignal;
};

/**
 * Runs `call` (one call to the service) in a slot of the budget: waits for the slot, at most
 * until `deadline` (ms since the epoch): past it, or when the budget says the wait would outlast
 * it, it throws BudgetExhausted at once, with the time a slot is expected, rather than waiting
 * in vain. The slot is counted until the call has ended, however long it took to reach the
 * service (lib/service/budget-store.ts).
 */
export async function withCall<T>(input: CallInput, call: () => Promise<T>): Promise<T> {
  return inSlots(await takeSlot(input), call);
}

/**
 * Runs a token-endpoint call in its slots: one of the API's windows (the service counts those
 * calls there too) and one of the token endpoint's own (120 per two hours). Both are taken before
 * `call` runs, so a refresh takes them before it locks the connection (the lock holds PGlite's
 * only connection).
 */
export async function withTokenCall<T>(
  input: Omit<CallInput, 'priority'>,
  call: () => Promise<T>,
): Promise<T> {
  // The token endpoint's own window first: its wait can be long, and a slot of the API's taken
  // before it would be held (counted) all that while. Both end once `call` has.
  return inSlots(await takeSlot({ ...input, priority: 'interactive' }, 'token'), async () =>
    inSlots(await takeSlot({ ...input, priority: 'interactive' }), call),
  );
}

/** Runs `call`, then says the calls `ids` have ended, however it went. */
async function inSlots<T>(ids: number[], call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } finally {
    // Failing to say so only keeps the slots counted a while longer (IN_FLIGHT_MAX_SECONDS).
    await endCalls(ids).catch((error: unknown) =>
      logWarning('could not end a call in the budget', String(error)),
    );
  }
}

async function takeSlot(input: CallInput, kind: CallKind = 'api'): Promise<number[]> {
  const limits = getEnv().SERVICE_RATE_LIMIT;
  const windows = kind === 'token' ? tokenWindows(limits) : budgetWindows(limits, input.priority);
  for (;;) {
    input.signal?.throwIfAborted();
    const take = await takeCalls({
      kind,
      orgId: input.orgId,
      priority: PRIORITIES[input.priority],
      count: 1,
      windows,
      fairShare: kind === 'api' ? fairShareOf(windows, input.priority) : undefined,
    });
    if (take.granted) return take.ids;
    const until = take.until?.getTime() ?? Date.now() + take.waitMs;
    if (until > input.deadline) throw new BudgetExhausted(new Date(until), take.reason);
    // A little jitter, so instances that waited for the same slot do not all ask at once.
    await sleep(take.waitMs + Math.random() * 20, undefined, { signal: input.signal });
  }
}

/** Low enough that the service's own count should shrink ours: a tenth of a window left. */
const LOW = 0.1;

/**
 * Reads what a response says about the budget: a 429's Retry-After holds every instance until
 * then; a low `x-ratelimit-remaining-*` (another client on the same address spending it too)
 * caps our minute or hour at what the service says is left.
 */
export async function observeLimits(response: {
  status: number;
  headers: Headers;
  /** A 429's Retry-After as a time. */
  retryAt: Date | null;
}): Promise<void> {
  const limits = getEnv().SERVICE_RATE_LIMIT;
  const remaining = (window: string) => {
    const value = Number(response.headers.get(`x-ratelimit-remaining-${window}`));
    return response.headers.has(`x-ratelimit-remaining-${window}`) && Number.isFinite(value)
      ? value
      : undefined;
  };
  const minute = remaining('minute');
  const hour = remaining('hour');
  if (response.status === 429) {
    // The refusal says exactly when to ask again; what it says is left is that it is used up.
    await recordServiceLimits({ holdUntil: response.retryAt ?? new Date(Date.now() + 1000) });
    return;
  }
  const lowMinute = minute !== undefined && minute < limits.perMinute * LOW ? minute : undefined;
  const lowHour = hour !== undefined && hour < limits.perHour * LOW ? hour : undefined;
  if (lowMinute !== undefined || lowHour !== undefined) {
    await recordServiceLimits({ minuteRemaining: lowMinute, hourRemaining: lowHour });
  }
}
