import { decodeJwt, decodeProtectedHeader } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import { CLIENT_ID, expectError, REDIRECT_URI, THERMOSTATS, withSandbox } from './helpers';

const running = withSandbox();
let client: typeof running.client;
let thermostatId: string;

beforeEach(async () => {
  client = running.client;
  await client.reset();
  thermostatId = (await client.portfolio()).thermostats[0]?.thermostatId as string;
});

const status = (token: string) =>
  client.request('GET', `${THERMOSTATS}/${thermostatId}/status`, { token });

const DAY = 86_400;
const JWT = /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/;

describe('authorization code exchange', () => {
  it('returns the token response shape with no-store caching', async () => {
    const reply = await client.exchange(await client.code());
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'smartWrite',
    });
    expect(typeof reply.body.access_token).toBe('string');
    expect(typeof reply.body.refresh_token).toBe('string');
    expect(reply.headers.get('cache-control')).toBe('no-store');
  });

  it('a code is single use', async () => {
    const code = await client.code();
    expect((await client.exchange(code)).status).toBe(200);
    const again = await client.exchange(code);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
  });

  it('an unknown code gives invalid_grant', async () => {
    const reply = await client.exchange('sbx_ac_unknown');
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('invalid_grant');
  });

  it('a code is valid for 10 minutes, then authorization_expired (401)', async () => {
    const early = await client.code();
    const late = await client.code();
    await client.advance(9 * 60 + 55);
    expect((await client.exchange(early)).status).toBe(200);
    await client.advance(10);
    const reply = await client.exchange(late);
    expect(reply.status).toBe(401);
    expect(reply.body.error).toBe('authorization_expired');
  });

  it('redirect_uri must be identical and client_id must match', async () => {
    const code = await client.code();
    const other = await client.exchange(code, { redirect_uri: `${REDIRECT_URI}/` });
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('invalid_grant');
    const missing = await client.token({
      grant_type: 'authorization_code',
      code,
      client_id: CLIENT_ID,
    });
    expect(missing.body.error).toBe('invalid_request');
    const wrongClient = await client.exchange(code, { client_id: 'nope' });
    expect(wrongClient.body.error).toBe('invalid_client');
    expect((await client.exchange(code)).status).toBe(200);
  });

  it('rejects a missing or unknown grant_type, service_type and body parameters', async () => {
    expect((await client.token({ client_id: CLIENT_ID })).body.error).toBe('invalid_request');
    expect((await client.token({ grant_type: 'password', client_id: CLIENT_ID })).body.error).toBe(
      'unsupported_grant_type',
    );
    const code = await client.code();
    expect((await client.exchange(code, { service_type: 'xml' })).body.error).toBe(
      'invalid_request',
    );
    const inBody = await client.request('POST', '/token', {
      raw: new URLSearchParams({ grant_type: 'authorization_code', code }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(inBody.status).toBe(400);
    expect(inBody.body.error).toBe('invalid_request');
  });

  it('GET /api/v2/token serves the same exchange and refresh', async () => {
    const code = await client.code();
    const reply = await client.token(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: CLIENT_ID },
      'GET',
    );
    expect(reply.status).toBe(200);
    expect(reply.body.expires_in).toBe(3600);
    const refreshed = await client.token(
      {
        grant_type: 'refresh_token',
        refresh_token: reply.body.refresh_token,
        client_id: CLIENT_ID,
      },
      'GET',
    );
    expect(refreshed.status).toBe(200);
    expect((await status(refreshed.body.access_token)).status).toBe(200);
  });
});

describe('access tokens and refresh', () => {
  it('an access token lives 3600 s by the sandbox clock', async () => {
    const { access_token } = await client.login();
    expect((await status(access_token)).status).toBe(200);
    await client.advance(3590);
    expect((await status(access_token)).status).toBe(200);
    await client.advance(15);
    expectError(await status(access_token), 401, 'token_expired');
  });

  it('each refresh immediately expires the previous access token; refresh tokens are reusable', async () => {
    const first = await client.login();
    const second = await client.refresh(first.refresh_token);
    expect(second.status).toBe(200);
    expectError(await status(first.access_token), 401, 'token_expired');
    expect((await status(second.body.access_token)).status).toBe(200);
    const third = await client.refresh(first.refresh_token);
    expect(third.status).toBe(200);
    expect((await status(second.body.access_token)).status).toBe(401);
    expect((await status(third.body.access_token)).status).toBe(200);
    const viaNew = await client.refresh(second.body.refresh_token);
    expect(viaNew.status).toBe(200);
  });

  it('the refresh token may travel in the code parameter', async () => {
    const first = await client.login();
    const reply = await client.token({
      grant_type: 'refresh_token',
      code: first.refresh_token,
      client_id: CLIENT_ID,
    });
    expect(reply.status).toBe(200);
  });

  it('unknown refresh tokens, other clients and missing tokens are refused', async () => {
    expect((await client.refresh('v1.sbxrtunknown')).body.error).toBe('invalid_grant');
    const missing = await client.token({ grant_type: 'refresh_token', client_id: CLIENT_ID });
    expect(missing.body.error).toBe('invalid_request');
  });

  it('a new authorization leaves other grants alone', async () => {
    const firstGrant = await client.login();
    const secondGrant = await client.login();
    expect((await status(firstGrant.access_token)).status).toBe(200);
    expect((await status(secondGrant.access_token)).status).toBe(200);
  });
});

describe('lifetimes and formats before 2020-12-01', () => {
  beforeEach(() => client.setClock('2020-10-01T12:00:00Z'));

  it('opaque access token without service_type, JWT with service_type=jwt; v1 refresh tokens', async () => {
    const opaque = await client.login();
    expect(opaque.access_token).toMatch(/^sbx_at_[\w-]+$/);
    expect(opaque.refresh_token).toMatch(/^v1\.[\w-]{40,60}$/);
    expect(opaque.refresh_token).toContain('sbxrt');
    const jwt = await client.login('demo', { service_type: 'jwt' });
    expect(jwt.access_token).toMatch(JWT);
    expect(jwt.refresh_token).toMatch(/^v1\./);
    expect((await status(opaque.access_token)).status).toBe(200);
    expect((await status(jwt.access_token)).status).toBe(200);
  });

  it('the first refresh token lives 14 days', async () => {
    const { refresh_token } = await client.login();
    await client.advance(14 * DAY - 60);
    expect((await client.refresh(refresh_token)).status).toBe(200);
    await client.advance(120);
    const reply = await client.refresh(refresh_token);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('invalid_grant');
  });

  it('later refresh tokens live 1 year', async () => {
    const first = await client.login();
    const later = (await client.refresh(first.refresh_token)).body.refresh_token as string;
    // Issued on 2020-10-01: the 1-year lifetime holds even across the 2020-12-01 switch.
    await client.advance(360 * DAY);
    expect((await client.refresh(later)).status).toBe(200);
    await client.advance(6 * DAY);
    expect((await client.refresh(later)).body.error).toBe('invalid_grant');
  });
});

describe('lifetimes and formats from 2020-12-01', () => {
  it('every access token is a JWT, refresh tokens change format and live 30 days', async () => {
    await client.setClock('2020-12-01T00:00:05Z');
    const tokens = await client.login();
    expect(tokens.access_token).toMatch(JWT);
    expect(tokens.refresh_token).toMatch(/^v2\.sbxrt\.[\w-]{60,}$/);
    await client.advance(30 * DAY - 60);
    const reply = await client.refresh(tokens.refresh_token);
    expect(reply.status).toBe(200);
    await client.advance(120);
    expect((await client.refresh(tokens.refresh_token)).body.error).toBe('invalid_grant');
    expect((await client.refresh(reply.body.refresh_token)).status).toBe(200);
  });

  it('a pre-switch grant refreshed after the switch receives JWTs and new-format refresh tokens', async () => {
    await client.setClock('2020-11-30T23:00:00Z');
    const tokens = await client.login();
    expect(tokens.access_token).toMatch(/^sbx_at_/);
    await client.advance(2 * 3600);
    const reply = await client.refresh(tokens.refresh_token);
    expect(reply.body.access_token).toMatch(JWT);
    expect(reply.body.refresh_token).toMatch(/^v2\./);
  });

  it('JWTs are HS256, a few KB, carry the sentinel and the sandbox-clock expiry', async () => {
    const tokens = await client.login();
    const header = decodeProtectedHeader(tokens.access_token);
    expect(header).toMatchObject({ alg: 'HS256', kid: 'sbx-sentinel-hs256' });
    const claims = decodeJwt(tokens.access_token);
    expect(claims.sbx).toBe('sbx-sentinel-access-token');
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    expect(tokens.access_token.length).toBeGreaterThan(2500);
    expect(tokens.access_token.length).toBeLessThan(7500);
    const config = await client.control('GET', '/config');
    expect(tokens.access_token.startsWith(config.body.sentinels.jwtPrefix)).toBe(true);
  });

  it('a JWT names the connected service account: account and account_name, per user', async () => {
    const accounts = [
      ['demo', 'user_demo', 'acct_demo', 'Demo Property Management'],
      ['other', 'user_other', 'acct_other', 'Northwind Property Co.'],
    ] as const;
    for (const [user, userId, accountId, accountName] of accounts) {
      const claims = decodeJwt((await client.login(user)).access_token);
      expect(claims, user).toMatchObject({
        sub: userId,
        account: accountId,
        account_name: accountName,
      });
      const portfolio = await client.control('GET', `/portfolio?user=${user}`);
      expect(portfolio.body.account).toEqual({ accountId, name: accountName });
    }
    // Before 2020-12-01 without service_type=jwt the token is opaque and names nothing.
    await client.setClock('2020-10-01T12:00:00Z');
    expect((await client.login()).access_token).toMatch(/^sbx_at_[\w-]+$/);
  });
});

describe('token endpoint faults and rate limit', () => {
  it('authorization_pending and slow_down come from fault injection (401)', async () => {
    await client.control('PUT', '/faults', {
      faults: [
        { endpoint: 'POST /token', kind: 'authorization_pending', count: 1 },
        { endpoint: 'POST /token', kind: 'slow_down', count: 1 },
      ],
    });
    const code = await client.code();
    const pending = await client.exchange(code);
    expect(pending.status).toBe(401);
    expect(pending.body.error).toBe('authorization_pending');
    const slowDown = await client.exchange(code);
    expect(slowDown.status).toBe(401);
    expect(slowDown.body.error).toBe('slow_down');
    expect((await client.exchange(code)).status).toBe(200);
  });

  it('the per-client token limit answers 429 rate_limit_exceeded with Retry-After', async () => {
    await client.control('PATCH', '/knobs', {
      rateLimit: { tokenPerWindow: 2, tokenWindowSeconds: 7200 },
    });
    const tokens = await client.login();
    expect((await client.refresh(tokens.refresh_token)).status).toBe(200);
    const reply = await client.refresh(tokens.refresh_token);
    expect(reply.status).toBe(429);
    expect(reply.body.error).toBe('rate_limit_exceeded');
    expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
    await client.advance(7200);
    expect((await client.refresh(tokens.refresh_token)).status).toBe(200);
  });
});
