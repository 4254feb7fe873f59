import 'server-only';
import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { cache } from 'react';
import {
  deleteConnection,
  findConnection,
  replaceConnection,
  type ServiceConnection,
  withConnectionLock,
} from '@/lib/service/connection/store';
import { getEnv } from '@/lib/platform/env';
import { logWarning } from '@/lib/platform/log';
import { BudgetExhausted, withTokenCall } from '@/lib/service/budget';
import { type ConnectionEndedReason, tellConnectionEnded } from './ended';
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
  connectedByName: string;
  /** The service account, where the service said which (a JWT access token's claims). */
  account: { id: string | null; name: string | null } | null;
  scope: string;
  tokenFormat: 'jwt' | 'opaque';
  connectedAt: Date;
  lastRefreshedAt: Date | null;
  accessTokenExpiresAt: Date;
  refreshTokenExpiresAt: Date;
  refreshTokenExpiresSoon: boolean;
  /** Why it needs reconnecting, when it does (lib/service/connection/ended.ts words it). */
  endedReason: ConnectionEndedReason | null;
};

export async function getConnectionSummary(orgId: string): Promise<ConnectionSummary | null> {
  const row = await findConnection({ orgId });
  if (!row) return null;
  const now = Date.now();
  return {
    status: row.status,
    connectedByName: row.connectedByName,
    account: row.accountId || row.accountName ? { id: row.accountId, name: row.accountName } : null,
    scope: row.scope,
    tokenFormat: row.tokenFormat,
    connectedAt: row.connectedAt,
    lastRefreshedAt: row.lastRefreshedAt,
    accessTokenExpiresAt: row.accessTokenExpiresAt,
    refreshTokenExpiresAt: row.refreshTokenExpiresAt,
    refreshTokenExpiresSoon: row.refreshTokenExpiresAt.getTime() - now < REFRESH_TOKEN_WARNING_MS,
    endedReason: row.status === 'reconnect' ? row.endedReason : null,
  };
}

/**
 * The connection as this request first read it, and whether this request draws the app layout
 * (its banner). A soft navigation renders only the page, so the banner on screen is the one
 * drawn before; a full render draws it from this same read. A page's notice of a failure uses
 * both to decide whether the banner already offers the way back, so a page offers the reconnect
 * button once.
 */
export const connectionAtRequestStart = cache(getConnectionSummary);
const layoutDrawn = cache(() => ({ drawn: false }));
/** Called by the app layout before anything else, on every render that draws it. */
export function markLayoutDrawn(): void {
  layoutDrawn().drawn = true;
}
/** Whether the banner this request draws offers to reconnect (its read is shared). */
export async function bannerOffersReconnect(orgId: string): Promise<boolean> {
  if (!layoutDrawn().drawn) return false;
  const connection = await connectionAtRequestStart(orgId);
  return connection?.status === 'reconnect' || connection?.refreshTokenExpiresSoon === true;
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
    endedReason: null,
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

/**
 * The service account a token speaks for, where the service says: a JWT access token's claims
 * (see sandbox/README.md, "Who is connected"). Read for display and the record only: the token is
 * the service's to verify, not ours. An opaque token says nothing.
 */
export function accountOf(accessToken: string): { id: string | null; name: string | null } {
  if (!isJwt(accessToken)) return { id: null, name: null };
  try {
    const claims = decodeJwt(accessToken);
    const text = (value: unknown) =>
      typeof value === 'string' && value.trim() ? value.trim().slice(0, 200) : null;
    return {
      id: text(claims.account) ?? text(claims.sub),
      name: text(claims.account_name) ?? text(claims.name),
    };
  } catch {
    return { id: null, name: null };
  }
}

/**
 * Stores the tokens of a completed authorization as the organisation's connection, replacing
 * any earlier one, with who connected it and which service account it is.
 */
export async function storeNewConnection(
  orgId: string,
  connectedBy: { userId: string; name: string },
  result: TokenResult,
): Promise<{ id: string | null; name: string | null }> {
  const id = randomUUID();
  const fields = await tokenFields(id, result, { firstAfterAuthorization: true });
  if (!('refreshTokenIssuedAt' in fields)) {
    throw new Error('unreachable: a new connection always dates its refresh token');
  }
  const account = accountOf(result.tokens.access_token);
  await replaceConnection({
    id,
    orgId,
    fields: {
      ...fields,
      connectedAt: new Date(),
      lastRefreshedAt: null,
      connectedBy: connectedBy.userId,
      connectedByName: connectedBy.name,
      accountId: account.id,
      accountName: account.name,
    },
  });
  return account;
}

/** Forgets the organisation's service tokens; true when there was a connection. */
export function disconnect(orgId: string): Promise<boolean> {
  return deleteConnection({ orgId });
}

export type AccessToken = { token: string; tokenType: string };

/** How long a refresh may wait for the token endpoint's budget. */
const TOKEN_QUEUE_WAIT_MS = 20_000;

// One refresh per connection at a time within this process; the row lock covers the others.
const refreshing = new Map<string, Promise<AccessToken>>();

// The last access token the service refused (401), per organisation: every caller still holding it
// joins the refresh instead of sending it again, so a burst at expiry costs one refused call
// per request in flight, not one per request.
const refused = new Map<string, string>();

/** Records at once that the service refused this token, before the caller queues to retry. */
export function markTokenRefused(orgId: string, token: string): void {
  refused.set(orgId, token);
}

// Concurrent requests for one organisation (a building's statuses start together) share one read of
// the connection row: two hundred identical queries would only queue on the database.
const reading = new Map<string, Promise<ServiceConnection | null>>();
function readConnection(orgId: string): Promise<ServiceConnection | null> {
  let read = reading.get(orgId);
  if (!read) {
    read = findConnection({ orgId }).finally(() => reading.delete(orgId));
    reading.set(orgId, read);
  }
  return read;
}

/**
 * A usable access token for the organisation's connection. It is refreshed proactively shortly
 * before it expires, and on demand when the service rejected it (`rejected`: the token that
 * got a 401). Concurrent callers share one refresh.
 */
export async function getAccessToken(
  orgId: string,
  options: { rejected?: string } = {},
): Promise<AccessToken> {
  if (options.rejected !== undefined) markTokenRefused(orgId, options.rejected);
  const rejected = refused.get(orgId);
  const row = await readConnection(orgId);
  if (!row) throw new ConnectionError('not_connected');
  if (row.status === 'reconnect') throw new ConnectionError('reconnect');
  const current = await unsealAccess(row).catch(() => null);
  if (current && !needsRefresh(row, current.token, rejected)) return current;

  let flight = refreshing.get(orgId);
  if (!flight) {
    flight = refreshUnderLock(orgId, rejected).finally(() => refreshing.delete(orgId));
    refreshing.set(orgId, flight);
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

type Outcome = { ok: AccessToken } | { problem: ConnectionProblem; ended?: ConnectionEndedReason };

async function refreshUnderLock(orgId: string, rejected: string | undefined): Promise<AccessToken> {
  // The token call's budget first: waiting for it must not hold the connection's lock.
  let outcome: Outcome;
  try {
    outcome = await withTokenCall({ orgId, deadline: Date.now() + TOKEN_QUEUE_WAIT_MS }, () =>
      withConnectionLock<Outcome>({ orgId }, async (row, update) => {
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
          const lastError = 'Stored tokens unreadable (encryption key removed)';
          await update({ status: 'reconnect', lastError, endedReason: 'tokens_unreadable' });
          return { problem: 'reconnect', ended: 'tokens_unreadable' };
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
            const lastError = `Refresh refused (${error.code ?? error.status})`;
            await update({ status: 'reconnect', lastError, endedReason: 'refresh_refused' });
            return { problem: 'reconnect', ended: 'refresh_refused' };
          }
          logWarning('token refresh failed', String(error));
          return { problem: 'unavailable' };
        }
      }),
    );
  } catch (error) {
    if (error instanceof BudgetExhausted) throw new ConnectionError('unavailable');
    throw error;
  }
  if ('ok' in outcome) return outcome.ok;
  if (outcome.ended) {
    // Told once, by the request that found it, after the lock (the log is another query).
    await tellConnectionEnded(orgId, outcome.ended);
  }
  throw new ConnectionError(outcome.problem);
}
