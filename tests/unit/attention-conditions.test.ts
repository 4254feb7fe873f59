import { describe, expect, it } from 'vitest';
import {
  type AttentionItem,
  type BandPoint,
  bandBreach,
  breachSince,
  COMFORT_SUSTAIN_MS,
  compareUrgency,
  connectionCondition,
  dateIn,
  type FleetFacts,
  failedWritesCondition,
  maintenanceCondition,
  offlineCondition,
  pendingModeCondition,
  staleAfterMs,
  staleCondition,
  type ThermostatFacts,
  temperatureCondition,
  thermostatConditions,
} from '@/lib/attention/conditions';
import { freshnessLine, spellMinutes } from '@/lib/attention/freshness';
import { attentionHref, pageOf, readAttentionQuery } from '@/lib/attention/query';
import { describeItem, formatDuration, spellDays } from '@/lib/attention/words';
import type { ThermostatStatus } from '@/lib/service/schemas';

const thermostat = { thermostatId: '100000000001', buildingId: 'aaaaaaaaaaaaaaaaaaaaaaaa' };
const NOW = new Date('2026-11-23T12:00:00Z');
const minutes = (n: number) => n * 60_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms);

function status(overrides: Partial<ThermostatStatus> = {}): ThermostatStatus {
  return {
    isResidentMode: true,
    setPoint: { desiredHeat: 70, desiredCool: 76 },
    heatCoolMinDelta: 5,
    hvacMode: 'auto',
    temperature: 72,
    humidity: null,
    connected: true,
    comfortSetting: null,
    runningEquipment: null,
    heatRange: null,
    coolRange: null,
    ...overrides,
  };
}

/** A steady history of one temperature every 5 minutes for `span`, ending before NOW. */
function steady(temperature: number, span: number, extra: Partial<BandPoint> = {}): BandPoint[] {
  const points: BandPoint[] = [];
  for (let t = span; t > 0; t -= minutes(5)) {
    points.push({
      at: ago(t),
      temperature,
      desiredHeat: 70,
      desiredCool: 76,
      hvacMode: 'auto',
      ...extra,
    });
  }
  return points;
}

describe('the comfort band', () => {
  it.each([
    // temperature, heat, cool, mode, breach
    [67, 70, 76, 'auto', null], // exactly 3 °F below: inside
    [66.99, 70, 76, 'auto', 'cold'],
    [79, 70, 76, 'auto', null], // exactly 3 °F above: inside
    [79.01, 70, 76, 'auto', 'hot'],
    [60, 70, 76, 'heat', 'cold'],
    [60, 70, 76, 'cool', 'cold'], // set to cool on a cold night: still too cold
    [85, 70, 76, 'heat', 'hot'],
    [60, 70, 76, 'off', null], // off keeps no band
    [60, 70, 76, null, 'cold'], // mode unknown: the setpoints still say what comfort is
  ] as const)('%s °F against %s–%s in %s: %s', (temperature, heat, cool, mode, expected) => {
    expect(
      bandBreach({
        at: NOW,
        temperature,
        desiredHeat: heat,
        desiredCool: cool,
        hvacMode: mode,
      }),
    ).toBe(expected);
  });

  it('has no breach without a temperature', () => {
    expect(
      bandBreach({
        at: NOW,
        temperature: null,
        desiredHeat: 70,
        desiredCool: 76,
        hvacMode: 'auto',
      }),
    ).toBeNull();
  });

  it('dates a breach from the start of the unbroken run that ends now', () => {
    const history = [
      ...steady(69, minutes(120)).slice(0, 6), // in band, 120..95 min ago
      ...steady(60, minutes(90)), // too cold, 90..5 min ago
    ];
    const latest = { at: NOW, temperature: 60, desiredHeat: 70, desiredCool: 76, hvacMode: 'auto' };
    expect(breachSince(latest, history)).toEqual({
      breach: 'cold',
      since: ago(minutes(90)),
      orEarlier: false,
    });
    // A run that reaches the first point read may have begun earlier.
    expect(breachSince(latest, steady(60, minutes(90)))).toMatchObject({ orEarlier: true });
    // A hot point breaks a cold run.
    const broken = [
      ...steady(60, minutes(90)),
      { ...latest, at: ago(minutes(3)), temperature: 90 },
    ];
    expect(breachSince(latest, broken)).toMatchObject({ since: NOW, orEarlier: false });
    // A setpoint lowered for the night made earlier points fine: the run starts after them.
    const setback = [
      ...steady(64, minutes(120))
        .slice(0, 18) // 120..35 min ago
        .map((p) => ({ ...p, desiredHeat: 62 })),
      ...steady(64, minutes(30)),
    ];
    const now64 = { ...latest, temperature: 64 };
    expect(breachSince(now64, setback)?.since).toEqual(ago(minutes(30)));
  });
});

describe('temperature conditions', () => {
  const check = (s: ThermostatStatus, history: BandPoint[] = [], readAt = NOW) =>
    temperatureCondition({ thermostat, status: s, readAt, history });

  it.each([
    [44.99, 'freeze'],
    [45, null],
    [90, null],
    [90.01, 'overheat'],
  ] as const)('%s °F in any mode, at once: %s', (temperature, kind) => {
    for (const hvacMode of ['off', 'heat', 'cool', 'auto'] as const) {
      const item = check(
        status({ temperature, hvacMode, setPoint: { desiredHeat: 45, desiredCool: 90 } }),
      );
      expect(item?.kind ?? null).toBe(kind);
    }
  });

  it('says a freeze of an offline thermostat is its last known temperature', () => {
    expect(check(status({ temperature: 38, connected: false }))).toMatchObject({
      kind: 'freeze',
      temperature: 38,
      lastKnown: true,
    });
  });

  it.each([
    [minutes(59), null],
    [COMFORT_SUSTAIN_MS, 'too_cold'],
    [minutes(180), 'too_cold'],
  ] as const)('too cold once the readings show it for an hour (%s ms): %s', (span, kind) => {
    const item = check(status({ temperature: 64 }), [
      { at: ago(span), temperature: 64, desiredHeat: 70, desiredCool: 76, hvacMode: 'heat' },
    ]);
    expect(item?.kind ?? null).toBe(kind);
  });

  it('measures the run to the latest reading, not to now', () => {
    // Read an hour ago and not since: the readings prove nothing sustained.
    const item = check(status({ temperature: 64 }), [], ago(minutes(60)));
    expect(item).toBeNull();
  });

  it('too hot, with what the thermostat cannot do in its mode', () => {
    const item = check(
      status({ temperature: 82, hvacMode: 'heat' }),
      steady(82, minutes(70), { hvacMode: 'heat' }),
    );
    expect(item).toMatchObject({
      kind: 'too_hot',
      setpoint: 76,
      mode: 'heat',
      since: ago(minutes(70)),
    });
    if (!item) throw new Error('no item');
    expect(describeItem(item, { unit: 'F', now: NOW }).detail).toBe(
      '82 °F for over 1 h 10 min, more than 3 °F above its cool setpoint of 76 °F. It is set to Heat, so it will not cool.',
    );
  });

  it('gives no band to an offline thermostat (its temperature stands still) or one set to off', () => {
    expect(
      check(status({ temperature: 60, connected: false }), steady(60, minutes(120))),
    ).toBeNull();
    expect(
      check(
        status({ temperature: 60, hvacMode: 'off' }),
        steady(60, minutes(120), { hvacMode: 'off' }),
      ),
    ).toBeNull();
    expect(check(status({ temperature: null }))).toBeNull();
  });
});

describe('offline', () => {
  // Since when: Setpoint's own readings say (the service gives no last-seen time).
  const seen = new Date('2026-11-20T07:43:00.000Z');
  it.each([
    [true, seen, null],
    [null, seen, null],
    [false, seen, seen],
    [false, null, null],
  ] as const)('connected %s, offline since %s → %s', (connected, offlineSince, since) => {
    const item = offlineCondition({
      thermostat,
      status: status({ connected }),
      offlineSince,
      seenConnected: true,
    });
    if (connected !== false) {
      expect(item).toBeNull();
      return;
    }
    expect(item).toEqual({ ...thermostat, kind: 'offline', since, seen: true });
  });

  it('says for how long in plain words', () => {
    const item = offlineCondition({
      thermostat,
      status: status({ connected: false }),
      offlineSince: ago(minutes(3 * 1440 + 4 * 60 + 17)),
      seenConnected: true,
    });
    if (!item) throw new Error('no item');
    expect(describeItem(item, { unit: 'F', now: NOW })).toEqual({
      title: 'Offline',
      detail: 'Not heard from for 3 d 4 h; its readings are the last it sent.',
    });
  });

  it('says “at least” when Setpoint never saw it connected: it may have gone quiet long before', () => {
    const item = offlineCondition({
      thermostat,
      status: status({ connected: false }),
      offlineSince: ago(minutes(42)),
      seenConnected: false,
    });
    if (!item) throw new Error('no item');
    expect(describeItem(item, { unit: 'F', now: NOW }).detail).toBe(
      'Never seen connected: offline since Setpoint first read it, 42 min ago; its readings are the last it sent.',
    );
  });
});

describe('what the equipment was doing, where the service said', () => {
  const words = (fields: Partial<ThermostatStatus>, history: BandPoint[] = []) => {
    const item = temperatureCondition({
      thermostat,
      status: status(fields),
      readAt: NOW,
      history,
    });
    if (!item) throw new Error('no item');
    return describeItem(item, { unit: 'F', now: NOW }).detail;
  };

  it('says whether the heating runs for a cold unit, the cooling for a hot one', () => {
    expect(words({ temperature: 40, runningEquipment: ['heatPump', 'auxHeat1', 'fan'] })).toMatch(
      /pipes can freeze\. Its heating is running\.$/,
    );
    expect(words({ temperature: 40, runningEquipment: ['fan'] })).toMatch(
      /Its heating is not running\.$/,
    );
    expect(words({ temperature: 95, runningEquipment: ['compCool1'] })).toMatch(
      /Its cooling is running\.$/,
    );
    const cold = steady(62, minutes(90));
    expect(words({ temperature: 62, runningEquipment: [] }, cold)).toMatch(
      /below its heat setpoint of 70 °F\. Its heating is not running\.$/,
    );
  });

  it('says nothing of it where the service did not, or the thermostat is offline', () => {
    expect(words({ temperature: 40, runningEquipment: null })).toMatch(/pipes can freeze\.$/);
    expect(words({ temperature: 40, connected: false, runningEquipment: ['fan'] })).toMatch(
      /when last seen, below 45 °F: pipes can freeze\.$/,
    );
  });
});

describe('a mode change pending', () => {
  // A mode Setpoint asked for (the service shows only the mode in effect), since when.
  const pending = (since?: Date, mode = 'cool', hvacMode = 'heat') =>
    pendingModeCondition({
      thermostat,
      status: status({ hvacMode }),
      readAt: NOW,
      pending: since ? { mode, since } : null,
    });

  it.each([
    [minutes(14), null],
    [minutes(15), 'mode_pending'],
    [minutes(40), 'mode_pending'],
  ] as const)('asked for %s ms before the latest reading: %s', (span, kind) => {
    expect(pending(ago(span))?.kind ?? null).toBe(kind);
  });

  it('is nothing when no change was asked for, or the reading shows the mode asked for', () => {
    expect(pending()).toBeNull();
    expect(pending(ago(minutes(60)), 'cool', 'cool')).toBeNull();
  });

  it('says from what to what', () => {
    const item = pending(ago(minutes(25)));
    if (!item) throw new Error('no item');
    expect(describeItem(item, { unit: 'F', now: NOW }).detail).toBe(
      'Waiting for 25 min to change from Heat to Cool.',
    );
  });
});

describe('maintenance', () => {
  const check = (
    nextReminderDate: string | null,
    enabled: boolean | null = true,
    today = '2026-11-23',
  ) => maintenanceCondition({ thermostat, reminder: { enabled, nextReminderDate }, today });

  it.each([
    ['2026-12-01', null], // 8 days ahead
    ['2026-11-30', 'maintenance_due'], // 7 days ahead
    ['2026-11-23', 'maintenance_due'], // today
    ['2026-11-22', 'maintenance_overdue'],
    ['2020-09-13', 'maintenance_overdue'],
  ] as const)('due %s, today 2026-11-23: %s', (date, kind) => {
    expect(check(date)?.kind ?? null).toBe(kind);
  });

  it('is nothing when the reminder is off, unknown or has no date', () => {
    expect(check('2020-01-01', false)).toBeNull();
    expect(check('2020-01-01', null)).toBeNull();
    expect(check(null)).toBeNull();
    expect(check('not a date')).toBeNull();
    expect(maintenanceCondition({ thermostat, reminder: null, today: '2026-11-23' })).toBeNull();
  });

  it('counts days in the building’s zone', () => {
    // 03:00 UTC on the 23rd is still the 22nd in Honolulu.
    const at = new Date('2026-11-23T03:00:00Z');
    expect(dateIn('Pacific/Honolulu', at)).toBe('2026-11-22');
    expect(dateIn('Asia/Tokyo', at)).toBe('2026-11-23');
    expect(dateIn('Not/AZone', at)).toBe('2026-11-23');
    expect(check('2026-11-22', true, dateIn('Pacific/Honolulu', at))?.kind).toBe('maintenance_due');
  });

  it('says when, in plain words', () => {
    const overdue = check('2026-11-20');
    const due = check('2026-11-25');
    const today = check('2026-11-23');
    if (!overdue || !due || !today) throw new Error('no item');
    expect(describeItem(overdue, { unit: 'F', now: NOW }).detail).toBe(
      'HVAC maintenance was due on Nov 20, 2026, 3 days ago.',
    );
    expect(describeItem(due, { unit: 'F', now: NOW }).detail).toBe(
      'HVAC maintenance is due on Nov 25, 2026, in 2 days.',
    );
    expect(describeItem(today, { unit: 'F', now: NOW }).detail).toBe(
      'HVAC maintenance is due today (Nov 23, 2026).',
    );
  });
});

describe('failed writes', () => {
  it('lists them with the last in plain words, never a service code', () => {
    const item = failedWritesCondition({
      thermostat,
      failed: {
        count: 2,
        first: ago(minutes(300)),
        last: { at: ago(minutes(12)), summary: 'Changed the schedule', error: 'conflict' },
      },
    });
    expect(item).toMatchObject({ kind: 'failed_writes', count: 2, since: ago(minutes(300)) });
    if (!item) throw new Error('no item');
    const { detail } = describeItem(item, { unit: 'F', now: NOW });
    expect(detail).toBe(
      '2 changes failed in the last 24 hours and have not succeeded since. The last, 12 min ago: Changed the schedule. The service refused this change in the thermostat’s current state.',
    );
    expect(detail).not.toMatch(/conflict|409/);
  });

  it('is nothing without a failure', () => {
    expect(
      failedWritesCondition({
        thermostat,
        failed: { count: 0, first: NOW, last: { at: NOW, summary: '', error: null } },
      }),
    ).toBeNull();
  });
});

describe('readings out of date', () => {
  const freshness = { targetMs: minutes(5), achievableMs: minutes(5) };
  const check = (
    readAt: Date | null,
    options: { addedAt?: Date; achievableMs?: number; targetMs?: number; active?: boolean } = {},
  ) =>
    staleCondition({
      thermostat,
      reading: readAt ? { readAt, failure: null } : null,
      addedAt: options.addedAt ?? ago(minutes(1000)),
      now: NOW,
      freshness: {
        targetMs: options.targetMs ?? freshness.targetMs,
        achievableMs: options.achievableMs ?? freshness.achievableMs,
      },
      connectionActive: options.active ?? true,
    });

  it.each([
    [minutes(5), minutes(30)],
    [minutes(10), minutes(30)],
    [minutes(15), minutes(45)],
    [minutes(60), minutes(180)],
  ])('achievable %s ms: out of date after %s ms', (achievable, limit) => {
    expect(staleAfterMs(achievable)).toBe(limit);
    expect(check(ago(limit), { achievableMs: achievable })).toBeNull();
    expect(check(ago(limit + 1000), { achievableMs: achievable })?.kind).toBe('stale');
  });

  it('counts a never-read thermostat from when it was added', () => {
    expect(check(null, { addedAt: ago(minutes(10)) })).toBeNull();
    expect(check(null, { addedAt: ago(minutes(31)) })).toMatchObject({
      kind: 'stale',
      readAt: null,
    });
  });

  it('promises nothing while background reading is off or the connection is not active', () => {
    expect(check(ago(minutes(600)), { targetMs: 0 })).toBeNull();
    expect(check(ago(minutes(600)), { active: false })).toBeNull();
  });

  it('says why the last attempt failed', () => {
    const item = staleCondition({
      thermostat,
      reading: { readAt: ago(minutes(125)), failure: 'not_found' },
      addedAt: ago(minutes(1000)),
      now: NOW,
      freshness: { targetMs: minutes(5), achievableMs: minutes(10) },
      connectionActive: true,
    });
    if (!item) throw new Error('no item');
    expect(describeItem(item, { unit: 'F', now: NOW }).detail).toBe(
      'Last read 2 h 5 min ago; readings are kept within 10 min. The last attempt failed: The service does not know this thermostat (or it is not in your account).',
    );
  });
});

describe('the connection', () => {
  const expiresAt = new Date(NOW.getTime() + 2 * 86_400_000);
  it.each([
    [null, false, null],
    [null, true, 'not_connected'],
    [
      { status: 'reconnect', refreshTokenExpiresAt: expiresAt, refreshTokenExpiresSoon: true },
      true,
      'connection_ended',
    ],
    [
      { status: 'active', refreshTokenExpiresAt: expiresAt, refreshTokenExpiresSoon: true },
      true,
      'connection_expiring',
    ],
    [
      { status: 'active', refreshTokenExpiresAt: expiresAt, refreshTokenExpiresSoon: false },
      true,
      null,
    ],
  ] as const)('%j with thermostats %s: %s', (connection, hasThermostats, kind) => {
    const item = connectionCondition({ connection, hasThermostats });
    expect(item?.kind ?? null).toBe(kind);
    if (item) expect(item.thermostatId).toBeNull();
  });
});

describe('one thermostat, all of it', () => {
  const fleet: FleetFacts = {
    now: NOW,
    connection: { status: 'active', refreshTokenExpiresAt: NOW, refreshTokenExpiresSoon: false },
    freshness: { targetMs: minutes(5), achievableMs: minutes(5) },
  };
  const facts = (overrides: Partial<ThermostatFacts> = {}): ThermostatFacts => ({
    ...thermostat,
    timeZone: 'America/New_York',
    addedAt: ago(minutes(10_000)),
    reading: { status: status(), readAt: ago(minutes(2)), failure: null },
    history: [],
    pending: null,
    reminder: { enabled: true, nextReminderDate: '2027-06-01' },
    failed: null,
    ...overrides,
  });

  it('has nothing to say of a healthy thermostat', () => {
    expect(thermostatConditions(facts(), fleet)).toEqual([]);
  });

  it('lists each thing wrong with it', () => {
    const items = thermostatConditions(
      facts({
        reading: {
          status: status({ temperature: 40, connected: false, hvacMode: 'heat' }),
          readAt: ago(minutes(2)),
          failure: null,
        },
        offlineSince: ago(minutes(90)),
        pending: { mode: 'cool', since: ago(minutes(40)) },
        reminder: { enabled: true, nextReminderDate: '2026-01-01' },
        failed: {
          count: 1,
          first: ago(minutes(30)),
          last: { at: ago(minutes(30)), summary: 'x', error: 'conflict' },
        },
      }),
      fleet,
    );
    expect(items.map((item) => item.kind).sort()).toEqual([
      'failed_writes',
      'freeze',
      'maintenance_overdue',
      'mode_pending',
      'offline',
    ]);
  });

  it('reads a thermostat never read as out of date only, once it has been long enough', () => {
    expect(thermostatConditions(facts({ reading: null }), fleet).map((item) => item.kind)).toEqual([
      'stale',
    ]);
  });
});

describe('urgency', () => {
  it('puts freeze first, then the connection, offline, comfort, ... maintenance last; older first', () => {
    const base = { ...thermostat };
    const items: AttentionItem[] = [
      { ...base, kind: 'maintenance_due', due: '2026-11-25', days: 2, since: null },
      { ...base, kind: 'maintenance_overdue', due: '2026-11-01', days: -22, since: null },
      { ...base, kind: 'maintenance_overdue', due: '2020-11-01', days: -2000, since: null },
      { ...base, kind: 'offline', since: ago(minutes(10)) },
      { ...base, kind: 'offline', since: ago(minutes(1000)) },
      { ...base, kind: 'offline', since: null },
      { thermostatId: null, buildingId: null, kind: 'connection_ended', since: null },
      { ...base, kind: 'freeze', temperature: 40, lastKnown: false, since: null },
    ];
    const sorted = [...items].sort(compareUrgency());
    expect(
      sorted.map((item) => [
        item.kind,
        item.since?.getTime() ?? ('days' in item ? item.days : null),
      ]),
    ).toEqual([
      ['freeze', null],
      ['connection_ended', null],
      ['offline', ago(minutes(1000)).getTime()],
      ['offline', ago(minutes(10)).getTime()],
      ['offline', null],
      ['maintenance_overdue', -2000],
      ['maintenance_overdue', -22],
      ['maintenance_due', 2],
    ]);
  });

  it('breaks ties by the given key', () => {
    const a = { ...thermostat, kind: 'offline' as const, since: null, key: 'b' };
    const b = { ...thermostat, kind: 'offline' as const, since: null, key: 'a' };
    expect([a, b].sort(compareUrgency((item) => item.key)).map((item) => item.key)).toEqual([
      'a',
      'b',
    ]);
  });
});

describe('words', () => {
  it.each([
    [0, 'under a minute'],
    [59_999, 'under a minute'],
    [minutes(1), '1 min'],
    [minutes(59), '59 min'],
    [minutes(60), '1 h'],
    [minutes(61), '1 h 1 min'],
    [minutes(1440), '1 d'],
    [minutes(1440 + 60 * 4 + 17), '1 d 4 h'],
  ])('%s ms is %s', (ms, words) => {
    expect(formatDuration(ms)).toBe(words);
  });

  it('states temperatures in the manager’s unit', () => {
    const item: AttentionItem = {
      ...thermostat,
      kind: 'freeze',
      temperature: 38,
      lastKnown: true,
      since: null,
    };
    expect(describeItem(item, { unit: 'C', now: NOW }).detail).toBe(
      '3.3 °C when last seen, below 7.2 °C: pipes can freeze.',
    );
  });

  it('never shows a service code for any kind', () => {
    for (const error of [
      'conflict',
      'unavailable',
      'not_found',
      'rate_limited',
      'internal_error',
      null,
    ]) {
      const item: AttentionItem = {
        ...thermostat,
        kind: 'stale',
        readAt: ago(minutes(100)),
        addedAt: ago(minutes(1000)),
        failure: error,
        achievableMs: minutes(5),
        since: ago(minutes(100)),
      };
      expect(describeItem(item, { unit: 'F', now: NOW }).detail).not.toMatch(
        /conflict|unavailable|not_found|rate_limited|internal_error|_/,
      );
    }
  });
});

describe('days', () => {
  it.each([
    [1, '1 day'],
    [59, '59 days'],
    [60, 'about 2 months'],
    [400, 'about 13 months'],
    [729, 'about 24 months'],
    [730, 'about 24 months'],
    [731, 'over 2 years'],
    [2262, 'over 6 years'],
  ])('%s days is %s', (days, words) => {
    expect(spellDays(days)).toBe(words);
  });
});

describe('the freshness line', () => {
  it.each([
    [
      { fleet: 35, targetMs: minutes(5), achievableMs: minutes(5) },
      'Readings are kept within 5 minutes.',
    ],
    [
      { fleet: 1, targetMs: minutes(1), achievableMs: minutes(1) },
      'Readings are kept within 1 minute.',
    ],
    [
      { fleet: 1500, targetMs: minutes(5), achievableMs: minutes(10) },
      'About every 10 minutes at this fleet size (1,500 thermostats under the service’s 10,000 calls an hour).',
    ],
    [
      { fleet: 35, targetMs: 0, achievableMs: minutes(1) },
      'Readings are taken as pages show them: background reading is off.',
    ],
  ])('%j', (input, line) => {
    expect(freshnessLine({ ...input, perHour: 10_000 })).toBe(line);
  });

  it.each([
    [minutes(9), '9 minutes'],
    [minutes(120), '2 hours'],
    [minutes(150), '2 h 30 min'],
  ])('%s ms is %s', (ms, words) => {
    expect(spellMinutes(ms)).toBe(words);
  });
});

describe('the page’s address', () => {
  it('keeps valid filters and drops the rest', () => {
    expect(
      readAttentionQuery({ kind: 'offline', building: 'aaaaaaaaaaaaaaaaaaaaaaaa', page: '2' }),
    ).toEqual({
      kind: 'offline',
      building: 'aaaaaaaaaaaaaaaaaaaaaaaa',
      page: 2,
    });
    expect(readAttentionQuery({ kind: 'toString', building: '../x', page: '-1' })).toEqual({
      kind: '',
      building: '',
      page: 1,
    });
    expect(readAttentionQuery({ kind: ['offline', 'mode'], page: '1.5' })).toEqual({
      kind: '',
      building: '',
      page: 1,
    });
  });

  it('writes only what is set', () => {
    expect(attentionHref({})).toBe('/attention');
    expect(attentionHref({ kind: 'temperature', building: '', page: 1 })).toBe(
      '/attention?kind=temperature',
    );
    expect(attentionHref({ kind: '', building: 'aaaaaaaaaaaaaaaaaaaaaaaa', page: 3 })).toBe(
      '/attention?building=aaaaaaaaaaaaaaaaaaaaaaaa&page=3',
    );
  });

  it('pages a long list, clamping the page to those there are', () => {
    const items = Array.from({ length: 120 }, (_, n) => n);
    expect(pageOf(items, 1)).toMatchObject({ page: 1, pages: 3, items: items.slice(0, 50) });
    expect(pageOf(items, 3).items).toEqual(items.slice(100));
    expect(pageOf(items, 9).page).toBe(3);
    expect(pageOf([], 4)).toEqual({ items: [], page: 1, pages: 1 });
  });
});
