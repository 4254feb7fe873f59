import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ServiceError } from '@/lib/service/errors';
import { type RunningSandbox, startSandbox } from '@/sandbox/src/server';

/**
 * For tests of app code against the sandbox: starts one in this process and points the app's
 * configuration at it (before anything reads the configuration).
 */
export const APP_URL = 'http://127.0.0.1:3100';
export const REDIRECT_URI = `${APP_URL}/api/connect/callback`;

export async function startServiceForTests(
  env: Record<string, string> = {},
): Promise<RunningSandbox> {
  const sandbox = await startSandbox({
    port: 0,
    control: true,
    allowRedirectPorts: true,
    modeChangeDelayMs: 200,
  });
  Object.assign(process.env, {
    NEXTAUTH_URL: APP_URL,
    AUTH_SECRET: randomBytes(32).toString('base64url'),
    TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-test-')),
    SERVICE_BASE_URL: sandbox.url,
    SERVICE_ALLOW_REDIRECT_PORT: 'true',
    ...env,
  });
  return sandbox;
}

/** Calls the sandbox's control API. */
export async function control(
  sandbox: RunningSandbox,
  method: string,
  route: string,
  body?: unknown,
) {
  const response = await fetch(`${sandbox.url}/_sandbox${route}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok)
    throw new Error(`control ${route}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** How many times the sandbox has answered an endpoint key, e.g. `POST /token`. */
export async function callCount(sandbox: RunningSandbox, key: string): Promise<number> {
  const { calls } = await control(sandbox, 'GET', '/calls');
  return (calls[key] ?? 0) as number;
}

/** A code for the sandbox user, as if they had accepted on the consent page. */
export async function authorizationCode(
  sandbox: RunningSandbox,
  state?: string,
  user = 'demo',
): Promise<string> {
  const { code } = await control(sandbox, 'POST', '/authorization-code', {
    user,
    clientId: 'setpoint-local',
    redirectUri: REDIRECT_URI,
    scope: 'smartWrite',
    state,
  });
  return code as string;
}

/**
 * The first owner of a new organisation, its service account connected to the sandbox's demo
 * user (tokens from a real code exchange, stored as the callback stores them).
 */
export async function connectedOwner(sandbox: RunningSandbox, email = 'm@example.com') {
  const { createFirstOwner } = await import('./members');
  const { storeNewConnection } = await import('@/lib/service/connection/connection');
  const { exchangeCode } = await import('@/lib/service/connection/token-endpoint');
  const owner = await createFirstOwner(email);
  await storeNewConnection(
    owner.orgId,
    { userId: owner.userId, name: owner.name },
    await exchangeCode(await authorizationCode(sandbox)),
  );
  return owner;
}

/** The ServiceError a call fails with; throws when it succeeds or fails otherwise. */
export async function serviceFailure(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ServiceError))
    throw new Error(`expected a ServiceError, got ${String(error)}`);
  return error;
}

/**
 * A whole authorization through the app's own flow, as the connect and callback routes run
 * it, with the sandbox user's consent given by the control API: the callback's result.
 */
export async function connectThroughCallback(
  sandbox: RunningSandbox,
  member: { userId: string; orgId: string; name: string },
  returnTo: unknown = '/connection',
) {
  const { completeAuthorization, startAuthorization } = await import(
    '@/lib/service/connection/flow'
  );
  const started = await startAuthorization({ userId: member.userId, returnTo });
  const state = new URL(started.authorizeUrl).searchParams.get('state') ?? '';
  const code = await authorizationCode(sandbox, state);
  return completeAuthorization({
    member,
    cookie: started.cookie,
    params: new URLSearchParams({ code, state }),
  });
}
