import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import type { Member } from '@/lib/auth/store';
import type { RunningSandbox } from '@/sandbox/src/server';
import { useDatabase } from '../support/database';
import { createFirstOwner } from '../support/members';
import {
  callCount,
  connectThroughCallback,
  control as controlOf,
  startServiceForTests,
} from '../support/service';

// Issue #17, paths no app test walked: the version 2 token path (SERVICE_TOKEN_PATH) with
// service_type=jwt through connect, refresh and the API; the refresh made shortly before expiry;
// the warning before the refresh token itself runs out. Against the sandbox, on a clock before
// 2020-12-01, where only service_type=jwt makes an access token a JWT (sandbox/README.md).
let sandbox: RunningSandbox;
let handle: DatabaseHandle;
let orgId: string;
let member: Member;
let thermostatId: string;
const control = (method: string, route: string, body?: unknown) =>
  controlOf(sandbox, method, route, body);
const V2_TOKEN = 'GET /api/v2/token';
const STATUS = 'GET /api/v2/thermostats/:id/status';
const BEFORE_SWITCH = '2020-11-15T08:00:00Z';
const DAY_MS = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  sandbox = await startServiceForTests({
    SERVICE_TOKEN_PATH: '/api/v2/token',
    SERVICE_JWT: 'true',
  });
  handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
});
afterAll(async () => {
  await handle?.close();
  await sandbox?.close();
});
beforeEach(async () => {
  await handle.db.execute(sql`truncate users, organizations cascade`);
  await control('POST', '/reset');
  await control('PUT', '/clock', { now: BEFORE_SWITCH });
  member = await createFirstOwner('m@example.com');
  orgId = member.orgId;
  thermostatId = (await control('GET', '/portfolio?user=demo')).thermostats[0].thermostatId;
});

async function connect() {
  expect((await connectThroughCallback(sandbox, member)).kind).toBe('connected');
}

describe('the version 2 token path with service_type=jwt', () => {
  it('connects, calls the API, refreshes after a 401 and calls again, all on GET /api/v2/token with JWTs', async () => {
    const { getConnectionSummary } = await import('@/lib/service/connection/connection');
    const { getStatus } = await import('@/lib/service/resources');
    await connect();
    expect(await callCount(sandbox, V2_TOKEN)).toBe(1);
    expect(await getConnectionSummary(orgId)).toMatchObject({
      status: 'active',
      tokenFormat: 'jwt',
      lastRefreshedAt: null,
    });
    expect(await getStatus({ orgId, thermostatId })).toMatchObject({
      isResidentMode: expect.any(Boolean),
    });

    // The access token dies at the service (its clock moves on): a 401, one refresh, again.
    await control('POST', '/clock/advance', { seconds: 3601 });
    expect(await getStatus({ orgId, thermostatId })).toMatchObject({
      isResidentMode: expect.any(Boolean),
    });
    expect(await callCount(sandbox, V2_TOKEN)).toBe(2);
    expect(await callCount(sandbox, 'POST /token')).toBe(0);
    const refreshed = await getConnectionSummary(orgId);
    expect(refreshed?.lastRefreshedAt).not.toBeNull();
    // Still a JWT: the refresh asked for one too (without it, an opaque token before the switch).
    expect(refreshed?.tokenFormat).toBe('jwt');
  });

  it('refreshes shortly before expiry, before the call, so the call is never refused', async () => {
    const { getStatus } = await import('@/lib/service/resources');
    await connect();
    await control('DELETE', '/calls');
    // 30 s left by our clock (the margin is 60 s); the service would still take the token.
    await handle.db.execute(
      sql`update service_connections set access_token_expires_at = now() + interval '30 seconds'`,
    );
    expect(await getStatus({ orgId, thermostatId })).toMatchObject({
      isResidentMode: expect.any(Boolean),
    });
    expect(await callCount(sandbox, V2_TOKEN)).toBe(1);
    // Sent once, with the new token: no 401 and no resend.
    expect(await callCount(sandbox, STATUS)).toBe(1);
    await expect(getStatus({ orgId, thermostatId })).resolves.toBeTruthy();
    expect(await callCount(sandbox, V2_TOKEN)).toBe(1);
  });

  it('warns in the last 7 days of the refresh token, which the service ends when it said', async () => {
    const { getAccessToken, getConnectionSummary, ConnectionError } = await import(
      '@/lib/service/connection/connection'
    );
    const connectedAt = Date.now();
    await connect();
    // Before 2020-12-01 the first refresh token after an authorization lives 14 days.
    const summary = await getConnectionSummary(orgId);
    const expiresAt = summary?.refreshTokenExpiresAt.getTime() ?? 0;
    expect(Math.abs(expiresAt - (connectedAt + 14 * DAY_MS))).toBeLessThan(60_000);
    expect(summary?.refreshTokenExpiresSoon).toBe(false);

    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(expiresAt - 7 * DAY_MS - 60_000);
      expect((await getConnectionSummary(orgId))?.refreshTokenExpiresSoon).toBe(false);
      vi.setSystemTime(expiresAt - 7 * DAY_MS + 60_000);
      expect((await getConnectionSummary(orgId))?.refreshTokenExpiresSoon).toBe(true);
    } finally {
      vi.useRealTimers();
    }

    // The service agrees: 14 days on, a refresh is refused and the manager must reconnect.
    await control('POST', '/clock/advance', { seconds: (14 * DAY_MS) / 1000 + 60 });
    const { token } = await getAccessToken(orgId);
    const refused = await getAccessToken(orgId, { rejected: token }).catch((error) => error);
    expect(refused).toBeInstanceOf(ConnectionError);
    expect(refused).toMatchObject({ kind: 'reconnect' });
    expect((await getConnectionSummary(orgId))?.status).toBe('reconnect');
  });
});
