import 'server-only';
import { z } from 'zod';

/**
 * A passcode entered for one run, held only in the memory of the process that applies it: never
 * written to the database, a job, a log or the activity log, and forgotten when the run ends or
 * after an hour. A run the embedded default applies (its jobs run in the app's own process) uses
 * it; one resumed after a restart, or applied by a separate worker process, cannot, and its
 * thermostats still to do get their locks with the passcode each already has (the run says so).
 */

export const passcodeSchema = z
  .string()
  .regex(/^\d{4}$/, 'Enter exactly four digits, or leave it blank to keep each thermostat’s own.');

const HOLD_MS = 60 * 60 * 1000;

type Held = Map<string, { passcode: string; until: number }>;
const store = globalThis as typeof globalThis & { __setpointRunPasscodes?: Held };

function held(): Held {
  store.__setpointRunPasscodes ??= new Map();
  return store.__setpointRunPasscodes;
}

export function holdPasscode(runId: string, passcode: string): void {
  const until = Date.now() + HOLD_MS;
  held().set(runId, { passcode, until });
  // Forgotten after the hour however the run goes: it may end in another process, or be
  // cancelled before it began, and never ask for it here again.
  setTimeout(() => {
    if (held().get(runId)?.until === until) held().delete(runId);
  }, HOLD_MS).unref();
}

/** The passcode held for this run, if this process holds one still. */
export function passcodeFor(runId: string): string | null {
  const entry = held().get(runId);
  if (!entry) return null;
  if (entry.until < Date.now()) {
    held().delete(runId);
    return null;
  }
  return entry.passcode;
}

export function forgetPasscode(runId: string): void {
  held().delete(runId);
}
