import 'server-only';
import { CLIENT_ADDRESS_HEADER, CLIENT_ADDRESS_MARK } from '@/lib/platform/client-address';
import {
  deletePasswordResetRequest,
  listRecentPasswordResetRequests,
  recordPasswordResetRequest,
} from './password-resets-store';
import {
  DEVICE_CLIENT_PREFIX,
  deleteSignInAttempt,
  listRecentFailures,
  markSignInAttempt,
  recordSignInAttempt,
} from '@/lib/auth/store';

/**
 * Sign-in throttling, kept in the database so that every app instance sees the same counts.
 * Failed attempts are counted in several scopes; an attempt goes on only while it is within
 * the limit of every scope that applies to it:
 *
 * | scope                                   | limit | window | applies to                    |
 * | --------------------------------------- | ----- | ------ | ----------------------------- |
 * | one account from one client address     | 5     | 15 min | attempts without a device     |
 * | one client address, any account         | 20    | 15 min | attempts without a device     |
 * | one account from any address            | 10    | 1 h    | attempts without a device     |
 * | one account from one known device       | 5     | 15 min | attempts with a device cookie |
 *
 * A known device is a browser that signed in to that account before (lib/auth/device.ts): a
 * spray of the account from many addresses slows it to 10 guesses an hour without locking its
 * owner out of their own browser. A new browser waits for the hour to pass, or for an owner to
 * unlock the account (`unlockSignIn`). A success (or an unlock) resets the account's scopes;
 * nothing resets a client's, or one valid account would let a client keep guessing at others.
 * A lock holds even for the right password, so guessing cannot continue behind it.
 *
 * Race-free under bursts: each attempt is recorded (as failed) before the password is checked,
 * and it may go on only if it is among the first `limit` failures of each scope; a refused
 * attempt removes its own record, so waiting out a lock is not prolonged by trying.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const ACCOUNT_WINDOW_MS = 60 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT_AND_CLIENT = 5;
export const MAX_FAILURES_PER_CLIENT = 20;
export const MAX_FAILURES_PER_ACCOUNT = 10;
export const MAX_FAILURES_PER_DEVICE = 5;

/** A client whose address cannot be known (not served by server.ts): no per-client scope. */
export const UNKNOWN_CLIENT = 'unknown';

export type SignInAttempt =
  | { allowed: true; attemptId: number }
  | { allowed: false; retryAfterSeconds: number };

type Scope = {
  limit: number;
  windowMs: number;
  keys: { email?: string; client?: string; fromDevices?: boolean };
};

function scopesOf(email: string, client: string, device: string | null): Scope[] {
  if (device !== null) {
    return [
      { limit: MAX_FAILURES_PER_DEVICE, windowMs: SIGN_IN_WINDOW_MS, keys: { email, client } },
    ];
  }
  const scopes: Scope[] = [
    {
      limit: MAX_FAILURES_PER_ACCOUNT_AND_CLIENT,
      windowMs: SIGN_IN_WINDOW_MS,
      keys: { email, client },
    },
    {
      limit: MAX_FAILURES_PER_ACCOUNT,
      windowMs: ACCOUNT_WINDOW_MS,
      keys: { email, fromDevices: false },
    },
  ];
  if (client !== UNKNOWN_CLIENT) {
    scopes.push({ limit: MAX_FAILURES_PER_CLIENT, windowMs: SIGN_IN_WINDOW_MS, keys: { client } });
  }
  return scopes;
}

export async function startSignInAttempt(input: {
  email: string;
  /** The client's address (`clientOf`). */
  client: string;
  /** The id of a genuine device cookie for this email, if the browser sent one. */
  device?: string | null;
  now?: Date;
}): Promise<SignInAttempt> {
  const now = input.now ?? new Date();
  const device = input.device ?? null;
  const client = device === null ? input.client : `${DEVICE_CLIENT_PREFIX}${device}`;
  const attemptId = await recordSignInAttempt({
    email: input.email,
    client,
    succeeded: false,
    at: now,
  });
  const waits = await Promise.all(
    scopesOf(input.email, client, device).map(async (scope) => {
      const since = new Date(now.getTime() - scope.windowMs);
      const failures = await listRecentFailures({ ...scope.keys, since });
      return waitFor(failures, attemptId, scope, now);
    }),
  );
  const longest = Math.max(0, ...waits);
  if (longest === 0) return { allowed: true, attemptId };
  await deleteSignInAttempt({ id: attemptId });
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(longest / 1000)) };
}

/** 0 when this attempt is among the first `limit` failures; else how long until a slot frees. */
function waitFor(
  failures: { id: number; at: Date }[],
  attemptId: number,
  scope: Scope,
  now: Date,
): number {
  const earlier = failures.filter((failure) => failure.id < attemptId);
  if (earlier.length < scope.limit) return 0;
  // Once the (n - limit + 1)th most recent earlier failure leaves the window, a slot is free.
  const blocking = earlier[earlier.length - scope.limit];
  return blocking ? Math.max(blocking.at.getTime() + scope.windowMs - now.getTime(), 1) : 1;
}

export function finishSignInAttempt(input: {
  attemptId: number;
  succeeded: boolean;
}): Promise<void> {
  return markSignInAttempt({ id: input.attemptId, succeeded: input.succeeded });
}

/**
 * The client's address, from the header server.ts sets from the socket (and TRUSTED_PROXIES),
 * replacing whatever a client sent. In a process not served by server.ts (`next dev`, a plain
 * `next start`) no header can be trusted, and the client is unknown.
 */
export function clientOf(headers: Record<string, string | string[] | undefined> | undefined) {
  if (!(globalThis as Record<symbol, unknown>)[CLIENT_ADDRESS_MARK]) return UNKNOWN_CLIENT;
  const value = headers?.[CLIENT_ADDRESS_HEADER];
  return (Array.isArray(value) ? value[0] : value) || UNKNOWN_CLIENT;
}

// --- Password reset requests --------------------------------------------------------------------

/**
 * Requests for a reset link, counted whether or not the email has an account (so that a limit
 * says nothing about accounts), in two scopes:
 *
 * | scope          | limit | window | when over it                                               |
 * | -------------- | ----- | ------ | ---------------------------------------------------------- |
 * | one email      | 3     | 1 h    | the same answer as ever, and nothing is sent (no flooding)  |
 * | one client     | 10    | 1 h    | the asker is told to wait (it says nothing about accounts) |
 *
 * Recorded before anything else and counted by id, as sign-in attempts are: a burst cannot slip
 * past a limit, and a request refused by its client's limit removes its own record. One over the
 * email's limit keeps its record: it was answered.
 */
export const RESET_REQUEST_WINDOW_MS = 60 * 60 * 1000;
export const MAX_RESET_REQUESTS_PER_EMAIL = 3;
export const MAX_RESET_REQUESTS_PER_CLIENT = 10;

export type ResetRequestVerdict =
  | { allowed: true; send: boolean }
  | { allowed: false; retryAfterSeconds: number };

export async function startPasswordResetRequest(input: {
  email: string;
  client: string;
  now?: Date;
}): Promise<ResetRequestVerdict> {
  const now = input.now ?? new Date();
  const since = new Date(now.getTime() - RESET_REQUEST_WINDOW_MS);
  const id = await recordPasswordResetRequest({
    email: input.email,
    client: input.client,
    at: now,
  });
  const window = { limit: 0, windowMs: RESET_REQUEST_WINDOW_MS, keys: {} };
  if (input.client !== UNKNOWN_CLIENT) {
    const fromClient = await listRecentPasswordResetRequests({ client: input.client, since });
    const wait = waitFor(fromClient, id, { ...window, limit: MAX_RESET_REQUESTS_PER_CLIENT }, now);
    if (wait > 0) {
      await deletePasswordResetRequest({ id });
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
    }
  }
  const forEmail = await listRecentPasswordResetRequests({ email: input.email, since });
  const send = waitFor(forEmail, id, { ...window, limit: MAX_RESET_REQUESTS_PER_EMAIL }, now) === 0;
  return { allowed: true, send };
}
