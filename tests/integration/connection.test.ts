import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import type { Member } from '@/lib/auth/store';
import type { RunningSandbox } from '@/sandbox/src/server';
import { databaseTargets, useDatabase } from '../support/database';
import { createFirstOwner, createOrganizationWithOwner } from '../support/members';
import {
  authorizationCode,
  callCount,
  connectThroughCallback,
  control as controlOf,
  REDIRECT_URI,
  startServiceForTests,
} from '../support/service';

// The connect flow and the token vault against the real sandbox over HTTP, on each database.
let sandbox: RunningSandbox;
const control = (method: string, route: string, body?: unknown) =>
  controlOf(sandbox, method, route, body);
const tokenCalls = () => callCount(sandbox, 'POST /token');

async function statusWith(token: string) {
  const { thermostats } = await control('GET', '/portfolio?user=demo');
  const id = thermostats[0].thermostatId;
  return fetch(`${sandbox.url}/api/v2/thermostats/${id}/status`, {
    headers: { authorization: `Bearer ${token}` },
  });
}

beforeAll(async () => {
  sandbox = await startServiceForTests();
});
afterAll(async () => {
  await sandbox?.close();
});

describe.each(databaseTargets)('service connection on $name', ({ target }) => {
  let handle: DatabaseHandle;
  let member: Member;
  let otherMember: Member;

  beforeAll(async () => {
    handle = await useDatabase(await target());
  });
  afterAll(async () => {
    await handle.close();
  });
  beforeEach(async () => {
    await handle.db.execute(sql`truncate users, organizations cascade`);
    await control('POST', '/reset');
    await control('DELETE', '/clock');
    member = await createFirstOwner('m@example.com');
    otherMember = await createOrganizationWithOwner('o@example.com');
  });

  async function authorize(forUser = member.userId) {
    const { startAuthorization } = await import('@/lib/service/connection/flow');
    const started = await startAuthorization({ userId: forUser, returnTo: '/buildings?x=1' });
    const authorizeUrl = new URL(started.authorizeUrl);
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    const state = authorizeUrl.searchParams.get('state') ?? '';
    const code = await authorizationCode(sandbox, state);
    return { cookie: started.cookie, state, code };
  }

  it('connects with a valid code and state, and returns to where the manager started', async () => {
    const { completeAuthorization } = await import('@/lib/service/connection/flow');
    const { getAccessToken, getConnectionSummary } = await import(
      '@/lib/service/connection/connection'
    );
    const { cookie, state, code } = await authorize();
    const result = await completeAuthorization({
      member,
      cookie,
      params: new URLSearchParams({ code, state }),
    });
    expect(result).toMatchObject({ kind: 'connected', returnTo: '/buildings?x=1' });

    const summary = await getConnectionSummary(member.orgId);
    expect(summary).toMatchObject({ status: 'active', tokenFormat: 'jwt', scope: 'smartWrite' });
    const { token, tokenType } = await getAccessToken(member.orgId);
    expect(tokenType.toLowerCase()).toBe('bearer');
    expect((await statusWith(token)).status).toBe(200);

    // Tokens are stored sealed: a dump of the table does not contain them.
    const dump = JSON.stringify(await handle.db.execute(sql`select * from service_connections`));
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(token.slice(0, 40));
  });

  it('stores nothing for a replayed, foreign, missing or expired state, or a refused code', async () => {
    const { completeAuthorization } = await import('@/lib/service/connection/flow');
    const { getConnectionSummary } = await import('@/lib/service/connection/connection');

    const first = await authorize();
    const ok = await completeAuthorization({
      member,
      cookie: first.cookie,
      params: new URLSearchParams({ code: first.code, state: first.state }),
    });
    expect(ok.kind).toBe('connected');
    const before = await getConnectionSummary(member.orgId);
    const replay = await completeAuthorization({
      member,
      cookie: first.cookie,
      params: new URLSearchParams({ code: first.code, state: first.state }),
    });
    expect(replay).toMatchObject({ kind: 'failed', reason: 'state' });

    const foreign = await authorize(otherMember.userId);
    expect(
      await completeAuthorization({
        member,
        cookie: foreign.cookie,
        params: new URLSearchParams({ code: foreign.code, state: foreign.state }),
      }),
    ).toMatchObject({ kind: 'failed', reason: 'state' });

    const fresh = await authorize();
    expect(
      await completeAuthorization({
        member,
        cookie: undefined,
        params: new URLSearchParams({ code: fresh.code, state: fresh.state }),
      }),
    ).toMatchObject({ kind: 'failed', reason: 'state' });
    expect(
      await completeAuthorization({
        member,
        cookie: fresh.cookie,
        params: new URLSearchParams({ code: fresh.code, state: 'forged' }),
      }),
    ).toMatchObject({ kind: 'failed', reason: 'state' });

    // The code already exchanged above, replayed with a fresh, valid state: the service
    // refuses it and nothing changes.
    const second = await authorize();
    expect(
      await completeAuthorization({
        member,
        cookie: second.cookie,
        params: new URLSearchParams({ code: first.code, state: second.state }),
      }),
    ).toMatchObject({ kind: 'failed', reason: 'code_refused' });

    const refused = await authorize();
    expect(
      await completeAuthorization({
        member,
        cookie: refused.cookie,
        params: new URLSearchParams({ code: 'not-a-code', state: refused.state }),
      }),
    ).toMatchObject({ kind: 'failed', reason: 'code_refused' });

    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const late = await authorize();
      vi.setSystemTime(Date.now() + 11 * 60 * 1000);
      expect(
        await completeAuthorization({
          member,
          cookie: late.cookie,
          params: new URLSearchParams({ code: late.code, state: late.state }),
        }),
      ).toMatchObject({ kind: 'failed', reason: 'state' });
    } finally {
      vi.useRealTimers();
    }
    // The connection made first is untouched by all of that.
    expect(await getConnectionSummary(member.orgId)).toEqual(before);
  });

  it('refuses a flow cookie sealed with the session secret itself: the flow has a key of its own', async () => {
    const { completeAuthorization } = await import('@/lib/service/connection/flow');
    const { sealData } = await import('iron-session');
    const { state, code } = await authorize();
    // Whoever holds AUTH_SECRET (or a cookie sealed under it for another purpose) cannot make
    // a flow cookie: it is sealed under a key derived for this purpose alone.
    const forged = await sealData(
      { state, userId: member.userId, returnTo: '/connection', startedAt: Date.now() },
      { password: process.env.AUTH_SECRET ?? '', ttl: 600 },
    );
    expect(
      await completeAuthorization({
        member,
        cookie: forged,
        params: new URLSearchParams({ code, state }),
      }),
    ).toMatchObject({ kind: 'failed', reason: 'state' });
  });

  it('treats access_denied as declined and other errors as failures, storing nothing', async () => {
    const { completeAuthorization } = await import('@/lib/service/connection/flow');
    const { getConnectionSummary } = await import('@/lib/service/connection/connection');
    const denied = await authorize();
    const params = new URLSearchParams({
      error: 'access_denied',
      error_description: '<script>x</script>',
      state: denied.state,
    });
    expect(await completeAuthorization({ member, cookie: denied.cookie, params })).toEqual({
      kind: 'declined',
      returnTo: '/buildings?x=1',
    });
    const other = await authorize();
    expect(
      await completeAuthorization({
        member,
        cookie: other.cookie,
        params: new URLSearchParams({ error: 'server_error', state: other.state }),
      }),
    ).toMatchObject({ kind: 'failed', reason: 'service_error' });
    expect(await getConnectionSummary(member.orgId)).toBeNull();
  });

  it('returns only to a path of this app, whatever return path the flow was started with', async () => {
    for (const returnTo of [
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      'https://evil.example/x',
      '/%2F%2Fevil.example',
      '/\r\nSet-Cookie: x=1',
      `/${'a'.repeat(5000)}`,
    ]) {
      const result = await connectThroughCallback(sandbox, member, returnTo);
      expect(result.kind).toBe('connected');
      const back = 'returnTo' in result ? result.returnTo : '';
      // Resolved against this app's origin, it stays on this app's origin.
      expect(new URL(back, 'https://setpoint.example').origin, returnTo).toBe(
        'https://setpoint.example',
      );
      expect(back).not.toMatch(/[\r\n\\]/);
    }
  });

  it('exchanges a code once when two callbacks race with the same state', async () => {
    const { completeAuthorization } = await import('@/lib/service/connection/flow');
    const { cookie, state, code } = await authorize();
    const calls = await tokenCalls();
    const results = await Promise.all(
      [1, 2].map(() =>
        completeAuthorization({ member, cookie, params: new URLSearchParams({ code, state }) }),
      ),
    );
    expect(results.map((result) => result.kind).sort()).toEqual(['connected', 'failed']);
    expect((await tokenCalls()) - calls).toBe(1);
  });

  it('refreshes once for many concurrent requests, in this process and across processes', async () => {
    const { completeAuthorization } = await import('@/lib/service/connection/flow');
    const connection = await import('@/lib/service/connection/connection');
    const { cookie, state, code } = await authorize();
    await completeAuthorization({ member, cookie, params: new URLSearchParams({ code, state }) });
    const { token: old } = await connection.getAccessToken(member.orgId);

    // A second copy of the module has its own in-process map, like another app instance:
    // only the database row lock keeps it from refreshing too.
    vi.resetModules();
    const otherInstance = await import('@/lib/service/connection/connection');
    expect(otherInstance).not.toBe(connection);

    const calls = await tokenCalls();
    const tokens = await Promise.all([
      ...Array.from({ length: 20 }, () =>
        connection.getAccessToken(member.orgId, { rejected: old }),
      ),
      ...Array.from({ length: 20 }, () =>
        otherInstance.getAccessToken(member.orgId, { rejected: old }),
      ),
    ]);
    expect((await tokenCalls()) - calls).toBe(1);
    const fresh = new Set(tokens.map((t) => t.token));
    expect(fresh.size).toBe(1);
    const [newToken] = [...fresh];
    expect(newToken).not.toBe(old);
    // The service expired the old token at once; the stored one works.
    expect((await statusWith(old)).status).toBe(401);
    expect((await statusWith(newToken as string)).status).toBe(200);
    expect((await connection.getConnectionSummary(member.orgId))?.lastRefreshedAt).toBeInstanceOf(
      Date,
    );
  });

  it('gives callers arriving during a refresh the new token, not the refused one', async () => {
    const { completeAuthorization } = await import('@/lib/service/connection/flow');
    const connection = await import('@/lib/service/connection/connection');
    const { cookie, state, code } = await authorize();
    await completeAuthorization({ member, cookie, params: new URLSearchParams({ code, state }) });
    const { token: old } = await connection.getAccessToken(member.orgId);
    const calls = await tokenCalls();
    // One request saw a 401; the others were queued with no idea and ask plainly.
    const refreshing = connection.getAccessToken(member.orgId, { rejected: old });
    const others = await Promise.all(
      Array.from({ length: 10 }, () => connection.getAccessToken(member.orgId)),
    );
    const { token: fresh } = await refreshing;
    expect(fresh).not.toBe(old);
    expect(new Set(others.map((t) => t.token))).toEqual(new Set([fresh]));
    expect((await tokenCalls()) - calls).toBe(1);
  });

  it('marks the connection for reconnection when the service refuses the refresh token, and logs the end once', async () => {
    const { completeAuthorization } = await import('@/lib/service/connection/flow');
    const { ConnectionError, getAccessToken, getConnectionSummary } = await import(
      '@/lib/service/connection/connection'
    );
    const { logConnectionEnds } = await import('@/lib/activity/sink');
    const { listActivity } = await import('@/lib/activity/store');
    // As start-up does: the activity log listens for the service tier's news of an end.
    logConnectionEnds();
    const ends = () => listActivity({ scope: member, filter: { action: 'connection.end' } });
    const endsBefore = (await ends()).length;
    const { cookie, state, code } = await authorize();
    await completeAuthorization({ member, cookie, params: new URLSearchParams({ code, state }) });
    const { token } = await getAccessToken(member.orgId);

    await control('POST', '/clock/advance', { seconds: 31 * 86_400 });
    await expect(getAccessToken(member.orgId, { rejected: token })).rejects.toMatchObject({
      kind: 'reconnect',
    });
    expect(await getConnectionSummary(member.orgId)).toMatchObject({
      status: 'reconnect',
      endedReason: 'refresh_refused',
    });
    const calls = await tokenCalls();
    await expect(getAccessToken(member.orgId)).rejects.toBeInstanceOf(ConnectionError);
    expect(await tokenCalls()).toBe(calls);
    // Logged once, by Setpoint, with the reason and not the service's text; the later refusal
    // found the end already recorded and logs nothing more.
    const logged = await ends();
    expect(logged).toHaveLength(endsBefore + 1);
    expect(logged[0]).toMatchObject({
      userId: null,
      actorName: 'Setpoint',
      outcome: 'failure',
      error: 'reconnect',
      changes: { endedReason: 'refresh_refused' },
    });

    // Reconnecting clears the reason.
    const again = await authorize();
    await completeAuthorization({
      member,
      cookie: again.cookie,
      params: new URLSearchParams({ code: again.code, state: again.state }),
    });
    expect(await getConnectionSummary(member.orgId)).toMatchObject({
      status: 'active',
      endedReason: null,
    });
  });

  it('says the stored tokens are unreadable when they can no longer be unsealed', async () => {
    const { completeAuthorization } = await import('@/lib/service/connection/flow');
    const { getAccessToken, getConnectionSummary } = await import(
      '@/lib/service/connection/connection'
    );
    const { cookie, state, code } = await authorize();
    await completeAuthorization({ member, cookie, params: new URLSearchParams({ code, state }) });
    // As if sealed under a key since removed from TOKEN_KEYS.
    await handle.db.execute(sql`
      update service_connections set access_token_sealed = 'Fe26.2**gone',
        refresh_token_sealed = 'Fe26.2**gone'
      where org_id = ${member.orgId}`);
    const calls = await tokenCalls();
    await expect(getAccessToken(member.orgId)).rejects.toMatchObject({ kind: 'reconnect' });
    expect(await tokenCalls()).toBe(calls);
    expect(await getConnectionSummary(member.orgId)).toMatchObject({
      status: 'reconnect',
      endedReason: 'tokens_unreadable',
    });
  });

  it('leaves the connection alone when the token endpoint is only unavailable', async () => {
    const { completeAuthorization } = await import('@/lib/service/connection/flow');
    const { getAccessToken, getConnectionSummary } = await import(
      '@/lib/service/connection/connection'
    );
    const { cookie, state, code } = await authorize();
    await completeAuthorization({ member, cookie, params: new URLSearchParams({ code, state }) });
    const { token } = await getAccessToken(member.orgId);
    await control('PUT', '/faults', { faults: [{ endpoint: 'POST /token', kind: 503 }] });
    try {
      await expect(getAccessToken(member.orgId, { rejected: token })).rejects.toMatchObject({
        kind: 'unavailable',
      });
    } finally {
      await control('DELETE', '/faults');
    }
    expect((await getConnectionSummary(member.orgId))?.status).toBe('active');
    expect((await getAccessToken(member.orgId, { rejected: token })).token).not.toBe(token);
  });
});
