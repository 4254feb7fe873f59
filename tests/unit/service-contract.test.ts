import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { confirmWrite } from '@/lib/service/confirm';
import { changedNothing, describeServiceError, ServiceError } from '@/lib/service/errors';
import type { ScheduleRange } from '@/lib/service/schemas';
import { accessControlSchema } from '@/lib/service/wire/access-control';
import { alertSettingsSchema } from '@/lib/service/wire/alert-settings';
import { failureOf, readAnswer, writeAnswer } from '@/lib/service/wire/answers';
import { comfortSettingsSchema } from '@/lib/service/wire/comfort-settings';
import {
  END_OF_DAY,
  fromWireRange,
  scheduleSchema,
  toWireRange,
} from '@/lib/service/wire/schedule';
import { bulkResultSchema, settingsSchema } from '@/lib/service/wire/settings';
import { statusSchema } from '@/lib/service/wire/status';
import { thermostatSummarySchema } from '@/lib/service/wire/thermostat-summary';

// The client against every answer shape the production v2 reference shows (fixtures in
// ./fixtures/service), each read the way the request function reads it.

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/service/${name}`, import.meta.url), 'utf8');
const json = (name: string): unknown => JSON.parse(fixture(name));
const quiet = () => {};

/** What a failed call throws. */
function thrown(run: () => unknown): ServiceError {
  try {
    run();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a ServiceError');
}

describe('the status record', () => {
  it('reads the production record into Setpoint’s words', () => {
    const status = readAnswer(statusSchema, 200, fixture('status-production.json'), quiet);
    expect(status).toEqual({
      isResidentMode: true,
      setPoint: { desiredHeat: 69, desiredCool: 76 },
      hvacMode: 'auto',
      connected: true,
      temperature: 71.25,
      humidity: 41,
      comfortSetting: 'Home',
      heatCoolMinDelta: 5,
      runningEquipment: ['heatPump', 'auxHeat1', 'fan'],
      heatRange: { min: 45, max: 79 },
      coolRange: { min: 65, max: 92 },
    });
  });

  it('needs only what the spec promises: resident mode and both setpoints', () => {
    const status = readAnswer(statusSchema, 200, fixture('status-minimal.json'), quiet);
    expect(status).toEqual({
      isResidentMode: false,
      setPoint: { desiredHeat: 62.5, desiredCool: 81 },
      hvacMode: null,
      connected: null,
      temperature: null,
      humidity: null,
      comfortSetting: null,
      heatCoolMinDelta: 5,
      runningEquipment: null,
      heatRange: null,
      coolRange: null,
    });
  });

  it('ignores unknown fields, keeps unknown values as they are, and reads a wrong type as absent', () => {
    const status = readAnswer(statusSchema, 200, fixture('status-unknown.json'), quiet);
    expect(status).toMatchObject({
      isResidentMode: true,
      hvacMode: 'emergencyHeat',
      connected: false,
      temperature: null,
      humidity: null,
      comfortSetting: 'Office Hours',
      heatCoolMinDelta: 3,
      // Known stages first, in Setpoint's order; one the service added since, after them.
      runningEquipment: ['auxHeat2', 'geothermal'],
    });
    expect(Object.keys(status)).not.toContain('lastSeen');
    expect(Object.keys(status)).not.toContain('vacationHold');
    expect(status.setPoint).toEqual({ desiredHeat: 68, desiredCool: 78 });
  });

  it('refuses a record without what the spec promises, saying where, and keeps nothing of it', () => {
    const told = vi.fn();
    const error = thrown(() => readAnswer(statusSchema, 200, fixture('status-broken.json'), told));
    expect(error).toMatchObject({ kind: 'invalid_response', status: 200 });
    expect(told).toHaveBeenCalledTimes(1);
    expect(told.mock.calls[0]?.[0]?.path).toEqual(['isResidentMode']);
    expect(describeServiceError(error)).toBe(
      'The thermostat service sent an answer Setpoint could not read.',
    );
  });
});

describe('the answers to writes', () => {
  it('takes 204 with no body (resident mode) as applied', () => {
    expect(writeAnswer(statusSchema, 204, '', quiet)).toBeNull();
    expect(writeAnswer(statusSchema, 200, '', quiet)).toBeNull();
    expect(writeAnswer(statusSchema, 200, '{"status":"success"}', quiet)).toBeNull();
  });

  it('takes any success envelope as applied, its data only where it can be read', () => {
    const told = vi.fn();
    expect(
      writeAnswer(settingsSchema, 200, '{"status":"success","data":{"ok":true}}', told),
    ).toBeNull();
    expect(told).toHaveBeenCalledTimes(1);
    expect(
      writeAnswer(thermostatSummarySchema, 201, fixture('thermostat-summary.json'), quiet),
    ).toEqual({
      thermostatId: '612345678901',
      buildingId: '5f0c2a9e8d1b4c3a2e1f0a9b',
      name: 'Unit 4B',
      modes: ['heat', 'cool', 'auto', 'off'],
    });
  });

  it('leaves a 2xx that is not an envelope unsettled: it may have been applied', () => {
    for (const body of [fixture('garbled-502.txt'), '{"ok":true}', '{"status":"succ']) {
      const error = thrown(() => writeAnswer(settingsSchema, 200, body, quiet));
      expect(error).toMatchObject({ kind: 'invalid_response', status: 200 });
      expect(changedNothing(error)).toBe(false);
    }
    // A read of it is simply unreadable.
    const read = thrown(() => readAnswer(settingsSchema, 200, fixture('garbled-502.txt'), quiet));
    expect(read.kind).toBe('invalid_response');
  });

  it('reads a create’s or a move’s summary with any of its fields missing', () => {
    const summary = writeAnswer(
      thermostatSummarySchema,
      200,
      '{"status":"success","data":{"buildingId":"x","hvacModes":"heat"}}',
      quiet,
    );
    expect(summary).toEqual({ thermostatId: null, buildingId: 'x', name: null, modes: null });
  });
});

describe('refusals and errors', () => {
  it('reads a fail envelope as the reasons by field, a message object as its words', () => {
    const error = failureOf(422, json('fail-envelope.json'), null);
    expect(error.kind).toBe('validation');
    expect(error.fieldErrors).toEqual({
      'heatRange.min': 'Must be between 45 and 79 F.',
      lastTimeBlock: 'Must be after firstTimeBlock.',
    });
    expect(changedNothing(error)).toBe(true);
  });

  it('reads an error envelope with a message object and an integer code', () => {
    const error = failureOf(409, json('error-envelope.json'), null);
    expect(error).toMatchObject({
      kind: 'conflict',
      status: 409,
      code: 'thermostat_offline',
      message: 'The thermostat is offline; the change cannot be delivered.',
    });
    expect(changedNothing(error)).toBe(true);
    expect(describeServiceError(error)).toBe(
      'The service refused: The thermostat is offline; the change cannot be delivered.',
    );
  });

  it('reads an error envelope with a string message and a word for its code', () => {
    const error = failureOf(404, json('error-envelope-string.json'), null);
    expect(error).toMatchObject({
      kind: 'not_found',
      code: 'thermostat_not_found',
      message: 'Thermostat not found.',
    });
  });

  it('reads a fail envelope on a 400 as on a 422, and an answer without an envelope by its status', () => {
    const refused = failureOf(400, { status: 'fail', data: { passcode: 'Required.' } }, null);
    expect(refused).toMatchObject({ kind: 'validation', fieldErrors: { passcode: 'Required.' } });
    // Not an envelope at all (a proxy's page): the status decides.
    expect(failureOf(404, null, null)).toMatchObject({ kind: 'not_found', code: null });
    expect(failureOf(502, '<html>', null)).toMatchObject({ kind: 'unavailable' });
  });

  it('counts a 5xx, a timeout or a dropped connection as perhaps applied; a 4xx as refused', () => {
    expect(changedNothing(failureOf(503, null, null))).toBe(false);
    expect(changedNothing(failureOf(500, { status: 'error', message: {}, code: 500 }, null))).toBe(
      false,
    );
    expect(changedNothing(new ServiceError('unavailable', { message: 'timeout' }))).toBe(false);
    expect(changedNothing(failureOf(429, null, 1))).toBe(true);
    expect(changedNothing(new ServiceError('rate_limited', { notSent: true }))).toBe(true);
    expect(changedNothing(failureOf(401, null, null))).toBe(true);
  });
});

describe('configuration, bulk, alerts, comfort settings, schedule, access control', () => {
  it('reads the consumer API’s hold action names as the production values they mean', () => {
    expect(readAnswer(settingsSchema, 200, fixture('settings-consumer-names.json'), quiet)).toEqual(
      {
        heatRange: { min: 45, max: 79 },
        coolRange: { min: 65, max: 92 },
        holdAction: '2hour',
        fanMinimumOnTime: 10,
      },
    );
    // Each of the older names, as the value it means.
    const consumer = json('settings-consumer-names.json') as { data: Record<string, unknown> };
    for (const [old, meant] of [
      ['nextPeriod', 'nextTransition'],
      ['useEndTime2hour', '2hour'],
      ['useEndTime4hour', '4hour'],
    ]) {
      const body = JSON.stringify({
        status: 'success',
        data: { ...consumer.data, holdAction: old },
      });
      expect(readAnswer(settingsSchema, 200, body, quiet).holdAction).toBe(meant);
    }
    // One the service added since is kept, to be shown as it is.
    const unknown = readAnswer(settingsSchema, 200, fixture('settings-unknown-hold.json'), quiet);
    expect(unknown.holdAction).toBe('untilMidnight');
    expect(unknown).not.toHaveProperty('fanSpeed');
  });

  it('reads a bulk answer per thermostat, an unknown item status never as applied', () => {
    const result = readAnswer(bulkResultSchema, 200, fixture('bulk-result.json'), quiet);
    expect(result.results).toEqual([
      { thermostatId: '318324702718', status: 'success' },
      {
        thermostatId: '318324702719',
        status: 'fail',
        reasons: { heatRange: 'Comfort setting smart1 heats to 74 F, outside the new range.' },
      },
      {
        thermostatId: '318324702720',
        status: 'error',
        code: 'thermostat_offline',
        message: 'The thermostat is offline.',
      },
      { thermostatId: '318324702721', status: 'error', code: null, message: null },
    ]);
  });

  it('reads alert settings without the removed AC reminder or a malformed alert', () => {
    const alerts = readAnswer(alertSettingsSchema, 200, fixture('alert-settings.json'), quiet);
    expect(alerts).toEqual({
      hvacMaintenanceReminder: {
        enabled: true,
        lastMaintenanceDate: '2026-05-01',
        maintenanceInterval: 6,
        maintenanceIntervalUnits: 'month',
        nextReminderDate: '2026-11-01',
      },
      lowTemperatureAlert: { enabled: true, value: 45 },
    });
  });

  it('reads one comfort setting as a list of one, a fan value it does not know as it is', () => {
    const settings = readAnswer(
      comfortSettingsSchema,
      200,
      fixture('comfort-setting-single.json'),
      quiet,
    );
    expect(settings).toEqual([
      {
        comfortSettingRef: 'smart1',
        name: 'Quiet Hours',
        desiredHeat: 66,
        desiredCool: 78,
        fanHeat: 'auto',
        fanCool: 'circulate',
      },
    ]);
  });

  it('reads the week in whatever order its days come', () => {
    const week = readAnswer(scheduleSchema, 200, fixture('schedule.json'), quiet);
    expect(week.days.map((day) => day.day)).toEqual(['tuesday', 'monday']);
    expect(week.days[1]?.blocks[14]).toBe('home');
    // Day names in any case (the reference does not show their spelling).
    const capitalised = fixture('schedule.json').replace('"monday"', '"Monday"');
    expect(readAnswer(scheduleSchema, 200, capitalised, quiet).days[1]?.day).toBe('monday');
  });

  it('reads access control as whether a passcode is set, never more', () => {
    expect(
      accessControlSchema.parse({ enabled: true, passcode: '****', settings: { schedule: true } }),
    ).toEqual({
      enabled: true,
      passcodeSet: true,
      settings: {
        temperature: false,
        systemMode: false,
        schedule: true,
        vacation: false,
        other: false,
      },
    });
    expect(accessControlSchema.parse({ enabled: false, passcode: null }).passcodeSet).toBe(false);
  });
});

describe('schedule ranges on the wire', () => {
  const range = (firstSlot: number, lastSlot: number): ScheduleRange => ({
    days: ['monday', 'friday'],
    firstSlot,
    lastSlot,
    comfortSettingRef: 'smart2',
  });

  it('names a range by times of day, the end excluded, "23:59" for the end of the day', () => {
    expect(toWireRange(range(14, 35))).toEqual({
      days: ['monday', 'friday'],
      firstTimeBlock: '07:00',
      lastTimeBlock: '18:00',
      comfortSettingRef: 'smart2',
    });
    // A single slot: 07:00 to 07:30.
    expect(toWireRange(range(14, 14))).toMatchObject({
      firstTimeBlock: '07:00',
      lastTimeBlock: '07:30',
    });
    // The last slot of the day (23:30-24:00), and the whole day.
    expect(toWireRange(range(47, 47))).toMatchObject({
      firstTimeBlock: '23:30',
      lastTimeBlock: END_OF_DAY,
    });
    expect(toWireRange(range(0, 47))).toMatchObject({
      firstTimeBlock: '00:00',
      lastTimeBlock: '23:59',
    });
    expect(toWireRange(range(0, 0))).toMatchObject({
      firstTimeBlock: '00:00',
      lastTimeBlock: '00:30',
    });
  });

  it('refuses what is not a range of slots', () => {
    expect(() => toWireRange(range(5, 4))).toThrow(RangeError);
    expect(() => toWireRange(range(-1, 3))).toThrow(RangeError);
    expect(() => toWireRange(range(0, 48))).toThrow(RangeError);
  });

  it('maps any run of slots to a pair of times and back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 47 }), fc.integer({ min: 0, max: 47 }), (a, b) => {
        const [firstSlot, lastSlot] = a <= b ? [a, b] : [b, a];
        const wire = toWireRange(range(firstSlot, lastSlot));
        expect(wire.firstTimeBlock).toMatch(/^([01]\d|2[0-3]):(00|30)$/);
        expect(wire.lastTimeBlock).toMatch(/^(([01]\d|2[0-3]):(00|30)|23:59)$/);
        // The start is the first slot's; the end, excluded, the start of the slot after the
        // last (or the day's end), worked out here by minutes, not by the code under test.
        const clock = (minutes: number) =>
          `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${minutes % 60 === 0 ? '00' : '30'}`;
        expect(wire.firstTimeBlock).toBe(clock(firstSlot * 30));
        expect(wire.lastTimeBlock).toBe(lastSlot === 47 ? END_OF_DAY : clock((lastSlot + 1) * 30));
        expect(fromWireRange(wire)).toEqual(range(firstSlot, lastSlot));
      }),
    );
  });

  it('reads back only well-formed times', () => {
    const wire = { days: ['monday' as const], comfortSettingRef: 'home' };
    for (const [first, last] of [
      ['07:00', '07:00'],
      ['07:30', '07:00'],
      ['07:15', '08:00'],
      ['7:00', '08:00'],
      ['23:30', '24:00'],
      ['00:00', '00:00'],
    ]) {
      expect(
        fromWireRange({ ...wire, firstTimeBlock: first ?? '', lastTimeBlock: last ?? '' }),
      ).toBeNull();
    }
  });
});

describe('a write whose answer is lost', () => {
  const lost = () => Promise.reject(new ServiceError('unavailable', { message: 'network' }));
  const refused = () => Promise.reject(new ServiceError('validation', { status: 422 }));

  it('is read back, and reported as the read shows', async () => {
    await expect(confirmWrite('x', lost, async () => ({ applied: true }))).resolves.toEqual({
      answer: null,
      readBack: true,
    });
    const notApplied = await confirmWrite('x', lost, async () => ({ applied: false })).catch(
      (error: ServiceError) => error,
    );
    expect(notApplied).toMatchObject({ kind: 'not_applied' });
    // Not shown at once is not "nothing was changed": a change may take a moment to show.
    expect(changedNothing(notApplied)).toBe(false);
    expect(describeServiceError(notApplied)).toMatch(/has not taken effect/);
    const unread = await confirmWrite('x', lost, () => Promise.reject(new Error('down'))).catch(
      (error: ServiceError) => error,
    );
    expect(unread).toMatchObject({ kind: 'unconfirmed' });
    expect(changedNothing(unread)).toBe(false);
    // No read can tell (a move, access control): perhaps applied, and said so.
    const unreadable = await confirmWrite('x', lost, null).catch((error: ServiceError) => error);
    expect(unreadable).toMatchObject({ kind: 'unconfirmed' });
    expect(describeServiceError(unreadable)).toMatch(/may have been applied/);
  });

  it('is not read back when the service refused it, or it was never sent', async () => {
    const readBack = vi.fn(async () => ({ applied: true }));
    await expect(confirmWrite('x', refused, readBack)).rejects.toMatchObject({
      kind: 'validation',
    });
    const budget = () => Promise.reject(new ServiceError('rate_limited', { notSent: true }));
    await expect(confirmWrite('x', budget, readBack)).rejects.toMatchObject({
      kind: 'rate_limited',
    });
    expect(readBack).not.toHaveBeenCalled();
  });
});
