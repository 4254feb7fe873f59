import 'server-only';
import { randomUUID } from 'node:crypto';
import {
  deleteConnection,
  findConnection,
  replaceConnection,
  type ServiceConnection,
  withConnectionLock,
} from '@/lib/db/queries';
import { getEnv } from '@/lib/env';
import { logWarning } from '@/lib/log';
import {
  ACCESS_TOKEN_REFRESH_MARGIN_MS,
  isJwt,
  REFRESH_TOKEN_WARNING_MS,
  refreshTokenLifetimeMs,
} from './lifetimes';
import { refreshAccessToken, TokenEndpointError, type TokenResult } from './token-endpoint';
import { sealToken, unsealToken, VaultError } from './vault';

export type ConnectionProblem = 'not_connected' | 'reconnect' | 'unavailable';

/** Why no access token can be had: the UI turns each kind into a prompt or a retry message. */
export class ConnectionError extends Error {
  override name = 'ConnectionError';
  constructor(readonly kind: ConnectionProblem) {
    super(`Service connection: ${kind}`);
  }
}

/** What the pages may know about a connection: never a token. */
export type ConnectionSummary = {
  status: 'active' | 'reconnect';
  scope: string;
  tokenFormat: 'jwt' | 'opaque';
  connectedAt: Date;
  lastRefreshedAt: Date | null;
  accessTokenExpiresAt: Date;
  refreshTokenExpiresAt: Date;
  refreshTokenExpiresSoon: boolean;
  lastError: string | null;
};

export async function getConnectionSummary(userId: string): Promise<ConnectionSummary | null> {
  const row = await findConnection({ userId });
  if (!row) return null;
  const now = Date.now();
  return {
    status: row.status,
    scope: row.scope,
    tokenFormat: row.tokenFormat,
    connectedAt: row.connectedAt,
    lastRefreshedAt: row.lastRefreshedAt,
    accessTokenExpiresAt: row.accessTokenExpiresAt,
    refreshTokenExpiresAt: row.refreshTokenExpiresAt,
    refreshTokenExpiresSoon: row.refreshTokenExpiresAt.getTime() - now < REFRESH_TOKEN_WARNING_MS,
    lastError: row.lastError,
  };
}

/** Seals a token response into the fields of a connection row. */
async function tokenFields(
  rowId: string,
  { tokens, serviceTime }: TokenResult,
  refresh: { firstAfterAuthorization: boolean } | { keep: ServiceConnection },
) {
  const keys = getEnv().TOKEN_KEYS;
  const now = new Date();
  const fields = {
    status: 'active' as const,
    scope: tokens.scope,
    tokenType: tokens.token_type,
    tokenFormat: isJwt(tokens.access_token) ? ('jwt' as const) : ('opaque' as const),
    accessTokenSealed: await sealToken(tokens.access_token, { rowId, field: 'access' }, keys),
    accessTokenExpiresAt: new Date(now.getTime() + tokens.expires_in * 1000),
    lastError: null,
  };
  const refreshTokenSealed = await sealToken(
    tokens.refresh_token,
    { rowId, field: 'refresh' },
    keys,
  );
  // Refresh tokens are reusable: when the service hands back the one we hold, its expiry stands
  // (it is still sealed again, under the newest key, so old keys can be retired).
  if ('keep' in refresh) {
    const current = await unsealToken(
      refresh.keep.refreshTokenSealed,
      { rowId, field: 'refresh' },
      keys,
    );
    if (current === tokens.refresh_token) return { ...fields, refreshTokenSealed };
  }
  const first = 'firstAfterAuthorization' in refresh && refresh.firstAfterAuthorization;
  const lifetime = refreshTokenLifetimeMs({ serviceTime, firstAfterAuthorization: first });
  return {
    ...fields,
    refreshTokenSealed,
    refreshTokenIssuedAt: now,
    refreshTokenExpiresAt: new Date(now.getTime() + lifetime),
  };
}

/** Stores the tokens of a completed authorization, replacing any earlier connection. */
export async function storeNewConnection(userId: string, result: TokenResult): Promise<void> {
  const id = randomUUID();
  const fields = await tokenFields(id, result, { firstAfterAuthorization: true });
  if (!('refreshTokenIssuedAt' in fields)) {
    throw new Error('unreachable: a new connection always dates its refresh token');
  }
  await replaceConnection({
    id,
    userId,
    fields: { ...fields, connectedAt: new Date(), lastRefreshedAt: null },
  });
}

export async function disconnect(userId: string): Promise<void> {
  await deleteConnection({ userId });
}

export type AccessToken = { token: string; tokenType: string };

// One refresh per connection at a time within this process; the row lock covers the others.
const refreshing = new Map<string, Promise<AccessToken>>();

// The last access token the service refused (401), per manager: every caller still holding it
// joins the refresh instead of sending it again, so a burst at expiry costs one refused call
// per request in flight, not one per request.
const refused = new Map<string, string>();

/** Records at once that the service refused this token, before the caller queues to retry. */
export function markTokenRefused(userId: string, token: string): void {
  refused.set(userId, token);
}

// Concurrent requests for one manager (a building's statuses start together) share one read of
// the connection row: two hundred identical queries would only queue on the database.
const reading = new Map<string, Promise<ServiceConnection | null>>();
function readConnection(userId: string): Promise<ServiceConnection | null> {
  let read = reading.get(userId);
  if (!read) {
    read = findConnection({ userId }).finally(() => reading.delete(userId));
    reading.set(userId, read);
  }
  return read;
}

/**
 * A usable access token for the manager's connection. It is refreshed proactively shortly
 * before it expires, and on demand when the service rejected it (`rejected`: the token that
 * got a 401). Concurrent callers share one refresh.
 */
export async function getAccessToken(
  userId: string,
  options: { rejected?: string } = {},
): Promise<AccessToken> {
  if (options.rejected !== undefined) markTokenRefused(userId, options.rejected);
  const rejected = refused.get(userId);
  const row = await readConnection(userId);
  if (!row) throw new ConnectionError('not_connected');
  if (row.status === 'reconnect') throw new ConnectionError('reconnect');
  const current = await unsealAccess(row).catch(() => null);
  if (current && !needsRefresh(row, current.token, rejected)) return current;

  let flight = refreshing.get(userId);
  if (!flight) {
    flight = refreshUnderLock(userId, rejected).finally(() => refreshing.delete(userId));
    refreshing.set(userId, flight);
  }
  return flight;
}

function needsRefresh(
  row: ServiceConnection,
  token: string,
  rejected: string | undefined,
): boolean {
  if (rejected !== undefined && rejected === token) return true;
  return row.accessTokenExpiresAt.getTime() - Date.now() < ACCESS_TOKEN_REFRESH_MARGIN_MS;
}

// Unsealing costs milliseconds of CPU (iron's base64 and HMAC in JavaScript); a building's two
// hundred status reads each need the token, and unsealing it for each blocked the event loop for
// over a second, the page's first byte with it. The unsealed token is kept per connection row,
// keyed by the sealed value it came from, so a refresh (a new sealed value) replaces it.
const unsealed = new Map<string, { sealed: string; token: Promise<AccessToken> }>();

function unsealAccess(row: ServiceConnection): Promise<AccessToken> {
  const known = unsealed.get(row.id);
  if (known?.sealed === row.accessTokenSealed) return known.token;
  const token = unsealToken(
    row.accessTokenSealed,
    { rowId: row.id, field: 'access' },
    getEnv().TOKEN_KEYS,
  ).then((value) => ({ token: value, tokenType: row.tokenType }));
  unsealed.set(row.id, { sealed: row.accessTokenSealed, token });
  token.catch(() => {
    if (unsealed.get(row.id)?.token === token) unsealed.delete(row.id);
  });
  return token;
}

type Outcome = { ok: AccessToken } | { problem: ConnectionProblem };

async function refreshUnderLock(
  userId: string,
  rejected: string | undefined,
): Promise<AccessToken> {
  const outcome = await withConnectionLock<Outcome>({ userId }, async (row, update) => {
    if (!row) return { problem: 'not_connected' };
    if (row.status === 'reconnect') return { problem: 'reconnect' };
    const keys = getEnv().TOKEN_KEYS;
    let refreshToken: string;
    try {
      // Another process may have refreshed while we waited for the lock.
      const current = await unsealAccess(row);
      if (!needsRefresh(row, current.token, rejected)) return { ok: current };
      refreshToken = await unsealToken(
        row.refreshTokenSealed,
        { rowId: row.id, field: 'refresh' },
        keys,
      );
    } catch (error) {
      if (!(error instanceof VaultError)) throw error;
      // Sealed under a key no longer configured: the tokens are lost to us; start over.
      await update({
        status: 'reconnect',
        lastError: 'Stored tokens unreadable (encryption key removed)',
      });
      return { problem: 'reconnect' };
    }
    try {
      const result = await refreshAccessToken(refreshToken);
      // Persist before use: the previous access token is already dead at the service.
      await update({
        ...(await tokenFields(row.id, result, { keep: row })),
        lastRefreshedAt: new Date(),
      });
      return { ok: { token: result.tokens.access_token, tokenType: result.tokens.token_type } };
    } catch (error) {
      if (error instanceof TokenEndpointError && error.kind === 'refused') {
        await update({
          status: 'reconnect',
          lastError: `Refresh refused (${error.code ?? error.status})`,
        });
        return { problem: 'reconnect' };
      }
      logWarning('token refresh failed', String(error));
      return { problem: 'unavailable' };
    }
  });
  if ('ok' in outcome) return outcome.ok;
  throw new ConnectionError(outcome.problem);
}
