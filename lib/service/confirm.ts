import 'server-only';
import { logWarning } from '@/lib/platform/log';
import { changedNothing, ServiceError } from './errors';

/**
 * A write whose answer was lost (a timeout, a dropped connection, a 5xx, a 2xx Setpoint could
 * not read) may have been applied: telling a manager "nothing was changed" then invites a second
 * reset, move or create. So such a write is read back, within the call budget like any call,
 * and reported as the read shows: applied, not applied (ServiceError `not_applied`), or, where
 * the read fails or the service offers none, perhaps applied (`unconfirmed`).
 */

/** A write the service applied. */
export type Written<T> = {
  /** What the service answered, where it sent something Setpoint could read. */
  answer: T | null;
  /** Its answer was lost, and reading the thermostat back showed it was applied. */
  readBack: boolean;
};

/** What reading a thermostat back shows of a write: applied (with what it made) or not. */
export type ReadBack<T> = { applied: false } | { applied: true; answer?: T };

export async function confirmWrite<T>(
  what: string,
  write: () => Promise<T | null>,
  readBack: (() => Promise<ReadBack<T>>) | null,
): Promise<Written<T>> {
  try {
    return { answer: await write(), readBack: false };
  } catch (error) {
    if (!(error instanceof ServiceError) || changedNothing(error)) throw error;
    if (!readBack) {
      logWarning(`${what}: the answer was lost and cannot be read back; it may have been applied`);
      throw new ServiceError('unconfirmed', { status: error.status });
    }
    let seen: ReadBack<T>;
    try {
      seen = await readBack();
    } catch {
      logWarning(`${what}: the answer was lost and reading back failed; it may have been applied`);
      throw new ServiceError('unconfirmed', { status: error.status });
    }
    logWarning(
      `${what}: the answer was lost (${error.kind}); reading back shows it was ${seen.applied ? '' : 'not '}applied`,
    );
    if (!seen.applied) throw new ServiceError('not_applied', { status: error.status });
    return { answer: seen.answer ?? null, readBack: true };
  }
}

/**
 * Whether `current` holds every value of `changes` (nested objects compared field by field;
 * numbers to the hundredth, the service's precision).
 */
export function holds(current: unknown, changes: unknown): boolean {
  if (typeof changes === 'number' && typeof current === 'number') {
    return Math.abs(current - changes) < 0.005;
  }
  if (changes && typeof changes === 'object' && !Array.isArray(changes)) {
    if (!current || typeof current !== 'object') return false;
    return Object.entries(changes).every(([key, value]) =>
      value === undefined ? true : holds((current as Record<string, unknown>)[key], value),
    );
  }
  return current === changes;
}
