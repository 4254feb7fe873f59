import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { v1Routes } from './api-v1';
import { v2Routes } from './api-v2/index';
import { THERMOSTATS } from './api-v2/paths';
import { type ResolvedConfig, resolveConfig, type SandboxOptions } from './config';
import { SandboxContext } from './context';
import { CONTROL_PREFIX, handleControl } from './control';
import { errorPage } from './html';
import {
  ApiError,
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

function sendError(res: ServerResponse, key: string, error: unknown): void {
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
    } else {
      sendJson(
        res,
        error.status,
        { status: 'error', message: error.message, code: error.code },
        error.headers,
      );
    }
  } else {
    console.error('[sandbox] unexpected error', error);
    sendJson(res, 500, {
      status: 'error',
      message: 'Internal server error',
      code: 'internal_error',
    });
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
    const code =
      status === 429
        ? 'rate_limited'
        : status === 503
          ? 'service_unavailable'
          : status >= 500
            ? 'internal_error'
            : 'injected_error';
    sendJson(
      res,
      status,
      { status: 'error', message: `Injected failure (HTTP ${status}).`, code },
      headers,
    );
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
      sendJson(res, 404, { status: 'error', message: 'Not found', code: 'not_found' });
      return;
    }
    try {
      await handleControl(ctx, req, url, res);
    } catch (error) {
      sendError(res, 'control', error);
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
    if (route) {
      const fault = takeFault(ctx, key, params, key === BULK_KEY);
      if (fault === 'drop') {
        req.socket.destroy();
        return;
      }
      if (fault === 'timeout') {
        holdRequest(ctx, req, res);
        return;
      }
      if (fault === 'malformed') {
        // A 200 that breaks the contract, for clients' response validation.
        sendJson(res, 200, { status: 'success', data: { unexpected: true, setPoint: 'hot' } });
        return;
      }
      if (fault !== null) {
        injectedFailure(key, res, fault);
        return;
      }
    }
    if (!route) {
      if (allowed.length > 0) methodNotAllowed([...new Set(allowed)]);
      throw new ApiError(404, 'not_found', `No endpoint ${method} ${path}.`);
    }
    const request: RequestContext = { ctx, req, res, url, params, key };
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
        if (method !== 'DELETE') body = parseJsonObject(await readBody(req));
      }
    }
    await route.handler(request, principal, body);
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
