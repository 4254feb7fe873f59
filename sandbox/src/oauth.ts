import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SignJWT } from 'jose';
import { TOKEN_FORMAT_SWITCH_MS } from './clock';
import type { Grant, SandboxContext } from './context';
import { consentPage, errorPage } from './html';
import { ApiError, OAuthError, readBody, redirect, sendHtml, sendJson } from './http-util';

export const CODE_TTL_MS = 10 * 60_000;
export const ACCESS_TTL_S = 3600;
const DAY_MS = 86_400_000;
const CONSENT_TTL_MS = 30 * 60_000;

export const KNOWN_SCOPES = ['smartRead', 'smartWrite', 'ems'] as const;
const WRITE_SCOPES = new Set(['smartWrite', 'ems']);

function grantsWrite(scope: string): boolean {
  return scope.split(/[\s,]+/).some((part) => WRITE_SCOPES.has(part));
}

/** Substrings present in every credential the sandbox issues, for leak-detection tests. */
export const SENTINELS = {
  opaqueAccessToken: 'sbx_at_',
  jwtHeaderKid: 'sbx-sentinel-hs256',
  jwtClaim: 'sbx-sentinel-access-token',
  refreshToken: 'sbxrt',
  authorizationCode: 'sbx_ac_',
};

const JWT_HEADER = { alg: 'HS256', kid: SENTINELS.jwtHeaderKid, typ: 'JWT' };
/** Every sandbox JWT starts with this base64url header segment. */
export const JWT_PREFIX = Buffer.from(JSON.stringify(JWT_HEADER)).toString('base64url');

function random(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/** Why a redirect_uri is refused, or null when it is acceptable for the client. */
export function redirectUriProblem(
  ctx: SandboxContext,
  clientId: string,
  redirectUri: string | undefined,
): string | null {
  if (!redirectUri) return 'redirect_uri is required.';
  if (redirectUri.length > 255) return 'redirect_uri is longer than 255 characters.';
  const match = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/?#]*)/.exec(redirectUri);
  if (!match) return 'redirect_uri is not an absolute URL.';
  const authority = (match[1] ?? '').replace(/^.*@/, '');
  const hostPort = authority.startsWith('[') ? authority.replace(/^\[[^\]]*\]/, '') : authority;
  if (hostPort.includes(':') && !ctx.knobs.allowRedirectPorts) {
    return 'redirect_uri must not contain a port number.';
  }
  const client = ctx.findClient(clientId);
  if (!client?.redirectUris.includes(redirectUri)) {
    return 'redirect_uri is not registered for this application.';
  }
  return null;
}

export function scopeProblem(scope: string | undefined): string | null {
  if (!scope || scope.trim() === '') return 'scope is required.';
  const parts = scope.split(/[\s,]+/).filter(Boolean);
  const unknown = parts.filter((part) => !(KNOWN_SCOPES as readonly string[]).includes(part));
  if (unknown.length > 0) return `Unknown scope: ${unknown.join(', ')}.`;
  return null;
}

function withParams(uri: string, params: Record<string, string | undefined>): string {
  // Built by hand so the registered URI stays byte-identical (URL would normalise it).
  const base = uri.split('#')[0] ?? uri;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) search.set(key, value);
  }
  const query = search.toString();
  if (!query) return base;
  return `${base}${base.includes('?') ? '&' : '?'}${query}`;
}

export function issueAuthorizationCode(
  ctx: SandboxContext,
  input: { userId: string; clientId: string; redirectUri: string; scope: string },
): { code: string; expiresAt: number } {
  const code = `sbx_ac_${random(24)}`;
  const expiresAt = ctx.clock.now() + CODE_TTL_MS;
  ctx.codes.set(code, { code, ...input, expiresAt, used: false });
  return { code, expiresAt };
}

export function handleAuthorizeGet(ctx: SandboxContext, url: URL, res: ServerResponse): void {
  const query = url.searchParams;
  const clientId = query.get('client_id') ?? '';
  const redirectUri = query.get('redirect_uri') ?? undefined;
  const state = query.get('state') ?? undefined;
  if (!clientId || !ctx.findClient(clientId)) {
    sendHtml(res, 400, errorPage('Unknown application', 'The client_id is missing or unknown.'));
    return;
  }
  const problem = redirectUriProblem(ctx, clientId, redirectUri);
  if (problem || !redirectUri) {
    sendHtml(res, 400, errorPage('Invalid redirect URI', problem ?? 'redirect_uri is required.'));
    return;
  }
  if (query.get('response_type') !== 'code') {
    redirect(
      res,
      withParams(redirectUri, {
        error: 'unsupported_response_type',
        error_description: 'response_type must be code.',
        state,
      }),
    );
    return;
  }
  const scope = query.get('scope') ?? '';
  const badScope = scopeProblem(scope);
  if (badScope) {
    redirect(
      res,
      withParams(redirectUri, { error: 'invalid_scope', error_description: badScope, state }),
    );
    return;
  }
  renderConsent(ctx, res, { clientId, redirectUri, scope, state }, '', null);
}

function renderConsent(
  ctx: SandboxContext,
  res: ServerResponse,
  request: { clientId: string; redirectUri: string; scope: string; state: string | undefined },
  email: string,
  error: string | null,
): void {
  const requestToken = random(24);
  ctx.consentRequests.set(requestToken, {
    ...request,
    expiresAt: ctx.clock.now() + CONSENT_TTL_MS,
  });
  let formTarget = '';
  try {
    const origin = new URL(request.redirectUri).origin;
    if (origin !== 'null') formTarget = ` ${origin}`;
  } catch {
    // A registered URI that URL cannot parse: the CSP then only allows posting to ourselves.
  }
  sendHtml(
    res,
    200,
    consentPage({ requestToken, clientId: request.clientId, scope: request.scope, email, error }),
    {
      'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${formTarget}; frame-ancestors 'none'; base-uri 'none'`,
    },
  );
}

export async function handleAuthorizePost(
  ctx: SandboxContext,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const form = new URLSearchParams(await readBody(req));
  const token = form.get('request') ?? '';
  const request = ctx.consentRequests.get(token);
  if (!request || request.expiresAt <= ctx.clock.now()) {
    if (request) ctx.consentRequests.delete(token);
    sendHtml(
      res,
      400,
      errorPage(
        'Sign-in request expired',
        'This sign-in form is missing its request token, was already used, or has expired.',
      ),
    );
    return;
  }
  ctx.consentRequests.delete(token);
  const { clientId, redirectUri, scope, state } = request;
  const decision = form.get('decision');
  if (decision === 'decline') {
    redirect(
      res,
      withParams(redirectUri, {
        error: 'access_denied',
        error_description: 'The user declined to authorize the application.',
        state,
      }),
    );
    return;
  }
  const email = (form.get('email') ?? '').trim();
  const user = ctx.store.users.find((candidate) => candidate.email === email.toLowerCase());
  if (decision !== 'accept' || !user || user.password !== (form.get('password') ?? '')) {
    const message =
      decision !== 'accept' ? 'Choose Accept or Decline.' : 'The email or password is incorrect.';
    renderConsent(ctx, res, request, email, message);
    return;
  }
  const { code } = issueAuthorizationCode(ctx, {
    userId: user.userId,
    clientId,
    redirectUri,
    scope,
  });
  redirect(res, withParams(redirectUri, { code, state }));
}

interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** Production access tokens reach about 7 KB: per-thermostat permissions stop before this. */
const JWT_MAX_CHARS = 7_400;
const MAX_PERMITTED_THERMOSTATS = 75;
/** The length of a JWT (header, payload, HS256 signature) whose JSON payload has this size. */
const jwtChars = (payloadBytes: number) =>
  JWT_PREFIX.length + 1 + Math.ceil((payloadBytes * 4) / 3) + 1 + 43;

async function signAccessJwt(ctx: SandboxContext, grant: Grant, nowMs: number): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  const thermostats = [...ctx.store.thermostats.values()]
    .filter((thermostat) => thermostat.accountId === grant.accountId)
    .slice(0, MAX_PERMITTED_THERMOSTATS);
  const buildings = [...ctx.store.buildings.values()].filter(
    (building) => building.accountId === grant.accountId,
  );
  const canWrite = grantsWrite(grant.scope);
  const claims = {
    sbx: SENTINELS.jwtClaim,
    scope: grant.scope,
    gid: grant.grantId,
    // Who is connected: the service account's id and the name a client may show for it.
    account: grant.accountId,
    account_name: ctx.store.accounts.get(grant.accountId)?.name ?? '',
    buildings: buildings.map((building) => building.buildingId),
    // Per-thermostat permissions make production-like tokens of a few KB, at most about 7 KB.
    permissions: [] as string[],
    iss: ctx.baseUrl || 'http://sandbox.local',
    sub: grant.userId,
    aud: grant.clientId,
    iat,
    exp: iat + ACCESS_TTL_S,
    jti: random(12),
  };
  let payloadBytes = Buffer.byteLength(JSON.stringify(claims));
  for (const { thermostatId } of thermostats) {
    const granted = canWrite
      ? [`thermostat:${thermostatId}:read`, `thermostat:${thermostatId}:write`]
      : [`thermostat:${thermostatId}:read`];
    // Each entry adds its quoted string and a comma.
    const addedBytes = granted.reduce((sum, entry) => sum + entry.length + 3, 0);
    if (jwtChars(payloadBytes + addedBytes) > JWT_MAX_CHARS) break;
    claims.permissions.push(...granted);
    payloadBytes += addedBytes;
  }
  const secret = new TextEncoder().encode(ctx.config.jwtSecret);
  return new SignJWT(claims).setProtectedHeader(JWT_HEADER).sign(secret);
}

async function issueTokens(
  ctx: SandboxContext,
  grant: Grant,
  serviceType: string | null,
  firstAfterAuthorization: boolean,
): Promise<TokenResponse> {
  const now = ctx.clock.now();
  const afterSwitch = now >= TOKEN_FORMAT_SWITCH_MS;
  const jwt = afterSwitch || serviceType === 'jwt';
  const accessToken = jwt ? await signAccessJwt(ctx, grant, now) : `sbx_at_${random(30)}`;
  ctx.accessTokens.set(accessToken, {
    grantId: grant.grantId,
    expiresAt: now + ACCESS_TTL_S * 1000,
    format: jwt ? 'jwt' : 'opaque',
  });
  grant.currentAccessToken = accessToken; // the previous access token of this grant is now expired
  const refreshToken = afterSwitch ? `v2.sbxrt.${random(48)}` : `v1.sbxrt${random(33)}`;
  const refreshLifetime = afterSwitch
    ? 30 * DAY_MS
    : firstAfterAuthorization
      ? 14 * DAY_MS
      : 365 * DAY_MS;
  ctx.refreshTokens.set(refreshToken, {
    grantId: grant.grantId,
    expiresAt: now + refreshLifetime,
    format: afterSwitch ? 'v2' : 'v1',
  });
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: ACCESS_TTL_S,
    refresh_token: refreshToken,
    scope: grant.scope,
  };
}

function tokenRateLimit(ctx: SandboxContext, clientId: string): void {
  const limit = ctx.knobs.rateLimit;
  if (!limit) return;
  const windowMs = limit.tokenWindowSeconds * 1000;
  const now = ctx.clock.now();
  const start = Math.floor(now / windowMs) * windowMs;
  const key = `token:${clientId}`;
  const entry = ctx.rateWindows.get(key);
  const current = entry && entry.start === start ? entry : { start, count: 0 };
  if (current.count >= limit.tokenPerWindow) {
    const retryAfter = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
    throw new OAuthError(
      429,
      'rate_limit_exceeded',
      `Token limit of ${limit.tokenPerWindow} per ${limit.tokenWindowSeconds} s reached for this client.`,
      { 'retry-after': String(retryAfter) },
    );
  }
  current.count++;
  ctx.rateWindows.set(key, current);
}

/** `POST /token` and `GET /api/v2/token`: parameters travel in the query string. */
export async function handleToken(
  ctx: SandboxContext,
  req: IncomingMessage,
  url: URL,
  res: ServerResponse,
): Promise<void> {
  const query = url.searchParams;
  const body = req.method === 'POST' ? await readBody(req) : '';
  if (!query.has('grant_type') && /(^|&)grant_type=/.test(body)) {
    throw new OAuthError(
      400,
      'invalid_request',
      'Token parameters must be sent as query parameters, not in the request body.',
    );
  }
  const grantType = query.get('grant_type');
  const clientId = query.get('client_id');
  const serviceType = query.get('service_type');
  if (!grantType) throw new OAuthError(400, 'invalid_request', 'grant_type is required.');
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
    throw new OAuthError(400, 'unsupported_grant_type', `Unsupported grant_type: ${grantType}.`);
  }
  if (!clientId) throw new OAuthError(400, 'invalid_request', 'client_id is required.');
  if (!ctx.findClient(clientId)) throw new OAuthError(400, 'invalid_client', 'Unknown client_id.');
  if (serviceType !== null && serviceType !== 'jwt') {
    throw new OAuthError(400, 'invalid_request', 'service_type must be jwt when present.');
  }
  let response: TokenResponse;
  if (grantType === 'authorization_code') {
    const codeValue = query.get('code');
    const redirectUri = query.get('redirect_uri');
    if (!codeValue) throw new OAuthError(400, 'invalid_request', 'code is required.');
    if (!redirectUri) throw new OAuthError(400, 'invalid_request', 'redirect_uri is required.');
    const code = ctx.codes.get(codeValue);
    if (!code) throw new OAuthError(400, 'invalid_grant', 'The authorization code is unknown.');
    if (code.used) {
      throw new OAuthError(400, 'invalid_grant', 'The authorization code was already used.');
    }
    if (code.expiresAt <= ctx.clock.now()) {
      throw new OAuthError(401, 'authorization_expired', 'The authorization code has expired.');
    }
    if (code.clientId !== clientId) {
      throw new OAuthError(400, 'invalid_grant', 'The code was issued to another client.');
    }
    if (code.redirectUri !== redirectUri) {
      throw new OAuthError(
        400,
        'invalid_grant',
        'redirect_uri is not identical to the one of the authorization request.',
      );
    }
    tokenRateLimit(ctx, clientId);
    code.used = true;
    const user = ctx.store.users.find((candidate) => candidate.userId === code.userId);
    if (!user) throw new OAuthError(400, 'invalid_grant', 'The user no longer exists.');
    const grant: Grant = {
      grantId: `grant_${random(9)}`,
      userId: user.userId,
      accountId: user.accountId,
      clientId,
      scope: code.scope,
      currentAccessToken: null,
    };
    ctx.grants.set(grant.grantId, grant);
    response = await issueTokens(ctx, grant, serviceType, true);
  } else {
    const value = query.get('refresh_token') ?? query.get('code');
    if (!value) throw new OAuthError(400, 'invalid_request', 'refresh_token is required.');
    const record = ctx.refreshTokens.get(value);
    const grant = record ? ctx.grants.get(record.grantId) : undefined;
    if (!record || !grant)
      throw new OAuthError(400, 'invalid_grant', 'The refresh token is unknown.');
    if (record.expiresAt <= ctx.clock.now()) {
      throw new OAuthError(400, 'invalid_grant', 'The refresh token has expired.');
    }
    if (grant.clientId !== clientId) {
      throw new OAuthError(400, 'invalid_grant', 'The refresh token was issued to another client.');
    }
    tokenRateLimit(ctx, clientId);
    response = await issueTokens(ctx, grant, serviceType, false);
  }
  sendJson(res, 200, response, { pragma: 'no-cache' });
}

export interface Principal {
  grant: Grant;
  accountId: string;
  canWrite: boolean;
}

/** Checks the bearer token of an API request. */
export function authenticate(ctx: SandboxContext, req: IncomingMessage): Principal {
  const header = req.headers.authorization;
  const challenge = (error: string) => ({ 'www-authenticate': `Bearer error="${error}"` });
  if (!header) {
    throw new ApiError(
      401,
      'missing_token',
      'Authorization header with a Bearer token is required.',
      {
        'www-authenticate': 'Bearer',
      },
    );
  }
  const match = /^(\S+)\s+(\S+)\s*$/.exec(header);
  if (match?.[1]?.toLowerCase() !== 'bearer' || !match[2]) {
    throw new ApiError(
      401,
      'invalid_token',
      'Malformed Authorization header.',
      challenge('invalid_request'),
    );
  }
  const token = match[2];
  const record = ctx.accessTokens.get(token);
  const grant = record ? ctx.grants.get(record.grantId) : undefined;
  if (!record || !grant) {
    throw new ApiError(
      401,
      'invalid_token',
      'The access token is invalid.',
      challenge('invalid_token'),
    );
  }
  if (grant.currentAccessToken !== token) {
    throw new ApiError(
      401,
      'token_expired',
      'The access token was superseded by a refresh.',
      challenge('invalid_token'),
    );
  }
  if (record.expiresAt <= ctx.clock.now()) {
    throw new ApiError(
      401,
      'token_expired',
      'The access token has expired.',
      challenge('invalid_token'),
    );
  }
  return {
    grant,
    accountId: grant.accountId,
    canWrite: grantsWrite(grant.scope),
  };
}
