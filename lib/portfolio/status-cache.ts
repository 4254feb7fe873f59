import 'server-only';
import { ServiceError } from '@/lib/thermostat-api/errors';
import { getStatus } from '@/lib/thermostat-api/resources';
import type { ThermostatStatus } from '@/lib/thermostat-api/schemas';

/**
 * A short-lived cache of thermostat statuses, so a building of hundreds of thermostats is not
 * re-fetched on every view (the service asks integrators to poll no more than every few
 * minutes). Concurrent reads of one thermostat share one call. Each entry keeps when it was
 * read, which the pages show. Failures are not cached.
 */
export const STATUS_TTL_MS = 60_000;
const MAX_ENTRIES = 5_000;

export type StatusReading =
  | { ok: true; status: ThermostatStatus; readAt: Date }
  | { ok: false; error: ServiceError; readAt: Date };

type Entry = { reading: Promise<StatusReading>; settled?: StatusReading; expiresAt: number };
const entries = new Map<string, Entry>();

const keyOf = (orgId: string, thermostatId: string) => `${orgId}:${thermostatId}`;

/** The status of one thermostat, from the cache when fresh; never throws. */
export function readStatus(input: { orgId: string; thermostatId: string }): Promise<StatusReading> {
  const key = keyOf(input.orgId, input.thermostatId);
  const cached = entries.get(key);
  if (cached && cached.expiresAt > Date.now()) return cached.reading;

  const reading = getStatus(input).then(
    (status): StatusReading => {
      const settled: StatusReading = { ok: true, status, readAt: new Date() };
      entry.settled = settled;
      return settled;
    },
    (error: unknown): StatusReading => {
      if (entries.get(key) === entry) entries.delete(key);
      const failure = error instanceof ServiceError ? error : new ServiceError('unavailable');
      return { ok: false, error: failure, readAt: new Date() };
    },
  );
  const entry: Entry = { reading, expiresAt: Date.now() + STATUS_TTL_MS };
  entries.set(key, entry);
  if (entries.size > MAX_ENTRIES) {
    const oldest = entries.keys().next().value;
    if (oldest) entries.delete(oldest);
  }
  return entry.reading;
}

/** The fresh status already read, if there is one: a page can render it without waiting. */
export function peekStatus(input: {
  orgId: string;
  thermostatId: string;
}): StatusReading | undefined {
  const cached = entries.get(keyOf(input.orgId, input.thermostatId));
  return cached && cached.expiresAt > Date.now() ? cached.settled : undefined;
}

/** Forgets cached statuses, so the next view reads them from the service. */
export function forgetStatuses(input: { orgId: string; thermostatIds: string[] }): void {
  for (const id of input.thermostatIds) entries.delete(keyOf(input.orgId, id));
}

/** After a write that returned the new status, keep it instead of reading it again. */
export function rememberStatus(input: { orgId: string; status: ThermostatStatus }): void {
  const reading: StatusReading = { ok: true, status: input.status, readAt: new Date() };
  entries.set(keyOf(input.orgId, input.status.thermostatId), {
    reading: Promise.resolve(reading),
    settled: reading,
    expiresAt: Date.now() + STATUS_TTL_MS,
  });
}
