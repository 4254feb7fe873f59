import 'server-only';
import type { z } from 'zod';
import { logActivity } from '@/lib/activity/sink';
import { clientOf } from '@/lib/auth/throttle';
import { logWarning } from '@/lib/platform/log';
import { type ApiKey, type ApiScope, authenticateKey } from './keys';
import { claimIdempotency, rememberAnswer, requestHash, takeRequest } from './limits';
import type { Problem } from './schemas';

/**
 * Every API operation passes here: the key from `Authorization: Bearer` (never the session
 * cookie), the key's request budget (`RateLimit-*` headers on every answer, a 429 with
 * `Retry-After` past it), the scope the operation needs, a write's `Idempotency-Key`, the
 * operation itself, errors as RFC 9457 problem details, and an activity entry naming the key.
 */

/** A problem an operation answers with (a 404, a 409, a refused field). */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: Problem['errors'],
  ) {
    super(title);
  }
}

export const notFound = (what: string) =>
  new ApiProblem(404, 'Not found', `No such ${what} that this key may see.`);

/** The problem of a request whose input zod refused, naming each field. */
export function invalidInput(error: z.ZodError): ApiProblem {
  return new ApiProblem(
    422,
    'Invalid request',
    'Some fields were refused; nothing was changed.',
    error.issues.map((issue) => ({
      field: issue.path.map(String).join('.') || '(body)',
      message: issue.message,
    })),
  );
}

const PROBLEM_TYPES: Record<number, string> = {
  400: 'bad-request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  409: 'conflict',
  413: 'too-large',
  422: 'invalid-request',
  429: 'rate-limited',
  500: 'internal-error',
};

export function problemBody(problem: ApiProblem): Problem {
  return {
    type: `/api/v1/problems/${PROBLEM_TYPES[problem.status] ?? 'error'}`,
    title: problem.title,
    status: problem.status,
    ...(problem.detail ? { detail: problem.detail } : {}),
    ...(problem.errors ? { errors: problem.errors } : {}),
  };
}

export function respond(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  const isProblem = status >= 400;
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: {
      'content-type': isProblem ? 'application/problem+json' : 'application/json',
      'cache-control': 'no-store',
      ...headers,
    },
  });
}

/** What an operation answers: a status and a body (shaped by its response schema). */
export type ApiAnswer = { status: number; body: unknown; headers?: Record<string, string> };

export type ApiCall<P> = {
  key: ApiKey;
  params: P;
  url: URL;
  /** The body, parsed as JSON (null when none was sent). */
  body: unknown;
};

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
/** The most an API request body may hold (an event is well under 1 KB). */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * A request's body as text, read no further than `MAX_BODY_BYTES` (null past it): a body with no
 * Content-Length, or a false one, is cut off rather than read whole.
 */
export async function readBody(request: Request): Promise<string | null> {
  if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) return null;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The answer when something fails on Setpoint's side: a problem, never a stack. */
export function internalError(where: string, error: unknown): Response {
  logWarning(`api ${where}: failed`, String(error));
  return respond(
    500,
    problemBody(
      new ApiProblem(500, 'Internal error', 'Something went wrong on our side; try again.'),
    ),
  );
}

/** A route handler for one operation: `scope` is what the key must hold. */
export function apiOperation<P>(
  scope: ApiScope,
  operate: (call: ApiCall<P>) => Promise<ApiAnswer>,
) {
  return async (request: Request, route: { params: Promise<P> }): Promise<Response> => {
    try {
      return await handle(request, route);
    } catch (error) {
      return internalError(new URL(request.url).pathname, error);
    }
  };

  async function handle(request: Request, route: { params: Promise<P> }): Promise<Response> {
    const url = new URL(request.url);
    const address = clientOf(Object.fromEntries(request.headers));
    const key = await authenticateKey(request.headers.get('authorization'), address);
    if (!key) {
      return respond(
        401,
        problemBody(
          new ApiProblem(
            401,
            'Unauthorized',
            'Send an API key as `Authorization: Bearer spk_…` (a revoked key is no key). The API takes keys only, never a signed-in session.',
          ),
        ),
        { 'www-authenticate': 'Bearer' },
      );
    }
    const rate = await takeRequest(key.id);
    const rateHeaders = {
      'ratelimit-limit': String(rate.limit),
      'ratelimit-remaining': String(rate.remaining),
      'ratelimit-reset': String(rate.resetSeconds),
    };
    const answer = await answerFor(request, url, key, scope, rate.over, route, operate);
    // Past the limit, only the minute's first refusal is logged: a runaway key cannot flood it.
    if (!rate.over || rate.firstOver)
      await logCall(key, request.method, url.pathname, answer.status);
    return respond(answer.status, answer.body, {
      ...rateHeaders,
      ...(answer.status === 429 ? { 'retry-after': String(rate.resetSeconds) } : {}),
      ...answer.headers,
    });
  }
}

async function answerFor<P>(
  request: Request,
  url: URL,
  key: ApiKey,
  scope: ApiScope,
  over: boolean,
  route: { params: Promise<P> },
  operate: (call: ApiCall<P>) => Promise<ApiAnswer>,
): Promise<ApiAnswer> {
  const problem = (value: ApiProblem): ApiAnswer => ({
    status: value.status,
    body: problemBody(value),
  });
  if (over) {
    return problem(
      new ApiProblem(429, 'Too many requests', 'This key has made too many requests this minute.'),
    );
  }
  if (!key.scopes.includes(scope)) {
    return problem(new ApiProblem(403, 'Forbidden', `This key does not have the ${scope} scope.`));
  }
  const text = WRITES.has(request.method) ? await readBody(request) : '';
  if (text === null) {
    return problem(new ApiProblem(413, 'Too large', 'A request body is at most 64 KB.'));
  }
  let body: unknown = null;
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      return problem(new ApiProblem(400, 'Bad request', 'The body is not JSON.'));
    }
  }
  const idempotencyKey = request.headers.get('idempotency-key');
  if (idempotencyKey !== null && WRITES.has(request.method)) {
    if (!/^[\x21-\x7e]{1,255}$/.test(idempotencyKey)) {
      return problem(
        new ApiProblem(400, 'Bad request', 'An Idempotency-Key is 1 to 255 visible characters.'),
      );
    }
    const hash = requestHash(request.method, url.pathname, text);
    const claim = await claimIdempotency({ keyId: key.id, idempotencyKey, hash });
    if (claim.kind === 'mismatch') {
      return problem(
        new ApiProblem(
          422,
          'Idempotency-Key reused',
          'This Idempotency-Key was used with another request in the last 24 hours; use a new key.',
        ),
      );
    }
    if (claim.kind === 'in_flight') {
      return problem(
        new ApiProblem(
          409,
          'Conflict',
          'A request with this Idempotency-Key is still being answered; try again shortly.',
        ),
      );
    }
    if (claim.kind === 'replay') {
      return { status: claim.status, body: claim.body, headers: { 'idempotent-replayed': 'true' } };
    }
    const answer = await operateSafely(operate, { key, params: await route.params, url, body });
    await rememberAnswer({
      keyId: key.id,
      idempotencyKey,
      token: claim.token,
      status: answer.status,
      body: answer.body,
    });
    return answer;
  }
  return operateSafely(operate, { key, params: await route.params, url, body });
}

async function operateSafely<P>(
  operate: (call: ApiCall<P>) => Promise<ApiAnswer>,
  call: ApiCall<P>,
): Promise<ApiAnswer> {
  try {
    return await operate(call);
  } catch (error) {
    if (error instanceof ApiProblem) return { status: error.status, body: problemBody(error) };
    logWarning(`api ${call.url.pathname}: failed`, String(error));
    return {
      status: 500,
      body: problemBody(
        new ApiProblem(500, 'Internal error', 'Something went wrong on our side; try again.'),
      ),
    };
  }
}

/** Every call is an activity entry naming its key (never the key itself). */
async function logCall(key: ApiKey, method: string, path: string, status: number): Promise<void> {
  await logActivity({
    actor: { orgId: key.orgId, userId: null, name: `API key “${key.name}”` },
    action: 'api.call',
    summary: `${method} ${path}: ${status}`,
    changes: { keyId: key.id, method, path, status },
  });
}
