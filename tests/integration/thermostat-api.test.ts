import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { changedNothing, describeServiceError } from '@/lib/service/errors';
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

// The typed service client against the sandbox over HTTP: every endpoint, retries, 429,
// timeouts, refresh after a 401, rejection of malformed answers, and writes whose answers are
// lost (read back and reported as the read shows).
let sandbox: RunningSandbox;
let handle: DatabaseHandle;
let orgId: string;
let demo: { thermostatId: string; buildingId: string }[];
let otherThermostat: string;
let buildings: string[];
const control = (method: string, route: string, body?: unknown) =>
  controlOf(sandbox, method, route, body);
const STATUS = 'GET /api/v2/thermostats/:id/status';

const failure = serviceFailure;

beforeAll(async () => {
  // A read waits out a Retry-After only within its deadline (1.5 times this): 1 s must fit.
  sandbox = await startServiceForTests({ SERVICE_TIMEOUT_MS: '1000' });
  handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
  const owner = await connectedOwner(sandbox);
  orgId = owner.orgId;
  const portfolio = await control('GET', '/portfolio?user=demo');
  demo = portfolio.thermostats;
  buildings = portfolio.buildings.map((b: { buildingId: string }) => b.buildingId);
  otherThermostat = (await control('GET', '/portfolio?user=other')).thermostats[0].thermostatId;
});
afterAll(async () => {
  await handle?.close();
  await sandbox?.close();
});
beforeEach(async () => {
  await control('DELETE', '/faults');
  await control('DELETE', '/calls');
});

const first = () => demo[0]?.thermostatId ?? '';
// Each fault test fails a thermostat of its own: a thermostat's circuit breaker stays open for
// a while after it, and would fail the next test's calls at once.
const faulty = (n: number) => demo[20 + n]?.thermostatId ?? '';

describe('thermostat service client', () => {
  it('reads a status record with both setpoints', async () => {
    const status = await api.getStatus({ orgId, thermostatId: first() });
    expect(status.setPoint.desiredCool - status.setPoint.desiredHeat).toBeGreaterThanOrEqual(2);
    expect(typeof status.isResidentMode).toBe('boolean');
    // In Setpoint's words: connected, what runs, the comfort setting by name.
    const device = await control('GET', `/thermostats/${first()}`);
    expect(status).toMatchObject({
      connected: device.connected,
      hvacMode: device.hvacMode,
      comfortSetting: expect.any(String),
      runningEquipment: expect.any(Array),
    });
  });

  it('covers schedule, comfort settings, settings, alerts and access control', async () => {
    const thermostatId = first();
    const schedule = await api.getSchedule({ orgId, thermostatId });
    expect(schedule.days).toHaveLength(7);

    const created = await api.createComfortSetting({
      orgId,
      thermostatId,
      setting: {
        name: 'Test Holiday',
        desiredHeat: 63,
        desiredCool: 81,
        fanHeat: 'auto',
        fanCool: 'on',
      },
    });
    const ref = created.answer?.comfortSettingRef ?? '';
    expect(ref).toMatch(/^smart\d+$/);
    const renamed = await api.updateComfortSetting({
      orgId,
      thermostatId,
      comfortSettingRef: ref,
      changes: { name: 'Test Winter' },
    });
    expect(renamed.answer).toMatchObject({ name: 'Test Winter', comfortSettingRef: ref });
    // Slots 2 and 3 (01:00 to 02:00): sent as "01:00" to "02:00", the end excluded.
    await api.updateSchedule({
      orgId,
      thermostatId,
      range: { days: ['monday'], firstSlot: 2, lastSlot: 3, comfortSettingRef: ref },
    });
    const week = await api.getSchedule({ orgId, thermostatId });
    const monday = week.days.find((day) => day.day === 'monday')?.blocks ?? [];
    expect(monday.slice(1, 5)).toEqual([monday[1], ref, ref, monday[4]]);
    expect(monday[1]).not.toBe(ref);
    expect(monday[4]).not.toBe(ref);
    // The last slot of a day (23:30-24:00), sent with the end of the day as "23:59".
    await api.updateSchedule({
      orgId,
      thermostatId,
      range: { days: ['sunday'], firstSlot: 46, lastSlot: 47, comfortSettingRef: ref },
    });
    const sunday = (await api.getSchedule({ orgId, thermostatId })).days.find(
      (day) => day.day === 'sunday',
    );
    expect(sunday?.blocks.slice(45)).toEqual([sunday?.blocks[45], ref, ref]);
    const inUse = await failure(
      api.deleteComfortSetting({ orgId, thermostatId, comfortSettingRef: ref }),
    );
    expect(inUse.kind).toBe('validation');
    expect(Object.keys(inUse.fieldErrors)).toContain('comfortSettingRef');

    const settings = await api.updateSettings({
      orgId,
      thermostatId,
      changes: { fanMinimumOnTime: 15, holdAction: '4hour' },
    });
    expect(settings.answer).toMatchObject({ fanMinimumOnTime: 15, holdAction: '4hour' });
    expect((await api.getSettings({ orgId, thermostatId })).fanMinimumOnTime).toBe(15);

    const alerts = await api.getAlertSettings({ orgId, thermostatId });
    expect(alerts).not.toHaveProperty('acMaintenanceReminder');
    const access = await api.updateAccessControl({
      orgId,
      thermostatId,
      changes: { enabled: true, passcode: '0420' },
    });
    expect(access.answer).toMatchObject({ enabled: true, passcodeSet: true });
    expect(JSON.stringify(access)).not.toContain('0420');
  });

  it('creates a thermostat in a building and moves it to another', async () => {
    const [from, to] = buildings;
    if (!from || !to) throw new Error('the demo fixture has several buildings');
    const created = await api.createThermostat({
      orgId,
      buildingId: from,
      thermostat: { isResidentMode: true, name: 'Unit 999' },
    });
    // The service answers with a summary of it (not its status).
    expect(created.answer).toMatchObject({ buildingId: from, name: 'Unit 999' });
    const thermostatId = created.answer?.thermostatId ?? '';
    expect(thermostatId).toMatch(/^\d{12}$/);
    const moved = await api.moveThermostat({ orgId, thermostatId, buildingId: to });
    expect(moved.answer?.buildingId).toBe(to);
    expect((await control('GET', `/thermostats/${thermostatId}`)).buildingId).toBe(to);
  });

  it('updates up to 25 thermostats in one bulk request, with a result for each', async () => {
    const ids = demo.slice(0, 3).map((t) => t.thermostatId);
    const result = await api.bulkUpdateSettings({
      orgId,
      thermostatIds: [...ids, otherThermostat],
      changes: { holdAction: 'indefinite' },
    });
    expect(result.results.map((r) => r.thermostatId)).toEqual([...ids, otherThermostat]);
    expect(result.results.slice(0, 3).map((item) => item.status)).toEqual([
      'success',
      'success',
      'success',
    ]);
    expect(result.results.at(-1)).toMatchObject({ status: 'error', code: 'thermostat_not_found' });
  });

  it("returns field errors when the service refuses values, and not_found for another account's thermostat", async () => {
    const invalid = await failure(
      api.updateSettings({
        orgId,
        thermostatId: first(),
        changes: { heatRange: { min: 70, max: 60 } },
      }),
    );
    expect(invalid.kind).toBe('validation');
    expect(Object.keys(invalid.fieldErrors).join()).toMatch(/heatRange/);
    expect((await failure(api.getStatus({ orgId, thermostatId: otherThermostat }))).kind).toBe(
      'not_found',
    );
  });

  it('retries a read through 5xx answers, with backoff', async () => {
    await control('PUT', '/faults', { faults: [{ endpoint: STATUS, kind: 503, count: 2 }] });
    const status = await api.getStatus({ orgId, thermostatId: faulty(0) });
    expect(typeof status.isResidentMode).toBe('boolean');
    expect(await callCount(sandbox, STATUS)).toBe(3);
  });

  it('gives up on a read after three failed attempts', async () => {
    await control('PUT', '/faults', { faults: [{ endpoint: STATUS, kind: 500 }] });
    expect((await failure(api.getStatus({ orgId, thermostatId: faulty(1) }))).kind).toBe(
      'unavailable',
    );
    expect(await callCount(sandbox, STATUS)).toBe(3);
  });

  it('never retries a write: it reads it back, and says what the read shows', async () => {
    const key = 'PATCH /api/v2/thermostats/:id/settings';
    const thermostatId = faulty(7);
    const before = (await api.getSettings({ orgId, thermostatId })).fanMinimumOnTime;
    const wanted = before === 5 ? 10 : 5;
    await control('PUT', '/faults', { faults: [{ endpoint: key, kind: 503, count: 1 }] });
    const error = await failure(
      api.updateSettings({ orgId, thermostatId, changes: { fanMinimumOnTime: wanted } }),
    );
    // A 503 may have been applied: read back, it was not.
    expect(error.kind).toBe('not_applied');
    expect(await callCount(sandbox, key)).toBe(1);
    expect(await callCount(sandbox, 'GET /api/v2/thermostats/:id/settings')).toBe(2);
  });

  it('honours Retry-After on a 429 for a read, and reports it for a write', async () => {
    await control('PUT', '/faults', { faults: [{ endpoint: STATUS, kind: 429, count: 1 }] });
    const started = Date.now();
    await api.getStatus({ orgId, thermostatId: faulty(2) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(await callCount(sandbox, STATUS)).toBe(2);

    const key = 'PATCH /api/v2/thermostats/:id/residentMode';
    await control('PUT', '/faults', { faults: [{ endpoint: key, kind: 429, count: 1 }] });
    const limited = await failure(
      api.setResidentMode({ orgId, thermostatId: first(), isResidentMode: true }),
    );
    expect(limited).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 1 });
  });

  it('times out a hanging call and a dropped connection, as unavailable', async () => {
    await control('PUT', '/faults', { faults: [{ endpoint: STATUS, kind: 'timeout' }] });
    expect((await failure(api.getStatus({ orgId, thermostatId: faulty(3) }))).kind).toBe(
      'unavailable',
    );
    await control('PUT', '/faults', { faults: [{ endpoint: STATUS, kind: 'drop' }] });
    expect((await failure(api.getStatus({ orgId, thermostatId: faulty(4) }))).kind).toBe(
      'unavailable',
    );
  });

  it('rejects a malformed answer instead of passing it on', async () => {
    await control('PUT', '/faults', {
      faults: [{ endpoint: STATUS, kind: 'malformed', count: 1 }],
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect((await failure(api.getStatus({ orgId, thermostatId: faulty(5) }))).kind).toBe(
        'invalid_response',
      );
      // Said once, with the endpoint and the field that failed; never a token or the values.
      const lines = warn.mock.calls.map((call) => String(call[0]));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^\[setpoint\] service GET \/api\/v2\/thermostats\/:id\/status answered 200 with something Setpoint could not read at isResidentMode: /,
      );
      expect(lines[0]).not.toMatch(/hot|Bearer|access_token/i);
    } finally {
      warn.mockRestore();
    }
  });

  it('refreshes once and retries when the service says the access token has expired', async () => {
    await control('POST', '/clock/advance', { seconds: 3601 });
    try {
      const before = await callCount(sandbox, 'POST /token');
      const statuses = await Promise.all(
        demo.slice(0, 5).map((t) => api.getStatus({ orgId, thermostatId: t.thermostatId })),
      );
      expect(statuses).toHaveLength(5);
      expect((await callCount(sandbox, 'POST /token')) - before).toBe(1);
    } finally {
      await control('DELETE', '/clock');
    }
  });

  it('at expiry, a burst of 100 reads refreshes once and resends only the calls in flight', async () => {
    // As in production: 80 ms per call and the service's rate limits.
    await control('PATCH', '/knobs', { rateLimit: 'production', latencyMs: 80 });
    const refusedBefore = (await control('GET', '/injected')).injected.rate_limited ?? 0;
    // Past the expiry of any token issued by the tests before, at whatever clock.
    await control('POST', '/clock/advance', { seconds: 4 * 3600 });
    try {
      const before = await callCount(sandbox, 'POST /token');
      const statuses = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          api.getStatus({ orgId, thermostatId: demo[i % 20]?.thermostatId ?? '' }),
        ),
      );
      expect(statuses).toHaveLength(100);
      expect((await callCount(sandbox, 'POST /token')) - before).toBe(1);
      // Calls queued behind the first 401s waited for the new token instead of sending the old
      // one (before, every call was sent twice: 200). Only calls already in flight, or taking
      // their token in the same moment, are resent; how many depends on timing.
      expect(await callCount(sandbox, STATUS)).toBeLessThan(150);
      // Paced under the service's fixed windows: not one call refused for the rate.
      const { injected } = await control('GET', '/injected');
      expect((injected.rate_limited ?? 0) - refusedBefore).toBe(0);
    } finally {
      await control('DELETE', '/clock');
      await control('PATCH', '/knobs', { rateLimit: null, latencyMs: 0 });
    }
  });

  describe('a write whose answer is lost', () => {
    const RESIDENT = 'PATCH /api/v2/thermostats/:id/residentMode';
    const lost = (endpoint: string, kind: string | number, thermostatId?: string) =>
      control('PUT', '/faults', {
        faults: [
          { endpoint, kind, count: 1, applied: true, ...(thermostatId ? { thermostatId } : {}) },
        ],
      });

    it.each([
      ['drop', 'drop'],
      ['timeout', 'timeout'],
      ['503', 503],
      ['garbled 200', 'garbled'],
    ] as const)('applied, answer %s: read back and reported applied', async (_name, kind) => {
      const thermostatId =
        demo[30 + ['drop', 'timeout', 503, 'garbled'].indexOf(kind)]?.thermostatId ?? '';
      const was = (await api.getStatus({ orgId, thermostatId })).isResidentMode;
      await lost(RESIDENT, kind);
      const written = await api.setResidentMode({
        orgId,
        thermostatId,
        isResidentMode: !was,
      });
      expect(written.readBack).toBe(true);
      expect((await api.getStatus({ orgId, thermostatId })).isResidentMode).toBe(!was);
      expect(await callCount(sandbox, RESIDENT)).toBe(1);
    });

    it('answered 204 with no body: applied, no read needed', async () => {
      const thermostatId = demo[34]?.thermostatId ?? '';
      const written = await api.setResidentMode({ orgId, thermostatId, isResidentMode: true });
      expect(written).toEqual({ answer: null, readBack: false });
      expect(await callCount(sandbox, STATUS)).toBe(0);
    });

    it('a write that cannot be read back (access control, a move) is reported as perhaps applied', async () => {
      const thermostatId = demo[29]?.thermostatId ?? '';
      await lost('PATCH /api/v2/thermostats/:id/accessControl', 'drop');
      const access = await failure(
        api.updateAccessControl({ orgId, thermostatId, changes: { enabled: false } }),
      );
      expect(access.kind).toBe('unconfirmed');
      const [, to] = buildings;
      await lost('PATCH /api/v2/thermostats/:id', 'garbled');
      const move = await failure(api.moveThermostat({ orgId, thermostatId, buildingId: to ?? '' }));
      expect(move.kind).toBe('unconfirmed');
      // It did move: the sandbox shows it, and Setpoint did not say it had not.
      expect((await control('GET', `/thermostats/${thermostatId}`)).buildingId).toBe(to);
    });

    it('a bulk request whose answer is lost reports each thermostat as its settings show', async () => {
      const ids = demo.slice(13, 16).map((t) => t.thermostatId);
      await lost('PATCH /api/v2/thermostats/settings', 'drop');
      const result = await api.bulkUpdateSettings({
        orgId,
        thermostatIds: [...ids, otherThermostat],
        changes: { fanMinimumOnTime: 35 },
      });
      expect(result.results.map((item) => item.status)).toEqual([
        'success',
        'success',
        'success',
        'error',
      ]);
      expect(result.results[0]).toMatchObject({ readBack: true });
      for (const thermostatId of ids) {
        expect((await api.getSettings({ orgId, thermostatId })).fanMinimumOnTime).toBe(35);
      }
    });

    it.each([
      ['schedule range', 'PATCH /api/v2/thermostats/:id/schedule'],
      ['configuration', 'PATCH /api/v2/thermostats/:id/settings'],
      ['alert settings', 'PATCH /api/v2/thermostats/:id/alertSettings'],
      ['comfort setting update', 'PATCH /api/v2/thermostats/:id/comfortSettings'],
    ] as const)(
      '%s: applied with its answer lost, read back and reported applied',
      async (what, endpoint) => {
        const thermostatId = demo[27]?.thermostatId ?? '';
        const on = { orgId, thermostatId };
        await lost(endpoint, 'garbled');
        let written: { readBack: boolean };
        if (what === 'schedule range') {
          const ref = (await api.listComfortSettings(on))[1]?.comfortSettingRef ?? '';
          written = await api.updateSchedule({
            ...on,
            range: { days: ['saturday'], firstSlot: 20, lastSlot: 21, comfortSettingRef: ref },
          });
          const saturday = (await api.getSchedule(on)).days.find((day) => day.day === 'saturday');
          expect(saturday?.blocks.slice(20, 22)).toEqual([ref, ref]);
        } else if (what === 'configuration') {
          written = await api.updateSettings({ ...on, changes: { fanMinimumOnTime: 25 } });
          expect((await api.getSettings(on)).fanMinimumOnTime).toBe(25);
        } else if (what === 'alert settings') {
          written = await api.updateAlertSettings({
            ...on,
            changes: { lowHumidityAlert: { enabled: true, value: 22 } },
          });
          expect((await api.getAlertSettings(on)).lowHumidityAlert).toEqual({
            enabled: true,
            value: 22,
          });
        } else {
          const setting = (await api.listComfortSettings(on))[0];
          written = await api.updateComfortSetting({
            ...on,
            comfortSettingRef: setting?.comfortSettingRef ?? '',
            changes: { fanCool: setting?.fanCool === 'on' ? 'auto' : 'on' },
          });
        }
        expect(written.readBack).toBe(true);
      },
    );

    it('a write answered with a 5xx before it was applied is read back: not taken effect', async () => {
      const on = { orgId, thermostatId: demo[27]?.thermostatId ?? '' };
      const created = await api.createComfortSetting({
        ...on,
        setting: {
          name: 'Spare',
          desiredHeat: 62,
          desiredCool: 82,
          fanHeat: 'auto',
          fanCool: 'auto',
        },
      });
      const comfortSettingRef = created.answer?.comfortSettingRef ?? '';
      // The fault answers before the delete happens.
      await control('PUT', '/faults', {
        faults: [
          { endpoint: 'DELETE /api/v2/thermostats/:id/comfortSettings/:ref', kind: 500, count: 1 },
        ],
      });
      const error = await failure(api.deleteComfortSetting({ ...on, comfortSettingRef }));
      expect(error.kind).toBe('not_applied');
      expect(changedNothing(error)).toBe(false);
      expect(describeServiceError(error)).toMatch(/has not taken effect.*before trying again/);
      expect(await api.findComfortSetting({ ...on, comfortSettingRef })).toBeDefined();
    });

    it('creating a thermostat by its serial, its answer lost: read back by that serial', async () => {
      const [building] = buildings;
      const serial = '612000000001';
      await lost('POST /api/v2/thermostats/:buildingId/thermostats', 'drop');
      const written = await api.createThermostat({
        orgId,
        buildingId: building ?? '',
        thermostat: { isResidentMode: true, name: 'Lost Create', thermostatId: serial },
      });
      expect(written).toEqual({ answer: null, readBack: true });
      // Without a serial, nothing can find it: perhaps created, and said so.
      await lost('POST /api/v2/thermostats/:buildingId/thermostats', 'drop');
      const unknown = await failure(
        api.createThermostat({
          orgId,
          buildingId: building ?? '',
          thermostat: { isResidentMode: true, name: 'Lost Create 2' },
        }),
      );
      expect(unknown.kind).toBe('unconfirmed');
    });

    it('a comfort setting created with its answer lost is found by its name, with its ref', async () => {
      const thermostatId = demo[28]?.thermostatId ?? '';
      await lost('POST /api/v2/thermostats/:id/comfortSettings', 'drop');
      const written = await api.createComfortSetting({
        orgId,
        thermostatId,
        setting: {
          name: 'Lost Answer',
          desiredHeat: 64,
          desiredCool: 80,
          fanHeat: 'auto',
          fanCool: 'auto',
        },
      });
      expect(written.readBack).toBe(true);
      expect(written.answer?.comfortSettingRef).toMatch(/^smart\d+$/);
    });
  });
});
