import { beforeEach, describe, expect, it } from 'vitest';
import {
  boot,
  CLIENT_ID,
  expectError,
  REDIRECT_URI,
  STATUS_KEYS,
  THERMOSTATS,
  withSandbox,
} from './helpers';

const running = withSandbox({ timeoutMs: 300 });
let client: typeof running.client;
let token: string;
let ids: string[];

beforeEach(async () => {
  client = running.client;
  await client.reset();
  token = (await client.login()).access_token;
  ids = (await client.portfolio()).thermostats.map((thermostat) => thermostat.thermostatId);
});

const status = (id = ids[0]) => client.request('GET', `${THERMOSTATS}/${id}/status`, { token });

describe('control API availability', () => {
  it('answers 404 under /_sandbox/ when not enabled', async () => {
    const off = await boot({ control: false });
    try {
      for (const path of ['/_sandbox/config', '/_sandbox/clock', '/_sandbox']) {
        expectError(await off.client.request('GET', path), 404, 'not_found');
      }
      const reset = await off.client.request('POST', '/_sandbox/reset', { body: {} });
      expect(reset.status).toBe(404);
    } finally {
      await off.sandbox.close();
    }
  });
});

describe('clock', () => {
  it('reads, sets and advances the sandbox clock', async () => {
    const now = await client.control('GET', '/clock');
    expect(Math.abs(Date.parse(now.body.now) - Date.now())).toBeLessThan(5000);
    const set = await client.control('PUT', '/clock', { now: '2020-11-15T08:00:00Z' });
    expect(set.body.now.startsWith('2020-11-15T08:00')).toBe(true);
    const advanced = await client.control('POST', '/clock/advance', { seconds: 3600 });
    expect(advanced.body.now.startsWith('2020-11-15T09:00')).toBe(true);
    expect((await client.control('PUT', '/clock', { now: 'soon' })).status).toBe(400);
  });
});

describe('authorization code without a browser', () => {
  it('checks client, redirect URI and scope like /authorize', async () => {
    const base = {
      user: 'demo',
      clientId: CLIENT_ID,
      redirectUri: REDIRECT_URI,
      scope: 'smartRead',
    };
    const ok = await client.control('POST', '/authorization-code', { ...base, state: 'abc' });
    expect(ok.status).toBe(200);
    expect(ok.body.code).toContain('sbx_ac_');
    expect(ok.body.state).toBe('abc');
    expect(
      (await client.control('POST', '/authorization-code', { ...base, user: 'nobody' })).status,
    ).toBe(400);
    expect(
      (await client.control('POST', '/authorization-code', { ...base, clientId: 'x' })).status,
    ).toBe(400);
    expect(
      (
        await client.control('POST', '/authorization-code', {
          ...base,
          redirectUri: 'http://localhost:3000/api/connect/callback',
        })
      ).status,
    ).toBe(400);
    expect(
      (await client.control('POST', '/authorization-code', { ...base, scope: 'root' })).status,
    ).toBe(400);
  });
});

describe('faults', () => {
  it('a status fault on one endpoint, with a count', async () => {
    await client.control('PUT', '/faults', {
      faults: [{ endpoint: 'GET /api/v2/thermostats/:id/status', kind: 503, count: 2 }],
    });
    expectError(await status(), 503, 'service_unavailable');
    expect((await status()).status).toBe(503);
    expect((await status()).status).toBe(200);
    expect(
      (await client.request('GET', `${THERMOSTATS}/${ids[0]}/settings`, { token })).status,
    ).toBe(200);
  });

  it('a fault for ONE thermostat, also inside a bulk update', async () => {
    await client.control('PUT', '/faults', {
      faults: [
        { endpoint: 'GET /api/v2/thermostats/:id/status', kind: 500, thermostatId: ids[2] },
        { endpoint: 'PATCH /api/v2/thermostats/settings', kind: 503, thermostatId: ids[2] },
      ],
    });
    expect((await status(ids[1])).status).toBe(200);
    expect((await status(ids[2])).status).toBe(500);
    const bulk = await client.request('PATCH', `${THERMOSTATS}/settings`, {
      token,
      body: { thermostatIds: [ids[1], ids[2]], fanMinimumOnTime: 5 },
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.data.results[0].status).toBe('success');
    expect(bulk.body.data.results[1]).toEqual({
      thermostatId: ids[2],
      status: 'error',
      message: { error: 'service_unavailable', description: 'Injected failure (HTTP 503).' },
      code: 503,
    });
  });

  it('429 faults carry Retry-After; drop closes the connection; timeout never answers', async () => {
    await client.control('POST', '/faults', { endpoint: '*', kind: 429, count: 1 });
    const limited = await status();
    expectError(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBe('1');
    await client.control('POST', '/faults', {
      endpoint: 'GET /api/v2/thermostats/:id/status',
      kind: 'drop',
      count: 1,
    });
    await expect(status()).rejects.toThrow();
    await client.control('POST', '/faults', {
      endpoint: 'GET /api/v2/thermostats/:id/status',
      kind: 'timeout',
      count: 1,
    });
    const started = Date.now();
    await expect(status()).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect((await status()).status).toBe(200);
    expect((await client.control('GET', '/faults')).body.faults).toHaveLength(3);
    await client.control('DELETE', '/faults');
    expect((await client.control('GET', '/faults')).body.faults).toHaveLength(0);
  });

  it('rejects malformed faults', async () => {
    expect((await client.control('PUT', '/faults', { faults: [{ kind: 'explode' }] })).status).toBe(
      400,
    );
    expect(
      (await client.control('PUT', '/faults', { faults: [{ kind: 500, probability: 2 }] })).status,
    ).toBe(400);
    expect(
      (await client.control('PUT', '/faults', { faults: [{ kind: 'drop', applied: 'yes' }] }))
        .status,
    ).toBe(400);
    const listed = await client.control('PUT', '/faults', { faults: [{ kind: 'garbled' }] });
    expect(listed.status).toBe(200);
    expect(listed.body.faults[0]).toMatchObject({ endpoint: '*', kind: 'garbled', applied: false });
  });

  it('counts what it injected, by kind, until the next reset', async () => {
    expect((await client.control('GET', '/injected')).body).toEqual({ injected: {}, total: 0 });
    await client.control('PUT', '/faults', {
      faults: [
        { endpoint: 'GET /api/v2/thermostats/:id/status', kind: 503, count: 2 },
        { endpoint: 'GET /api/v2/thermostats/:id/status', kind: 'drop', count: 1 },
        { endpoint: 'PATCH /api/v2/thermostats/settings', kind: 500, thermostatId: ids[1] },
      ],
    });
    expect((await status()).status).toBe(503);
    expect((await status()).status).toBe(503);
    await expect(status()).rejects.toThrow();
    expect((await status()).status).toBe(200);
    const bulk = await client.request('PATCH', `${THERMOSTATS}/settings`, {
      token,
      body: { thermostatIds: [ids[0], ids[1]], fanMinimumOnTime: 5 },
    });
    expect(bulk.body.data.results[1].status).toBe('error');
    await client.control('PATCH', '/knobs', { rateLimit: { perSecond: 1, perMinute: 1 } });
    await client.request('GET', `${THERMOSTATS}/${ids[0]}/settings`, { token });
    expect(
      (await client.request('GET', `${THERMOSTATS}/${ids[0]}/settings`, { token })).status,
    ).toBe(429);
    const counted = await client.control('GET', '/injected');
    expect(counted.body).toEqual({
      injected: { '500': 1, '503': 2, drop: 1, rate_limited: 1 },
      total: 5,
    });
    await client.reset();
    expect((await client.control('GET', '/injected')).body.total).toBe(0);
  });

  it('error-rate knobs fail a share of requests', async () => {
    await client.control('PATCH', '/knobs', { errorRate: 1 });
    expect([500, 503]).toContain((await status()).status);
    await client.control('PATCH', '/knobs', { errorRate: 0 });
    expect((await status()).status).toBe(200);
  });
});

describe('latency', () => {
  it('adds latency per endpoint', async () => {
    await client.control('PUT', '/latency', {
      endpoints: { 'GET /api/v2/thermostats/:id/status': 150 },
    });
    let started = Date.now();
    await status();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    started = Date.now();
    await client.request('GET', `${THERMOSTATS}/${ids[0]}/settings`, { token });
    expect(Date.now() - started).toBeLessThan(140);
    const latency = await client.control('GET', '/latency');
    expect(latency.body.endpoints['GET /api/v2/thermostats/:id/status']).toBe(150);
  });
});

describe('call counts', () => {
  it('counts calls per endpoint key and clears them', async () => {
    await client.control('DELETE', '/calls');
    await status();
    await status(ids[1]);
    await client.request('GET', `${THERMOSTATS}/${ids[0]}/schedule`, { token });
    const reply = await client.control('GET', '/calls');
    expect(reply.body.calls['GET /api/v2/thermostats/:id/status']).toBe(2);
    expect(reply.body.calls['GET /api/v2/thermostats/:id/schedule']).toBe(1);
    expect(reply.body.total).toBe(3);
    await client.control('DELETE', '/calls');
    expect((await client.control('GET', '/calls')).body.total).toBe(0);
  });
});

describe('version 1 endpoints', () => {
  async function v1(id: string) {
    return client.request('GET', `/api/v1/thermostats/${id}/status`, { token });
  }

  it('setPoint follows the v1 table per HVAC mode; isTenantMode replaces isResidentMode', async () => {
    const id = ids.find((_, i) => i > 0) as string;
    const v2 = (await status(id)).body.data;
    const { supportedModes } = (await client.control('GET', `/thermostats/${id}`)).body;
    const { desiredHeat, desiredCool } = v2.setPoint;
    const expected: Record<string, object> = {
      heat: { desiredHeat, desiredCool: desiredHeat },
      auxHeatOnly: { desiredHeat, desiredCool: desiredHeat },
      cool: { desiredHeat: desiredCool, desiredCool },
      auto: { desiredHeat, desiredCool },
      off: {},
    };
    await client.control('PATCH', '/knobs', { modeChangeDelayMs: 0 });
    const v1Keys = STATUS_KEYS.map((key) =>
      key === 'isResidentMode' ? 'isTenantMode' : key,
    ).sort();
    for (const mode of supportedModes as string[]) {
      await client.control('PATCH', `/thermostats/${id}`, { hvacMode: mode });
      const reply = await v1(id);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('deprecation')).toBe('true');
      expect(reply.body.data.hvacMode).toBe(mode);
      expect(reply.body.data.setPoint, mode).toEqual(expected[mode]);
      expect(reply.body.data).toHaveProperty('isTenantMode');
      expect(reply.body.data).not.toHaveProperty('isResidentMode');
      expect(Object.keys(reply.body.data).sort()).toEqual(v1Keys);
      expect(reply.body.data.id).toBe(id);
    }
  });

  it('PATCH tenantMode sets the same flag as residentMode, answering 204', async () => {
    const id = ids[1] as string;
    const reply = await client.request('PATCH', `/api/v1/thermostats/${id}/tenantMode`, {
      token,
      body: { isTenantMode: true },
    });
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
    expect(reply.headers.get('deprecation')).toBe('true');
    expect(reply.headers.get('link')).toContain('successor-version');
    expect((await v1(id)).body.data.isTenantMode).toBe(true);
    expect((await status(id)).body.data.isResidentMode).toBe(true);
    const off = await client.request('PATCH', `/api/v1/thermostats/${id}/tenantMode`, {
      token,
      body: { isTenantMode: false },
    });
    expect(off.status).toBe(204);
    expect((await status(id)).body.data.isResidentMode).toBe(false);
    const bad = await client.request('PATCH', `/api/v1/thermostats/${id}/tenantMode`, {
      token,
      body: { isResidentMode: true },
    });
    expect(bad.status).toBe(422);
  });
});
