import 'server-only';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { sealData, unsealData } from 'iron-session';
import { derivedKey } from '@/lib/platform/keys';
import { safeReturnPath } from '@/lib/platform/return-path';
import { consumeOAuthState, createOAuthState } from '@/lib/service/connection/store';
import { getEnv, serviceRedirectUri } from '@/lib/platform/env';
import { logWarning } from '@/lib/platform/log';
import { withTokenCall } from '@/lib/service/budget';
import { storeNewConnection } from './connection';
import { exchangeCode, TokenEndpointError } from './token-endpoint';

/** The authorization in flight travels in this sealed, short-lived cookie, bound to its user. */
export const FLOW_COOKIE = 'setpoint_oauth';
export const FLOW_COOKIE_PATH = '/api/connect';
/** An authorization must come back within 10 minutes, the life of the code it brings. */
export const FLOW_LIFETIME_S = 600;

type Flow = { state: string; userId: string; returnTo: string; startedAt: number };

/** The flow cookie's own key: never the session secret itself (see lib/platform/keys.ts). */
const flowCookieKey = () => derivedKey(getEnv().AUTH_SECRET, 'oauth-flow-cookie');

const hashState = (state: string) => createHash('sha256').update(state).digest('base64url');

export function flowCookieOptions() {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: new URL(getEnv().NEXTAUTH_URL).protocol === 'https:',
    path: FLOW_COOKIE_PATH,
    maxAge: FLOW_LIFETIME_S,
  };
}

/** Starts an authorization: a fresh state, kept in the database and in the sealed cookie. */
export async function startAuthorization(input: {
  userId: string;
  returnTo: unknown;
}): Promise<{ authorizeUrl: string; cookie: string }> {
  const env = getEnv();
  const state = randomBytes(32).toString('base64url');
  await createOAuthState({ stateHash: hashState(state), userId: input.userId });
  const flow: Flow = {
    state,
    userId: input.userId,
    returnTo: safeReturnPath(input.returnTo),
    startedAt: Date.now(),
  };
  const cookie = await sealData(flow, { password: flowCookieKey(), ttl: FLOW_LIFETIME_S });
  const url = new URL('/authorize', env.SERVICE_BASE_URL);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', env.SERVICE_CLIENT_ID);
  url.searchParams.set('scope', env.SERVICE_SCOPE);
  url.searchParams.set('redirect_uri', serviceRedirectUri(env));
  url.searchParams.set('state', state);
  return { authorizeUrl: url.toString(), cookie };
}

export type CallbackFailure =
  /** State missing, forged, expired, replayed, or another manager's. */
  | 'state'
  /** The service sent an error other than access_denied. */
  | 'service_error'
  /** The service refused the code (invalid_grant, authorization_expired, a 4xx). */
  | 'code_refused'
  /** The token endpoint was down, slow or rate limited. */
  | 'service_unavailable';

export type CallbackResult =
  | {
      kind: 'connected';
      returnTo: string;
      account: { id: string | null; name: string | null };
    }
  | { kind: 'declined'; returnTo: string }
  | { kind: 'failed'; reason: CallbackFailure; returnTo: string };

/**
 * Completes an authorization from the callback's query and the flow cookie, as the
 * organisation's connection. Nothing is stored unless the state is valid, single-use, fresh and
 * this member's, and the code exchange works.
 */
export async function completeAuthorization(input: {
  member: { userId: string; orgId: string; name: string };
  params: URLSearchParams;
  cookie: string | undefined;
}): Promise<CallbackResult> {
  const { userId } = input.member;
  const flow = input.cookie ? await readFlow(input.cookie) : null;
  const returnTo = flow?.userId === userId ? flow.returnTo : '/connection';
  const state = input.params.get('state');
  const valid =
    flow !== null &&
    state !== null &&
    flow.userId === userId &&
    Date.now() - flow.startedAt < FLOW_LIFETIME_S * 1000 &&
    sameString(state, flow.state) &&
    (await consumeOAuthState({
      stateHash: hashState(state),
      userId,
      notBefore: new Date(Date.now() - FLOW_LIFETIME_S * 1000),
    }));
  if (!valid) return { kind: 'failed', reason: 'state', returnTo };

  const error = input.params.get('error');
  if (error === 'access_denied') return { kind: 'declined', returnTo };
  if (error !== null) {
    logWarning(`authorization came back with error ${JSON.stringify(error.slice(0, 64))}`);
    return { kind: 'failed', reason: 'service_error', returnTo };
  }
  const code = input.params.get('code');
  if (!code) return { kind: 'failed', reason: 'service_error', returnTo };

  try {
    const { member } = input;
    const tokens = await withTokenCall({ orgId: member.orgId, deadline: Date.now() + 20_000 }, () =>
      exchangeCode(code),
    );
    const account = await storeNewConnection(
      member.orgId,
      { userId: member.userId, name: member.name },
      tokens,
    );
    return { kind: 'connected', returnTo, account };
  } catch (failure) {
    // Whatever happened, the manager gets a message, never a raw error on a URL holding a code.
    const refused =
      failure instanceof TokenEndpointError &&
      (failure.kind === 'refused' ||
        (failure.status !== null &&
          failure.status >= 400 &&
          failure.status < 500 &&
          failure.status !== 429));
    if (!refused) logWarning('authorization could not be completed', String(failure));
    return { kind: 'failed', reason: refused ? 'code_refused' : 'service_unavailable', returnTo };
  }
}

async function readFlow(cookie: string): Promise<Flow | null> {
  const flow = await unsealData<Partial<Flow>>(cookie, {
    password: flowCookieKey(),
    ttl: FLOW_LIFETIME_S,
  });
  const complete =
    typeof flow.state === 'string' &&
    typeof flow.userId === 'string' &&
    typeof flow.returnTo === 'string' &&
    typeof flow.startedAt === 'number';
  return complete ? (flow as Flow) : null;
}

function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
