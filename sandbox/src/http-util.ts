import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * An error answered, by the service API, with the production envelope (see `errorBody`); by the
 * control API with `{ status: 'error', code, message }`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A control API request it cannot carry out: 400 `bad_request` with the reason. */
export function badRequest(message: string): never {
  throw new ApiError(400, 'bad_request', message);
}

/** A validation failure answered with 422 `{ status: 'fail', data: { <field path>: <message> } }`. */
export class ValidationError extends Error {
  constructor(readonly fields: Record<string, string>) {
    super('Validation failed');
  }
}

/** A token-endpoint error answered OAuth-style `{ error, error_description }`. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body), headers);
}

export function sendSuccess(res: ServerResponse, data: unknown, status = 200): void {
  sendJson(res, status, { status: 'success', data });
}

/**
 * The service API's error envelope: `message` is an object (the production reference types it
 * so) with the sandbox's code slug and sentence, and `code` is the HTTP status as an integer.
 */
export function errorBody(status: number, error: string, description: string) {
  return { status: 'error', message: { error, description }, code: status };
}

/** A write answered with no body (204), as the production resident-mode update does. */
export function sendNoContent(res: ServerResponse, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(204, { 'cache-control': 'no-store', ...headers });
  res.end();
}

export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string> = {},
): void {
  send(res, status, 'text/html; charset=utf-8', html, {
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    ...headers,
  });
}

/** A whole response, never cached; nothing when one was already sent (or the client left). */
function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  text: string,
  headers: Record<string, string>,
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
  res.end();
}

const MAX_BODY_BYTES = 1_000_000;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES)
      throw new ApiError(413, 'payload_too_large', 'Request body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON request body that must be an object. */
export function parseJsonObject(text: string): Record<string, unknown> {
  if (text.trim() === '')
    throw new ApiError(400, 'invalid_json', 'Request body must be a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'invalid_json', 'Request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError(400, 'invalid_json', 'Request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The code slug of an injected status fault: what the sandbox's own such errors use. */
export function injectedErrorCode(status: number): string {
  if (status === 429) return 'rate_limited';
  if (status === 503) return 'service_unavailable';
  if (status >= 500) return 'internal_error';
  return 'injected_error';
}
