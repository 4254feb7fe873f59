/** Every way a call to the thermostat service can fail, as one error class with kinds. */
export type ServiceErrorKind =
  /** No connection yet: the manager must connect their service account. */
  | 'not_connected'
  /** The service refused our refresh token: the manager must reconnect. */
  | 'reconnect'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  /** The service refused the values; `fieldErrors` says which. */
  | 'validation'
  | 'conflict'
  | 'rate_limited'
  /** 5xx, timeouts, dropped connections. */
  | 'unavailable'
  /** The service answered something that does not match the contract. */
  | 'invalid_response'
  /**
   * A write whose answer was lost or unreadable (it may have been applied), and reading the
   * thermostat back shows it was not.
   */
  | 'not_applied'
  /**
   * A write whose answer was lost or unreadable, which Setpoint could not read back (the read
   * failed, or the service offers none): it may have been applied.
   */
  | 'unconfirmed';

export class ServiceError extends Error {
  override name = 'ServiceError';
  readonly kind: ServiceErrorKind;
  readonly status: number | null;
  readonly fieldErrors: Record<string, string>;
  /** The service's own word for the error (`thermostat_offline`), where it gave one. */
  readonly code: string | null;
  /** The call was never made (no slot in the budget, no token, a breaker open). */
  readonly notSent: boolean;
  readonly retryAfterSeconds: number | null;
  /**
   * Setpoint will not call again before this time: the service asked for a longer wait than a
   * request can take (rate_limited), or a circuit breaker is open (unavailable).
   */
  readonly retryAt: Date | null;

  constructor(
    kind: ServiceErrorKind,
    options: {
      status?: number | null;
      message?: string;
      fieldErrors?: Record<string, string>;
      code?: string | null;
      notSent?: boolean;
      retryAfterSeconds?: number | null;
      retryAt?: Date | null;
    } = {},
  ) {
    super(options.message ?? `Thermostat service: ${kind}`);
    this.kind = kind;
    this.status = options.status ?? null;
    this.fieldErrors = options.fieldErrors ?? {};
    this.code = options.code ?? null;
    this.notSent = options.notSent ?? false;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
    this.retryAt = options.retryAt ?? null;
  }
}

/**
 * A call given up by its caller (its signal aborted) while it waited for the budget or a sending
 * slot: it was never sent. A cancelled run's writes still queued end so.
 */
export class CallAbandoned extends Error {
  override name = 'CallAbandoned';
  constructor() {
    super('Given up before it was sent.');
  }
}

/**
 * Whether a failed write is known to have changed nothing: it was never sent (no connection, no
 * room in the call budget, given up while it waited), or the service refused it before acting (a
 * 4xx). After a timeout, a dropped connection, a 5xx or a 2xx Setpoint could not read, it may
 * have been applied, even where reading the thermostat back at once did not show it
 * (`not_applied`: a change may take a moment to show).
 */
export function changedNothing(error: unknown): boolean {
  if (error instanceof CallAbandoned) return true;
  if (!(error instanceof ServiceError)) return false;
  if (error.notSent) return true;
  if (error.kind === 'not_applied' || error.kind === 'unconfirmed') return false;
  return error.status !== null && error.status >= 400 && error.status < 500;
}

/** Whether a failed write may have been applied: it was sent, and not refused. */
export function mayHaveApplied(error: unknown): boolean {
  return !changedNothing(error);
}

/**
 * `14:32 UTC (in 8 min)`, or `14:31:45 UTC (in 30 s)` when it is near: managers sit in many
 * zones, and the server knows none of theirs here.
 */
export function untilPhrase(at: Date, now = Date.now()): string {
  const seconds = Math.max(1, Math.ceil((at.getTime() - now) / 1000));
  const near = seconds < 120;
  const clock = at.toISOString().slice(11, near ? 19 : 16);
  return `${clock} UTC (in ${near ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`})`;
}

/** Whether a failure means the organisation's service connection has ended (reconnect it). */
export function connectionEnded(error: unknown): boolean {
  return (
    error instanceof ServiceError && (error.kind === 'reconnect' || error.kind === 'unauthorized')
  );
}

/** The one place a failure becomes the sentence a manager reads. */
export function describeServiceError(error: unknown): string {
  if (!(error instanceof ServiceError)) {
    return 'Something went wrong on our side. Please try again.';
  }
  switch (error.kind) {
    case 'not_connected':
      // Said to every role: only an owner or admin can connect, and the Connection page says how.
      return 'The thermostat service account is not connected yet: an owner or admin connects it on the Connection page.';
    case 'reconnect':
    case 'unauthorized':
      return 'The connection to the thermostat service has ended: an owner or admin must reconnect it on the Connection page.';
    case 'forbidden':
      return 'Your service account is not allowed to do that for this thermostat.';
    case 'not_found':
      return 'The service does not know this thermostat (or it is not in your account).';
    case 'validation':
      return 'The service did not accept these values.';
    case 'conflict':
      return error.message && !error.message.startsWith('Thermostat service:')
        ? `The service refused: ${error.message}`
        : 'The service refused this change in the thermostat’s current state.';
    case 'rate_limited':
      if (error.retryAt) {
        return `The thermostat service is busy until ${untilPhrase(error.retryAt)}; Setpoint will not ask it again before then.`;
      }
      return `The thermostat service is busy. Try again${
        error.retryAfterSeconds ? ` in ${error.retryAfterSeconds} s` : ' shortly'
      }.`;
    case 'unavailable':
      if (error.retryAt) {
        return `The thermostat service is not responding right now; Setpoint will not ask it again until ${untilPhrase(error.retryAt)}.`;
      }
      return 'The thermostat service is not responding right now. Try again in a moment.';
    case 'invalid_response':
      return error.status !== null && error.status < 300
        ? 'The thermostat service sent an answer Setpoint could not read.'
        : 'The thermostat service sent an answer Setpoint could not read. Try again later.';
    case 'not_applied':
      return 'The thermostat service did not confirm the change, and reading the thermostat back just now shows it has not taken effect. Look at the thermostat before trying again.';
    case 'unconfirmed':
      return 'The thermostat service did not confirm the change, and Setpoint could not read the thermostat back to check: it may have been applied. Look at the thermostat before trying again.';
  }
}

/**
 * Each kind in the two short forms pages use beside describeServiceError's sentence: a clause
 * ("failed: the service refused the values", the activity log) and a table cell's words.
 */
const KIND_WORDS: Record<ServiceErrorKind, { clause: string; cell: string }> = {
  not_connected: { clause: 'the service account was not connected', cell: 'no service connection' },
  reconnect: { clause: 'the connection to the service had ended', cell: 'connection ended' },
  unauthorized: { clause: 'the connection to the service had ended', cell: 'connection ended' },
  forbidden: { clause: 'the service refused access', cell: 'not allowed by the service' },
  not_found: { clause: 'the service did not know it', cell: 'unknown to the service' },
  validation: { clause: 'the service refused the values', cell: 'refused by the service' },
  conflict: { clause: 'it had changed meanwhile', cell: 'refused by the service' },
  rate_limited: { clause: 'the service was busy', cell: 'service busy' },
  unavailable: { clause: 'the service did not answer', cell: 'not responding' },
  invalid_response: {
    clause: 'the service answered with something unreadable',
    cell: 'unreadable answer',
  },
  not_applied: {
    clause: 'the service did not confirm it, and reading it back showed it had not taken effect',
    cell: 'not applied',
  },
  unconfirmed: {
    clause: 'the service did not confirm it, and it may have been applied',
    cell: 'may have been applied',
  },
};

const isKind = (kind: string): kind is ServiceErrorKind => Object.hasOwn(KIND_WORDS, kind);

/** Why a change failed, from its recorded kind: `validation` → "the service refused the values". */
export function failureWords(kind: string): string {
  return isKind(kind) ? KIND_WORDS[kind].clause : 'something went wrong';
}

/** A table cell's words for why a thermostat could not be read: `unavailable` → "not responding". */
export function problemWords(kind: string): string {
  return isKind(kind) ? KIND_WORDS[kind].cell : 'could not be read';
}

/** A recorded failure kind as the full sentence describeServiceError gives it. */
export function describeRecordedFailure(kind: string | null): string {
  if (!kind) return 'It failed.';
  return describeServiceError(isKind(kind) ? new ServiceError(kind) : new Error(kind));
}
