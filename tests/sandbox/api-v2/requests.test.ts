import { describe, expect, it } from 'vitest';
import { expectError, expectFail, THERMOSTATS, withApiSession } from '../helpers';

/** What every version 2 request shares: bearer checks, account isolation, routing. */
const api = withApiSession();

describe('bearer checks', () => {
  it('missing, malformed, unknown tokens give 401 in the error envelope', async () => {
    const path = `${THERMOSTATS}/${api.thermostatId}/status`;
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'missing_token'],
      [{ authorization: `Basic ${api.token}` }, 'invalid_token'],
      [{ authorization: 'Bearer' }, 'invalid_token'],
      [{ authorization: 'Bearer sbx_at_forged' }, 'invalid_token'],
    ];
    for (const [headers, code] of cases) {
      const reply = await api.client.request('GET', path, { headers });
      expectError(reply, 401, code);
      expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('the scheme compares case-insensitively', async () => {
    const reply = await api.client.request('GET', `${THERMOSTATS}/${api.thermostatId}/status`, {
      headers: { authorization: `bearer ${api.token}` },
    });
    expect(reply.status).toBe(200);
  });

  it('a read-only scope cannot write (403)', async () => {
    const readOnly = (await api.client.login('demo', {}, { scope: 'smartRead' })).access_token;
    const path = `${THERMOSTATS}/${api.thermostatId}/settings`;
    expect((await api.client.request('GET', path, { token: readOnly })).status).toBe(200);
    const reply = await api.client.request('PATCH', path, {
      token: readOnly,
      body: { fanMinimumOnTime: 5 },
    });
    expectError(reply, 403, 'insufficient_scope');
  });
});

describe('isolation between accounts', () => {
  it("another account's thermostat is 404 for every read and write, like an unknown id", async () => {
    const foreign = api.other.thermostats[0]?.thermostatId as string;
    for (const resource of ['status', 'schedule', 'comfortSettings', 'settings', 'alertSettings']) {
      const reply = await api.get(`${THERMOSTATS}/${foreign}/${resource}`);
      expectError(reply, 404, 'thermostat_not_found');
      expect((await api.get(`${THERMOSTATS}/999999999999/${resource}`)).status).toBe(404);
    }
    expect(
      (await api.patch(`${THERMOSTATS}/${foreign}/residentMode`, { isResidentMode: false })).status,
    ).toBe(404);
    expect(
      (await api.patch(`${THERMOSTATS}/${foreign}/settings`, { fanMinimumOnTime: 5 })).status,
    ).toBe(404);
    expect(
      (
        await api.patch(`${THERMOSTATS}/${foreign}`, {
          buildingId: api.demo.buildings[0]?.buildingId,
        })
      ).status,
    ).toBe(404);
    expect((await api.delete(`${THERMOSTATS}/${foreign}/comfortSettings/home`)).status).toBe(404);
    const otherToken = (await api.client.login('other')).access_token;
    const mine = await api.client.request('GET', `${THERMOSTATS}/${foreign}/status`, {
      token: otherToken,
    });
    expect(mine.status).toBe(200);
  });

  it("another account's building cannot receive a created or moved thermostat", async () => {
    const foreignBuilding = api.other.buildings[0]?.buildingId as string;
    const created = await api.post(`${THERMOSTATS}/${foreignBuilding}/thermostats`, {
      isResidentMode: true,
    });
    expectError(created, 404, 'building_not_found');
    expectFail(
      await api.patch(`${THERMOSTATS}/${api.thermostatId}`, { buildingId: foreignBuilding }),
      'buildingId',
    );
  });

  it('bulk updates report foreign thermostats as not found and leave them alone', async () => {
    const foreign = api.other.thermostats[0]?.thermostatId as string;
    const reply = await api.patch(`${THERMOSTATS}/settings`, {
      thermostatIds: [api.thermostatId, foreign],
      fanMinimumOnTime: 20,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data.results[1]).toEqual({
      thermostatId: foreign,
      status: 'error',
      message: { error: 'thermostat_not_found', description: 'Thermostat not found.' },
      code: 404,
    });
    const otherToken = (await api.client.login('other')).access_token;
    const settings = await api.client.request('GET', `${THERMOSTATS}/${foreign}/settings`, {
      token: otherToken,
    });
    expect(settings.body.data.fanMinimumOnTime).toBe(0);
  });
});

describe('envelope and routing', () => {
  it('unknown paths are 404 and wrong methods 405 in the error envelope', async () => {
    const unknown = await api.get('/api/v2/nothing');
    expectError(unknown, 404, 'not_found');
    const wrongMethod = await api.delete(`${THERMOSTATS}/${api.thermostatId}/status`);
    expectError(wrongMethod, 405, 'method_not_allowed');
    expect(wrongMethod.headers.get('allow')).toBe('GET');
  });

  it('errors carry message as an object and code as the integer HTTP status (404, 409)', async () => {
    const missing = await api.get(`${THERMOSTATS}/999999999999/status`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      status: 'error',
      message: { error: 'thermostat_not_found', description: 'Thermostat not found.' },
      code: 404,
    });
    expect(typeof missing.body.code).toBe('number');
    const offline = await api.patch(`${THERMOSTATS}/${api.offlineId}/accessControl`, {
      enabled: false,
    });
    expect(offline.status).toBe(409);
    expect(Object.keys(offline.body).sort()).toEqual(['code', 'message', 'status']);
    expect(offline.body.status).toBe('error');
    expect(offline.body.code).toBe(409);
    expect(offline.body.message.error).toBe('thermostat_offline');
    expect(offline.body.message.description).toMatch(/offline/);
    const taken = await api.post(
      `${THERMOSTATS}/${api.demo.buildings[0]?.buildingId}/thermostats`,
      {
        isResidentMode: true,
        thermostatId: api.thermostatId,
      },
    );
    expectError(taken, 409, 'thermostat_exists');
  });

  it('validation failures keep the fail envelope with field paths', async () => {
    const reply = await api.patch(`${THERMOSTATS}/${api.thermostatId}/settings`, {
      fanMinimumOnTime: 99,
    });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({
      status: 'fail',
      data: { fanMinimumOnTime: expect.any(String) },
    });
  });

  it('rejects invalid JSON bodies with 400', async () => {
    const reply = await api.client.request('PATCH', `${THERMOSTATS}/${api.thermostatId}/settings`, {
      token: api.token,
      raw: '{nope',
      headers: { 'content-type': 'application/json' },
    });
    expectError(reply, 400, 'invalid_json');
  });
});
