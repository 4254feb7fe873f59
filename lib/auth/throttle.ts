import 'server-only';
import {
  deleteSignInAttempt,
  listRecentFailures,
  markSignInAttempt,
  recordSignInAttempt,
} from '@/lib/db/queries';

/**
 * Sign-in throttling, kept in the database so that every app instance sees the same counts.
 * An account is locked after 5 failed attempts in 15 minutes (whoever makes them) and a client
 * after 20, until the oldest counted failure is 15 minutes old. A success clears an account's
 * count. The lock holds even for the right password, so guessing cannot continue behind it.
 *
 * Race-free under bursts: each attempt is recorded (as failed) before the password is checked,
 * and it may go on only if it is among the first `limit` failures in the window; a refused
 * attempt removes its own record, so waiting out a lock is not prolonged by trying.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_CLIENT = 20;

export type SignInAttempt =
  | { allowed: true; attemptId: number }
  | { allowed: false; retryAfterSeconds: number };

export async function startSignInAttempt(input: {
  email: string;
  client: string;
  now?: Date;
}): Promise<SignInAttempt> {
  const now = input.now ?? new Date();
  const attemptId = await recordSignInAttempt({ ...input, succeeded: false, at: now });
  const since = new Date(now.getTime() - SIGN_IN_WINDOW_MS);
  const [byAccount, byClient] = await Promise.all([
    listRecentFailures({ by: 'email', value: input.email, since }),
    listRecentFailures({ by: 'client', value: input.client, since }),
  ]);
  const waits = [
    waitFor(byAccount, attemptId, MAX_FAILURES_PER_ACCOUNT, now),
    waitFor(byClient, attemptId, MAX_FAILURES_PER_CLIENT, now),
  ].filter((wait) => wait > 0);
  if (waits.length === 0) return { allowed: true, attemptId };
  await deleteSignInAttempt({ id: attemptId });
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(Math.max(...waits) / 1000)) };
}

/** 0 when this attempt is among the first `limit` failures; else how long until a slot frees. */
function waitFor(
  failures: { id: number; at: Date }[],
  attemptId: number,
  limit: number,
  now: Date,
): number {
  const earlier = failures.filter((failure) => failure.id < attemptId);
  if (earlier.length < limit) return 0;
  // Once the (n - limit + 1)th most recent earlier failure leaves the window, a slot is free.
  const blocking = earlier[earlier.length - limit];
  return blocking ? Math.max(blocking.at.getTime() + SIGN_IN_WINDOW_MS - now.getTime(), 1) : 1;
}

export function finishSignInAttempt(input: {
  attemptId: number;
  succeeded: boolean;
}): Promise<void> {
  return markSignInAttempt({ id: input.attemptId, succeeded: input.succeeded });
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
