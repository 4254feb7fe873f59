import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { describeServiceError, type ServiceError } from '@/lib/service/errors';
import { BREAKER_COOL_DOWN_MS } from '@/lib/service/resilience';
import * as api from '@/lib/service/resources';
import type { RunningSandbox } from '@/sandbox/src/server';
import { useDatabase } from '../support/database';
import {
  callCount,
  connectedOwner,
  control as controlOf,
  serviceFailure,
  startServiceForTests,
} from '../support/service';

// Issue #17: a persistently failing endpoint, a hanging one and a long Retry-After, counted at
// the sandbox. Its own file: the breakers and the service's "not before" live in the process.
let sandbox: RunningSandbox;
let handle: DatabaseHandle;
let orgId: string;
let ids: string[];
const control = (method: string, route: string, body?: unknown) =>
  controlOf(sandbox, method, route, body);
const STATUS = 'GET /api/v2/thermostats/:id/status';
const SCHEDULE = 'GET /api/v2/thermostats/:id/schedule';

beforeAll(async () => {
  sandbox = await startServiceForTests({ SERVICE_TIMEOUT_MS: '1000' });
  handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
  const owner = await connectedOwner(sandbox);
  orgId = owner.orgId;
  ids = (await control('GET', '/portfolio?user=demo')).thermostats.map(
    (t: { thermostatId: string }) => t.thermostatId,
  );
});
afterAll(async () => {
  await handle?.close();
  await sandbox?.close();
});
beforeEach(async () => {
  await control('DELETE', '/faults');
  await control('DELETE', '/calls');
});

describe('resilience against a failing or busy service', () => {
  it('six views of a thermostat whose status keeps failing send 3 requests, then fail at once until a stated time', async () => {
    const [broken = '', healthy = ''] = ids;
    await control('PUT', '/faults', {
      faults: [{ endpoint: STATUS, kind: 500, thermostatId: broken }],
    });
    const started = Date.now();
    const errors: ServiceError[] = [];
    for (let view = 0; view < 6; view += 1) {
      errors.push(await serviceFailure(api.getStatus({ orgId, thermostatId: broken })));
    }
    expect(errors.map((error) => error.kind)).toEqual(Array(6).fill('unavailable'));
    expect(await callCount(sandbox, STATUS)).toBe(3);
    // The views after the breaker opened say until when Setpoint will not ask again.
    const last = errors.at(-1);
    const retryAt = last?.retryAt?.getTime() ?? 0;
    expect(retryAt).toBeGreaterThan(started + BREAKER_COOL_DOWN_MS - 1000);
    expect(retryAt).toBeLessThanOrEqual(Date.now() + BREAKER_COOL_DOWN_MS);
    const sentence = describeServiceError(last);
    expect(sentence).toMatch(
      /^The thermostat service is not responding right now; Setpoint will not ask it again until \d\d:\d\d:\d\d UTC \(in (29|30) s\)\.$/,
    );
    expect(sentence).toContain(`until ${new Date(retryAt).toISOString().slice(11, 19)} UTC`);
    // Per thermostat: another one, and the same one's other endpoints, are asked as usual.
    expect(await api.getStatus({ orgId, thermostatId: healthy })).toMatchObject({
      isResidentMode: expect.any(Boolean),
    });
    await api.getSchedule({ orgId, thermostatId: broken });
    expect(await callCount(sandbox, SCHEDULE)).toBe(1);
  });

  it('an endpoint failing for every thermostat is left alone after 10 failures in a row', async () => {
    await control('PUT', '/faults', { faults: [{ endpoint: SCHEDULE, kind: 503 }] });
    const views = ids.slice(2, 10);
    for (const thermostatId of views) {
      expect((await serviceFailure(api.getSchedule({ orgId, thermostatId }))).kind).toBe(
        'unavailable',
      );
    }
    // 3 + 3 + 3 attempts, then the 10th failure in a row opens the endpoint's breaker.
    expect(await callCount(sandbox, SCHEDULE)).toBe(10);
    const open = await serviceFailure(api.getSchedule({ orgId, thermostatId: ids[11] ?? '' }));
    expect(open.retryAt).not.toBeNull();
    expect(await callCount(sandbox, SCHEDULE)).toBe(10);
    // Other endpoints are untouched.
    expect(await api.getStatus({ orgId, thermostatId: ids[11] ?? '' })).toMatchObject({
      isResidentMode: expect.any(Boolean),
    });
  });

  it("gives a read's attempts one deadline, not a full timeout each", async () => {
    const hanging = ids[12] ?? '';
    await control('PUT', '/faults', {
      faults: [{ endpoint: STATUS, kind: 'timeout', thermostatId: hanging }],
    });
    const started = Date.now();
    expect((await serviceFailure(api.getStatus({ orgId, thermostatId: hanging }))).kind).toBe(
      'unavailable',
    );
    // SERVICE_TIMEOUT_MS is 1000: one full call, then what is left of 1.5 s (was 3 x 1 s).
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(2300);
    expect(await callCount(sandbox, STATUS)).toBe(2);
  });

  // Last: the service's "not before" then holds every call of this process.
  it('a Retry-After longer than a request can wait: answered at once, and no call before then', async () => {
    // The sandbox's hourly window ends at :00; at :52:30 with no calls left it says 450 s.
    const { now } = await control('GET', '/clock');
    const hour = 60 * 60 * 1000;
    let at = Math.floor(Date.parse(now) / hour) * hour + 52.5 * 60 * 1000;
    if (at > Date.parse(now)) at -= hour;
    await control('PUT', '/clock', { now: new Date(at).toISOString() });
    await control('PATCH', '/knobs', { rateLimit: { perHour: 0 } });
    try {
      const started = Date.now();
      const busy = await serviceFailure(api.getStatus({ orgId, thermostatId: ids[13] ?? '' }));
      expect(Date.now() - started).toBeLessThan(1000);
      expect(busy.kind).toBe('rate_limited');
      const until = busy.retryAt?.getTime() ?? 0;
      expect(until - started).toBeGreaterThan(440_000);
      expect(until - started).toBeLessThan(452_000);
      expect(describeServiceError(busy)).toBe(
        `The thermostat service is busy until ${new Date(until).toISOString().slice(11, 16)} UTC (in 8 min); Setpoint will not ask it again before then.`,
      );
      expect(await callCount(sandbox, STATUS)).toBe(1);

      // Nothing else goes out before then, reads or writes, for any thermostat.
      const read = await serviceFailure(api.getStatus({ orgId, thermostatId: ids[14] ?? '' }));
      const write = await serviceFailure(
        api.updateSettings({
          orgId,
          thermostatId: ids[14] ?? '',
          changes: { fanMinimumOnTime: 5 },
        }),
      );
      for (const error of [read, write]) {
        expect(error).toMatchObject({ kind: 'rate_limited', retryAt: new Date(until) });
      }
      expect((await control('GET', '/calls')).total).toBe(1);
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      await control('PATCH', '/knobs', { rateLimit: null });
      await control('DELETE', '/clock');
    }
  });
});
