import { describe, expect, it } from 'vitest';
import { expectFail, THERMOSTATS, withApiSession } from '../helpers';

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
      expect(reply.status).toBe(401);
      expect(reply.body).toMatchObject({ status: 'error', code });
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
    expect(reply.status).toBe(403);
    expect(reply.body.code).toBe('insufficient_scope');
  });
});

describe('isolation between accounts', () => {
  it("another account's thermostat is 404 for every read and write, like an unknown id", async () => {
    const foreign = api.other.thermostats[0]?.thermostatId as string;
    for (const resource of ['status', 'schedule', 'comfortSettings', 'settings', 'alertSettings']) {
      const reply = await api.get(`${THERMOSTATS}/${foreign}/${resource}`);
      expect(reply.status, resource).toBe(404);
      expect(reply.body.code).toBe('thermostat_not_found');
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
    expect(created.status).toBe(404);
    expect(created.body.code).toBe('building_not_found');
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
    expect(reply.body.data.results[1]).toMatchObject({
      thermostatId: foreign,
      status: 'error',
      code: 'thermostat_not_found',
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
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: 'error', code: 'not_found' });
    const wrongMethod = await api.delete(`${THERMOSTATS}/${api.thermostatId}/status`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
  });

  it('rejects invalid JSON bodies with 400', async () => {
    const reply = await api.client.request('PATCH', `${THERMOSTATS}/${api.thermostatId}/settings`, {
      token: api.token,
      raw: '{nope',
      headers: { 'content-type': 'application/json' },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('invalid_json');
  });
});
