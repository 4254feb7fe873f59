import type { z } from 'zod';
import { ServiceError, type ServiceErrorKind } from '@/lib/service/errors';
import { errorWords, failEnvelope, refusalReasons, successEnvelope } from './envelope';

/**
 * How the service's answers are read, whatever the resource (pure: the request function in
 * ../request.ts sends and hands the answers here). A read must be a success envelope whose data
 * its schema reads. A write is applied when the service answered 2xx with no body, or with any
 * success envelope: its data where the schema reads it, null otherwise. Any other 2xx leaves a
 * write unsettled (it may have been applied): a ServiceError `invalid_response` with its status.
 */

/** Reads an envelope's `data` into Setpoint's type (a schema of this folder). */
export type Reader<T> = { safeParse(data: unknown): z.ZodSafeParseResult<T> };
/** Told where an answer broke the contract: the first issue, or none (not an envelope at all). */
export type OnUnreadable = (issue?: z.core.$ZodIssue) => void;

/** A 2xx body as JSON: null for none (204, or empty), undefined when it is not JSON. */
export function jsonOf(status: number, text: string): unknown {
  if (status === 204 || text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function readAnswer<T>(
  schema: Reader<T>,
  status: number,
  text: string,
  onUnreadable: OnUnreadable,
): T {
  const envelope = successEnvelope.safeParse(jsonOf(status, text));
  const parsed = envelope.success ? schema.safeParse(envelope.data.data) : null;
  if (!parsed?.success) {
    onUnreadable(parsed?.error.issues[0]);
    throw new ServiceError('invalid_response', { status });
  }
  return parsed.data;
}

export function writeAnswer<T>(
  schema: Reader<T>,
  status: number,
  text: string,
  onUnreadable: OnUnreadable,
): T | null {
  const body = jsonOf(status, text);
  if (body === null) return null;
  const envelope = successEnvelope.safeParse(body);
  if (!envelope.success) {
    onUnreadable();
    throw new ServiceError('invalid_response', { status });
  }
  const data = envelope.data.data;
  if (data === undefined || data === null) return null;
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  // Applied (the service said success): only its data is unreadable, and nothing needs it.
  onUnreadable(parsed.error.issues[0]);
  return null;
}

const STATUS_KINDS: Record<number, ServiceErrorKind> = {
  400: 'validation',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  422: 'validation',
  429: 'rate_limited',
};

/**
 * A non-2xx answer as a ServiceError: a refusal of the values (a fail envelope on a 400 or 422)
 * with its reasons by field; otherwise the kind its status means, with the service's word for it
 * and its sentence where the error envelope gives them (a message object or a string).
 */
export function failureOf(
  status: number,
  body: unknown,
  retryAfterSeconds: number | null,
): ServiceError {
  const fail = failEnvelope.safeParse(body);
  if (fail.success && (status === 400 || status === 422)) {
    return new ServiceError('validation', { status, fieldErrors: refusalReasons(fail.data.data) });
  }
  const kind = STATUS_KINDS[status] ?? (status >= 500 ? 'unavailable' : 'invalid_response');
  const { code, message } = errorWords(body);
  return new ServiceError(kind, { status, code, message: message ?? undefined, retryAfterSeconds });
}
