import 'server-only';
import { listRecentFailures, recordSignInAttempt } from '@/lib/db/queries';

/**
 * Sign-in throttling, kept in the database so that every app instance sees the same counts.
 * An account is locked after 5 failed attempts in 15 minutes (whoever makes them) and a client
 * after 20, until the oldest counted failure is 15 minutes old. A success clears an account's
 * count. The lock holds even for the right password, so guessing cannot continue behind it.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_CLIENT = 20;

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export async function checkSignInThrottle(input: {
  email: string;
  client: string;
  now?: Date;
}): Promise<ThrottleVerdict> {
  const now = input.now ?? new Date();
  const since = new Date(now.getTime() - SIGN_IN_WINDOW_MS);
  const [byAccount, byClient] = await Promise.all([
    listRecentFailures({ by: 'email', value: input.email, since }),
    listRecentFailures({ by: 'client', value: input.client, since }),
  ]);
  const waits = [
    waitFor(byAccount, MAX_FAILURES_PER_ACCOUNT, now),
    waitFor(byClient, MAX_FAILURES_PER_CLIENT, now),
  ].filter((wait) => wait > 0);
  if (waits.length === 0) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.ceil(Math.max(...waits) / 1000) };
}

/** How long until fewer than `limit` failures remain in the window (0 when already under). */
function waitFor(failures: Date[], limit: number, now: Date): number {
  if (failures.length < limit) return 0;
  // Once the (n - limit + 1)th most recent failure leaves the window, the count drops below limit.
  const blocking = failures[failures.length - limit];
  return blocking ? blocking.getTime() + SIGN_IN_WINDOW_MS - now.getTime() : 0;
}

export function recordSignInResult(input: {
  email: string;
  client: string;
  succeeded: boolean;
  now?: Date;
}): Promise<void> {
  return recordSignInAttempt({ ...input, at: input.now });
}

/**
 * The client's address as the nearest proxy reports it: the last X-Forwarded-For entry (Next.js
 * sets the header to the socket address when no proxy did). Behind no proxy a client can forge
 * it, which the per-account limit still covers.
 */
export function clientAddress(forwardedFor: string | null | undefined): string {
  const last = forwardedFor?.split(',').at(-1)?.trim();
  return last || 'unknown';
}
