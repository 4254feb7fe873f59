import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AccessControlForm } from '@/components/settings/access-control-form';
import { changeLines } from '@/lib/activity-log/words';
import {
  LOCKS_IGNORED_WHEN_OFF,
  passcodeProblem,
  validateAccessControl,
} from '@/lib/settings/access-control';
import { validateAlerts } from '@/lib/settings/alerts';
import { type CurrentSettings, validateConfiguration } from '@/lib/settings/configuration';
import { requestedOf } from '@/lib/settings/current';
import { toDisplay } from '@/lib/platform/units';

const current: CurrentSettings = {
  heatRange: { min: 45, max: 79 },
  coolRange: { min: 65, max: 92 },
  holdAction: 'nextTransition',
  fanMinimumOnTime: 0,
};
const form = (over: Record<string, string> = {}) => ({
  heatMin: '45',
  heatMax: '79',
  coolMin: '65',
  coolMax: '92',
  holdAction: 'nextTransition',
  fanMinimumOnTime: '0',
  ...over,
});
const single = { unit: 'F' as const, heatCoolMinDelta: 5, current };

describe('configuration settings', () => {
  it('sends only what changed', () => {
    const result = validateConfiguration(form({ heatMax: '75', fanMinimumOnTime: '15' }), single);
    expect(result).toEqual({
      ok: true,
      changes: { heatRange: { min: 45, max: 75 }, fanMinimumOnTime: 15 },
    });
    expect(validateConfiguration(form(), single)).toEqual({ ok: true, changes: {} });
  });

  it('round-trips untouched °C values exactly', () => {
    const shown = (f: number) => String(toDisplay(f, 'C'));
    const result = validateConfiguration(
      form({ heatMin: shown(45), heatMax: shown(79), coolMin: shown(65), coolMax: shown(92) }),
      { ...single, unit: 'C' },
    );
    expect(result).toEqual({ ok: true, changes: {} });
    // 45.04 °F and the 45 °F limit are both 7.2 °C: the untouched value stays 45.04.
    const near = { ...current, heatRange: { min: 45.04, max: 79 } };
    expect(
      validateConfiguration(
        form({ heatMin: shown(45.04), heatMax: shown(79), coolMin: shown(65), coolMax: shown(92) }),
        {
          ...single,
          unit: 'C',
          current: near,
        },
      ),
    ).toEqual({ ok: true, changes: {} });
  });

  it('in °C, takes a limit typed as stated as that limit and states limits to the nearest step', () => {
    const celsius = {
      ...single,
      unit: 'C' as const,
      current: { ...current, heatRange: { min: 50, max: 75 } },
    };
    expect(
      validateConfiguration(
        form({ heatMin: '7.2', heatMax: '23.9', coolMin: '18.3', coolMax: '33.3' }),
        celsius,
      ),
    ).toEqual({
      ok: true,
      changes: { heatRange: { min: 45, max: 75 } },
    });
    const below = validateConfiguration(
      form({ heatMin: '7.1', heatMax: '23.9', coolMin: '18.3', coolMax: '33.3' }),
      celsius,
    );
    expect(below.ok).toBe(false);
    if (!below.ok)
      expect(below.fieldErrors.heatMin?.[0]).toBe(
        'Must be between 7.2 °C and 26.1 °C (the device’s heat limits).',
      );
    const gap = validateConfiguration(
      form({ heatMin: '7.2', heatMax: '23.9', coolMin: '18.3', coolMax: '25.9' }),
      { ...celsius, heatCoolMinDelta: 4 },
    );
    expect(gap.ok).toBe(false);
    if (!gap.ok) expect(gap.fieldErrors.coolMax?.[0]).toMatch(/at least 2\.3 °C above/);
  });

  it('refuses min above max, values beyond the device limits and non-numbers', () => {
    const result = validateConfiguration(
      form({ heatMin: '70', heatMax: '60', coolMin: '60', coolMax: 'hot' }),
      single,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors.heatMin?.[0]).toMatch(/lower than the maximum/);
    expect(result.fieldErrors.coolMin?.[0]).toMatch(/between 65 °F and 92 °F/);
    expect(result.fieldErrors.coolMax?.[0]).toMatch(/number/);
  });

  it('keeps the ranges heatCoolMinDelta apart', () => {
    const result = validateConfiguration(form({ heatMax: '79', coolMax: '83' }), {
      ...single,
      heatCoolMinDelta: 4,
    });
    expect(result.ok).toBe(true);
    const tooClose = validateConfiguration(form({ heatMax: '79', coolMax: '83' }), single);
    expect(tooClose.ok).toBe(false);
    if (!tooClose.ok) expect(tooClose.fieldErrors.coolMax?.[0]).toMatch(/at least 5 °F above/);
    const minGap = validateConfiguration(form({ heatMin: '62', coolMin: '65' }), single);
    expect(minGap.ok).toBe(false);
    if (!minGap.ok) expect(minGap.fieldErrors.coolMin?.[0]).toMatch(/cool minimum/);
  });

  it('checks the hold action and the fan minimum on-time', () => {
    const result = validateConfiguration(
      form({ holdAction: 'forever', fanMinimumOnTime: '56' }),
      single,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors.holdAction).toBeDefined();
    expect(result.fieldErrors.fanMinimumOnTime?.[0]).toMatch(/0 to 55/);
    expect(validateConfiguration(form({ fanMinimumOnTime: '7.5' }), single).ok).toBe(false);
    expect(validateConfiguration(form({ fanMinimumOnTime: '55' }), single).ok).toBe(true);
  });

  it('leaves a hold action it does not know alone when unchanged, refuses it when chosen', () => {
    // A value the service added since: shown as it is, never sent.
    const old = { ...current, holdAction: 'untilMidnight' };
    expect(
      validateConfiguration(form({ holdAction: 'untilMidnight' }), { ...single, current: old }),
    ).toEqual({ ok: true, changes: {} });
    expect(validateConfiguration(form({ holdAction: 'untilMidnight' }), single).ok).toBe(false);
    // The consumer API's older names are never sent either.
    expect(validateConfiguration(form({ holdAction: 'nextPeriod' }), single).ok).toBe(false);
  });

  it('in bulk, a blank field is unchanged and a range needs both ends', () => {
    const bulk = { unit: 'F' as const, heatCoolMinDelta: 5 };
    expect(validateConfiguration({ holdAction: 'indefinite' }, bulk)).toEqual({
      ok: true,
      changes: { holdAction: 'indefinite' },
    });
    const half = validateConfiguration({ heatMin: '50' }, bulk);
    expect(half.ok).toBe(false);
    if (!half.ok) expect(half.fieldErrors.heatMax?.[0]).toMatch(/both/);
    expect(validateConfiguration({}, bulk)).toEqual({ ok: true, changes: {} });
  });
});

describe('access control', () => {
  it('takes exactly four ASCII digits, leading zeros kept', () => {
    const result = validateAccessControl({ enabled: 'on', passcode: '0042', temperature: 'on' });
    expect(result).toEqual({
      ok: true,
      passcode: 'changed',
      changes: {
        enabled: true,
        passcode: '0042',
        settings: {
          temperature: true,
          systemMode: false,
          schedule: false,
          vacation: false,
          other: false,
        },
      },
    });
  });

  it.each([
    ['123', /exactly 4 digits/],
    ['12345', /exactly 4 digits/],
    ['12a4', /digits 0–9 only/],
    ['١٢٣٤', /digits 0–9 only/],
    ['12 4', /digits 0–9 only/],
  ])('refuses %s without repeating it', (passcode, message) => {
    expect(passcodeProblem(passcode)).toMatch(message);
    const result = validateAccessControl({ enabled: 'on', passcode });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(JSON.stringify(result.fieldErrors)).not.toContain(passcode);
  });

  it('refuses a passcode while the toggle is off; off alone unlocks everything', () => {
    const result = validateAccessControl({ enabled: 'off', passcode: '1234' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.fieldErrors.passcode?.[0]).toMatch(/access control is on/);
    expect(validateAccessControl({ enabled: 'off' })).toEqual({
      ok: true,
      passcode: 'removed',
      changes: { enabled: false },
    });
  });

  it('needs a deliberate on or off: nothing chosen is not "off"', () => {
    for (const enabled of [undefined, '', 'true', 'yes']) {
      const result = validateAccessControl({ enabled });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.fieldErrors.enabled?.[0]).toMatch(/on or off/);
    }
  });

  it('turns it off with areas still ticked or the passcode to remove: nothing locked, and said', () => {
    // Every field is posted at once (the form disables none): "Off" decides.
    expect(
      validateAccessControl({
        enabled: 'off',
        clearPasscode: 'on',
        temperature: 'on',
        schedule: 'on',
      }),
    ).toEqual({
      ok: true,
      passcode: 'removed',
      changes: { enabled: false },
      note: LOCKS_IGNORED_WHEN_OFF,
    });
    expect(validateAccessControl({ enabled: 'off', clearPasscode: 'on' })).toEqual({
      ok: true,
      passcode: 'removed',
      changes: { enabled: false },
    });
    // A typed passcode is refused with "Off", even among ticked areas: it is meant to protect.
    const typed = validateAccessControl({ enabled: 'off', passcode: '2468', temperature: 'on' });
    expect(typed.ok).toBe(false);
    if (!typed.ok) expect(Object.keys(typed.fieldErrors)).toEqual(['passcode']);
  });

  it('takes "On", a passcode and the locks in one save: the form disables no field', () => {
    for (const enabled of [null, false, true]) {
      const html = renderToStaticMarkup(
        createElement(AccessControlForm, {
          action: async (state) => state,
          initial: {
            enabled,
            settings: {
              temperature: false,
              systemMode: false,
              schedule: false,
              vacation: false,
              other: false,
            },
          },
        }),
      );
      for (const name of ['temperature', 'systemMode', 'schedule', 'vacation', 'other']) {
        expect(html, name).toContain(`name="${name}"`);
      }
      expect(html).toContain('name="passcode"');
      expect(html).not.toMatch(/\sdisabled(="")?[\s>]/);
    }
    // What one save without JavaScript posts: on, a passcode and a lock, all of it applied.
    expect(
      validateAccessControl({ enabled: 'on', passcode: '0042', temperature: 'on', other: 'on' }),
    ).toMatchObject({
      ok: true,
      passcode: 'changed',
      changes: { enabled: true, passcode: '0042', settings: { temperature: true, other: true } },
    });
  });

  it('keeps the passcode when blank, clears it on request, not both', () => {
    const keep = validateAccessControl({ enabled: 'on' });
    expect(keep.ok && !('passcode' in keep.changes)).toBe(true);
    const clear = validateAccessControl({ enabled: 'on', clearPasscode: 'on' });
    expect(clear.ok && clear.changes.enabled && clear.changes.passcode).toBeNull();
    expect(validateAccessControl({ enabled: 'on', clearPasscode: 'on', passcode: '1234' }).ok).toBe(
      false,
    );
  });
});

describe('alert settings', () => {
  const alerts = {
    hvacMaintenanceReminder: {
      enabled: true,
      lastMaintenanceDate: '2020-06-13',
      maintenanceInterval: 3,
      maintenanceIntervalUnits: 'month' as const,
      nextReminderDate: '2020-09-13',
    },
    lowTemperatureAlert: { enabled: true, value: 45 },
    highTemperatureAlert: { enabled: true, value: 92 },
    lowHumidityAlert: { enabled: false, value: 15 },
    highHumidityAlert: { enabled: false, value: 70 },
  };
  const input = (over: Record<string, string> = {}) => ({
    maintenanceEnabled: 'on',
    lastMaintenanceDate: '2020-06-13',
    maintenanceInterval: '3',
    maintenanceIntervalUnits: 'month',
    lowTemperatureEnabled: 'on',
    lowTemperatureValue: '45',
    highTemperatureEnabled: 'on',
    highTemperatureValue: '92',
    lowHumidityValue: '15',
    highHumidityValue: '70',
    ...over,
  });
  const options = { unit: 'F' as const, heatCoolMinDelta: 5, current: alerts, today: '2026-11-23' };

  it('refuses a last maintenance after today in the building, and takes today', () => {
    expect(validateAlerts(input({ lastMaintenanceDate: '2026-11-24' }), options)).toEqual({
      ok: false,
      fieldErrors: { lastMaintenanceDate: ['The last maintenance cannot be in the future.'] },
    });
    expect(validateAlerts(input({ lastMaintenanceDate: '2026-11-23' }), options).ok).toBe(true);
  });

  it('sends only the changed parts, nested', () => {
    expect(validateAlerts(input(), options)).toEqual({ ok: true, changes: {} });
    expect(
      validateAlerts(
        input({ lastMaintenanceDate: '2024-01-31', highHumidityEnabled: 'on' }),
        options,
      ),
    ).toEqual({
      ok: true,
      changes: {
        hvacMaintenanceReminder: { lastMaintenanceDate: '2024-01-31' },
        highHumidityAlert: { enabled: true },
      },
    });
  });

  it('checks dates, intervals per unit, ranges and gaps', () => {
    const result = validateAlerts(
      input({
        lastMaintenanceDate: '2024-02-30',
        maintenanceInterval: '61',
        lowTemperatureValue: '90',
        lowHumidityValue: '68',
        highHumidityValue: '101',
      }),
      options,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors.lastMaintenanceDate?.[0]).toMatch(/real date/);
    expect(result.fieldErrors.maintenanceInterval?.[0]).toMatch(/1 to 60/);
    expect(result.fieldErrors.highTemperatureValue?.[0]).toMatch(/at least 5 °F above/);
    expect(result.fieldErrors.highHumidityValue?.[0]).toMatch(/6 to 100/);
    expect(
      validateAlerts(
        input({ maintenanceInterval: '500', maintenanceIntervalUnits: 'hour' }),
        options,
      ).ok,
    ).toBe(true);
  });

  it('never mentions an AC maintenance reminder', () => {
    const result = validateAlerts(input({ lastMaintenanceDate: '2025-01-01' }), options);
    expect(JSON.stringify(result)).not.toMatch(/"acMaintenance/i);
  });
});

describe('a change that could not be checked, as the activity log keeps it', () => {
  it('keeps what was typed with the unit it was typed in, bounded, and nothing left empty', () => {
    const requested = requestedOf(
      { heatMin: ' 18.5 ', heatMax: '', holdAction: 'x'.repeat(500_000), fanMinimumOnTime: '20' },
      'C',
    );
    expect(requested).toEqual({
      heatMin: '18.5',
      holdAction: `${'x'.repeat(64)}…`,
      fanMinimumOnTime: '20',
      unit: '°C',
    });
    // A reader in °F reads the °C it was typed in.
    const [line] = changeLines({ requested: requestedOf({ heatMin: '18.5' }, 'C') });
    expect(line).toEqual(['Requested', 'heat min 18.5, unit °C']);
  });
});
