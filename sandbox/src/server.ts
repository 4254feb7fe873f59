import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { v1Routes } from './api-v1';
import { v2Routes } from './api-v2/index';
import { THERMOSTATS } from './api-v2/paths';
import { type ResolvedConfig, resolveConfig, type SandboxOptions } from './config';
import { type FiredFault, SandboxContext } from './context';
import { CONTROL_PREFIX, handleControl } from './control';
import { errorPage } from './html';
import {
  ApiError,
  errorBody,
  injectedErrorCode,
  OAuthError,
  parseJsonObject,
  readBody,
  sendHtml,
  sendJson,
  ValidationError,
} from './http-util';
import { applyLatency, checkRateLimit, holdRequest, takeFault } from './knobs';
import { authenticate, handleAuthorizeGet, handleAuthorizePost, handleToken } from './oauth';
import { type ApiRoute, matchPattern, methodNotAllowed, type RequestContext } from './routing';

const TOKEN_KEYS = new Set(['POST /token', 'GET /api/v2/token']);
const BULK_KEY = `PATCH ${THERMOSTATS}/settings`;

const oauthRoutes: ApiRoute[] = [
  {
    method: 'GET',
    pattern: '/authorize',
    access: 'public',
    handler: ({ ctx, url, res }) => handleAuthorizeGet(ctx, url, res),
  },
  {
    method: 'POST',
    pattern: '/authorize',
    access: 'public',
    handler: ({ ctx, req, res }) => handleAuthorizePost(ctx, req, res),
  },
  {
    method: 'POST',
    pattern: '/token',
    access: 'public',
    handler: ({ ctx, req, url, res }) => handleToken(ctx, req, url, res),
  },
  {
    method: 'GET',
    pattern: '/api/v2/token',
    access: 'public',
    handler: ({ ctx, req, url, res }) => handleToken(ctx, req, url, res),
  },
];

const routes: ApiRoute[] = [...oauthRoutes, ...v2Routes, ...v1Routes];

/**
 * Answers an error. The service API uses the production envelope (`errorBody`), the token
 * endpoints OAuth's `{ error, error_description }`, the control API its own
 * `{ status: 'error', code, message }`.
 */
function sendError(
  res: ServerResponse,
  key: string,
  error: unknown,
  surface: 'service' | 'control' = 'service',
): void {
  if (error instanceof OAuthError) {
    sendJson(
      res,
      error.status,
      { error: error.error, error_description: error.description },
      error.headers,
    );
  } else if (error instanceof ValidationError) {
    sendJson(res, 422, { status: 'fail', data: error.fields });
  } else if (error instanceof ApiError) {
    if (TOKEN_KEYS.has(key)) {
      sendJson(res, error.status, { error: 'invalid_request', error_description: error.message });
    } else if (surface === 'control') {
      sendJson(
        res,
        error.status,
        { status: 'error', message: error.message, code: error.code },
        error.headers,
      );
    } else {
      sendJson(
        res,
        error.status,
        errorBody(error.status, error.code, error.message),
        error.headers,
      );
    }
  } else {
    console.error('[sandbox] unexpected error', error);
    if (surface === 'control') {
      sendJson(res, 500, {
        status: 'error',
        message: 'Internal server error',
        code: 'internal_error',
      });
    } else {
      sendJson(res, 500, errorBody(500, 'internal_error', 'Internal server error'));
    }
  }
}

/** Answers an injected status fault in the shape of the endpoint that was called. */
function injectedFailure(key: string, res: ServerResponse, kind: number | string): void {
  if (kind === 'authorization_pending' || kind === 'slow_down') {
    const description =
      kind === 'slow_down'
        ? 'Token requests are arriving too quickly; slow down.'
        : 'The authorization is still pending.';
    sendJson(res, 401, { error: kind, error_description: description });
    return;
  }
  const status = Number(kind);
  const headers: Record<string, string> = status === 429 ? { 'retry-after': '1' } : {};
  if (TOKEN_KEYS.has(key)) {
    const error =
      status === 429
        ? 'rate_limit_exceeded'
        : status === 503
          ? 'temporarily_unavailable'
          : 'server_error';
    sendJson(
      res,
      status,
      { error, error_description: `Injected failure (HTTP ${status}).` },
      headers,
    );
  } else if (key.endsWith(' /authorize')) {
    sendHtml(res, status, errorPage('Service unavailable', `Injected failure (HTTP ${status}).`));
  } else {
    sendJson(
      res,
      status,
      errorBody(status, injectedErrorCode(status), `Injected failure (HTTP ${status}).`),
      headers,
    );
  }
}

/** What a `garbled` fault answers: a 200 whose body is not JSON (a proxy's error page). */
const GARBLED_BODY =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>\n';

/** Answers (or withholds the answer of) a request hit by a fault. */
function injectFault(
  ctx: SandboxContext,
  key: string,
  req: IncomingMessage,
  res: ServerResponse,
  fault: FiredFault,
): void {
  const { kind } = fault;
  if (kind === 'drop') {
    req.socket.destroy();
  } else if (kind === 'timeout') {
    holdRequest(ctx, req, res);
  } else if (kind === 'malformed') {
    // A 200 that breaks the contract, for clients' response validation.
    sendJson(res, 200, { status: 'success', data: { unexpected: true, setPoint: 'hot' } });
  } else if (kind === 'garbled') {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(GARBLED_BODY),
      'cache-control': 'no-store',
    });
    res.end(GARBLED_BODY);
  } else {
    injectedFailure(key, res, kind);
  }
}

/**
 * The response a request hit by an `applied` fault is carried out against: the handler answers
 * into it as usual and nothing of that answer reaches the client; the fault answers instead.
 */
class SwallowedResponse {
  statusCode = 200;
  headersSent = false;
  destroyed = false;
  writableEnded = false;
  private readonly headers = new Map<string, unknown>();

  setHeader(name: string, value: unknown): this {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }

  getHeader(name: string): unknown {
    return this.headers.get(name.toLowerCase());
  }

  hasHeader(name: string): boolean {
    return this.headers.has(name.toLowerCase());
  }

  removeHeader(name: string): void {
    this.headers.delete(name.toLowerCase());
  }

  writeHead(status: number): this {
    this.statusCode = status;
    this.headersSent = true;
    return this;
  }

  write(): boolean {
    this.headersSent = true;
    return true;
  }

  end(): this {
    this.headersSent = true;
    this.writableEnded = true;
    return this;
  }

  on(): this {
    return this;
  }

  once(): this {
    return this;
  }
}

/** Authenticates, reads the body and runs the route's handler; errors are answered on `res`. */
async function runRoute(
  route: ApiRoute,
  request: RequestContext,
  res: ServerResponse,
): Promise<void> {
  const { ctx, req, key } = request;
  try {
    let principal = null;
    let body: Record<string, unknown> = {};
    if (route.access !== 'public') {
      principal = authenticate(ctx, req);
      if (route.access === 'write') {
        if (!principal.canWrite) {
          throw new ApiError(
            403,
            'insufficient_scope',
            'The granted scope does not allow changes.',
          );
        }
        if (req.method !== 'DELETE') body = parseJsonObject(await readBody(req));
      }
    }
    await route.handler({ ...request, res }, principal, body);
  } catch (error) {
    sendError(res, key, error);
  }
}

async function handle(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://sandbox.local');
  // The service's own time, as production servers send it: clients date the token lifetimes
  // of the spec's table (before and after 2020-12-01) by it, so the sandbox clock drives them.
  res.setHeader('Date', new Date(ctx.clock.now()).toUTCString());
  const path = url.pathname;
  const method = req.method ?? 'GET';

  if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
    if (!ctx.config.control) {
      // Off: the path does not exist, answered like any unknown service path.
      sendJson(res, 404, errorBody(404, 'not_found', `No endpoint ${method} ${path}.`));
      return;
    }
    try {
      await handleControl(ctx, req, url, res);
    } catch (error) {
      sendError(res, 'control', error, 'control');
    }
    return;
  }

  let route: ApiRoute | undefined;
  let params: Record<string, string> = {};
  const allowed: string[] = [];
  for (const candidate of routes) {
    const match = matchPattern(candidate.pattern, path);
    if (!match) continue;
    if (candidate.method === method) {
      route = candidate;
      params = match;
      break;
    }
    allowed.push(candidate.method);
  }
  const key = route ? `${method} ${route.pattern}` : `${method} (unmatched)`;
  ctx.countCall(key);

  try {
    if (path.startsWith('/api/') || path === '/token') {
      const decision = checkRateLimit(ctx, req.socket.remoteAddress ?? 'unknown');
      if (decision) {
        for (const [name, value] of Object.entries(decision.headers)) res.setHeader(name, value);
        if (decision.retryAfter !== null) {
          ctx.countInjected('rate_limited');
          const retry = { 'retry-after': String(decision.retryAfter) };
          if (TOKEN_KEYS.has(key)) {
            throw new OAuthError(429, 'rate_limit_exceeded', 'Too many requests.', retry);
          }
          throw new ApiError(429, 'rate_limited', 'Too many requests; retry later.', retry);
        }
      }
    }
    await applyLatency(ctx, key);
    const fault = route ? takeFault(ctx, key, params, key === BULK_KEY) : null;
    if (fault && !fault.applied) {
      injectFault(ctx, key, req, res, fault);
      return;
    }
    if (!route) {
      if (allowed.length > 0) methodNotAllowed([...new Set(allowed)]);
      throw new ApiError(404, 'not_found', `No endpoint ${method} ${path}.`);
    }
    const request: RequestContext = { ctx, req, res, url, params, key };
    if (fault) {
      // Applied: the request is carried out (a write takes effect), then its answer is lost.
      await runRoute(route, request, new SwallowedResponse() as unknown as ServerResponse);
      injectFault(ctx, key, req, res, fault);
      return;
    }
    await runRoute(route, request, res);
  } catch (error) {
    sendError(res, key, error);
  }
}

export interface RunningSandbox {
  url: string;
  port: number;
  context: SandboxContext;
  config: ResolvedConfig;
  close(): Promise<void>;
}

/** Starts the sandbox. `port: 0` picks a free port. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const config = resolveConfig(options);
  const ctx = new SandboxContext(config);
  const server = createServer((req, res) => {
    handle(ctx, req, res).catch((error) => sendError(res, 'internal', error));
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  ctx.baseUrl = url;
  return {
    url,
    port,
    context: ctx,
    config,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
