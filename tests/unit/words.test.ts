import { describe, expect, it } from 'vitest';
import { describeSettingsChanges } from '@/lib/settings/configuration';
import { describeServiceError, ServiceError } from '@/lib/thermostat-api/errors';
import { changeLines } from '@/lib/activity-words';
import { equipmentNames, failureWords, modeName, scopeNames, timeZoneName } from '@/lib/words';

describe('the service’s codes in words', () => {
  it('names modes, equipment and scopes as a manager says them', () => {
    expect(modeName('auxHeatOnly')).toBe('Auxiliary heat only');
    expect(modeName(null)).toBe('—');
    expect(modeName('ecoPlus')).toBe('ecoPlus');
    expect(equipmentNames('heatPump,fan')).toBe('Heat pump, Fan');
    expect(equipmentNames('')).toBe('Idle');
    expect(scopeNames('smartWrite')).toBe('Read and change thermostats');
    expect(scopeNames('ems smartRead')).toBe('Read and change thermostats, Read thermostats');
    expect(failureWords('validation')).toBe('the service refused the values');
  });

  it('says a time zone by its generic name and city, not its tz database name', () => {
    expect(timeZoneName('America/Los_Angeles')).toBe('Pacific Time (Los Angeles)');
    expect(timeZoneName('America/Chicago')).toBe('Central Time (Chicago)');
    expect(timeZoneName('Not/A_Zone')).toBe('A Zone');
  });

  it('writes recorded changes as lines, not JSON', () => {
    expect(
      changeLines({
        heatRange: { from: { min: 50, max: 79 }, to: { min: 55, max: 79 } },
        fanMinimumOnTime: { from: 0, to: 12 },
        hvacMode: 'auxHeatOnly',
      }),
    ).toEqual([
      ['Heat range', '50 °F to 79 °F → 55 °F to 79 °F'],
      ['Fan minimum on-time (minutes per hour)', '0 → 12'],
      ['HVAC mode', 'Auxiliary heat only'],
    ]);
  });

  it('writes every temperature with its own °F, and humidity in %', () => {
    expect(
      changeLines({
        comfortSettingRef: 'smart1',
        desiredHeat: 65.5,
        desiredCool: 81,
        lowTemperatureAlert: { enabled: true, value: 45 },
        highHumidityAlert: { value: 60 },
        settings: { coolRange: { min: 70, max: 85 }, fanMinimumOnTime: 20 },
        requested: { heatMin: '18.5' },
      }),
    ).toEqual([
      ['Comfort setting ref', 'smart1'],
      ['Desired heat', '65.5 °F'],
      ['Desired cool', '81 °F'],
      ['Low temperature alert', 'enabled on, value 45 °F'],
      ['High humidity alert', 'value 60 %'],
      ['Settings', 'cool range 70 °F to 85 °F, fan minimum on-time (minutes per hour) 20'],
      // As typed, in the manager's unit: not a °F value, so no unit is guessed.
      ['Requested', 'heat min 18.5'],
    ]);
  });

  it('words the codes a change recorded: hold action, roles, a run’s state, buildings', () => {
    expect(
      changeLines({
        holdAction: { from: 'nextTransition', to: '2hour' },
        settings: { holdAction: 'indefinite' },
        email: 'ada@example.com',
        role: { from: 'viewer', to: 'building_manager' },
        ssoDefaultRole: 'viewer',
        buildingIds: { from: [], to: ['00000000000000000000a0c1', '00000000000000000000b0c1'] },
      }),
    ).toEqual([
      ['Hold action', 'Until the next scheduled period → Hold for 2 hours'],
      ['Settings', 'hold action Indefinitely'],
      ['Email', 'ada@example.com'],
      ['Role', 'Viewer → Building manager'],
      ['Company SSO default role', 'Viewer'],
      ['Buildings', 'none → 2 buildings'],
    ]);
    expect(changeLines({ role: 'admin', buildingIds: ['00000000000000000000a0c1'] })).toEqual([
      ['Role', 'Admin'],
      ['Buildings', '1 building'],
    ]);
    expect(changeLines({ buildingIds: 'all' })).toEqual([['Buildings', 'all buildings']]);
    // A webhook's or a rule's incident kinds, by their names on the Notifications page.
    expect(changeLines({ kinds: ['freeze', 'too_cold', 'run_failed'] })).toEqual([
      ['Incidents', 'Freeze risk, Too cold, Bulk change failed'],
    ]);
  });

  it('leaves out Setpoint’s own identifiers, and says a run’s state as its lists do', () => {
    const uuid = '3f2b8c4e-9d1a-4f6b-8e2c-7a5d9b0c1e2f';
    const lines = changeLines({
      runId: uuid,
      kind: 'template',
      title: 'Winter comfort',
      templateId: uuid,
      undoOf: uuid,
      undoOfEntry: 412,
      retryOf: uuid,
      jobId: 'job-17',
      state: 'done',
      total: 30,
      applied: 28,
      failed: 2,
      notSent: 0,
      cancelled: 0,
      unchanged: 0,
      blocked: 0,
      buildings: 3,
      owner: uuid,
      moved: { from: uuid, to: null },
    });
    expect(lines).toEqual([
      ['Kind', 'template'],
      ['Title', 'Winter comfort'],
      ['State', 'Done with 2 failures'],
      ['Total', '30'],
      ['Applied', '28'],
      ['Failed', '2'],
      ['Not sent', '0'],
      ['Cancelled', '0'],
      ['Unchanged', '0'],
      ['Blocked', '0'],
      ['Buildings', '3'],
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}|job-17|412/);
    expect(
      changeLines({
        state: 'cancelled',
        total: 10,
        applied: 4,
        failed: 0,
        notSent: 0,
        cancelled: 6,
      }),
    ).toEqual([
      ['State', 'Cancelled after 4 of 10 applied'],
      ['Total', '10'],
      ['Applied', '4'],
      ['Failed', '0'],
      ['Not sent', '0'],
      ['Cancelled', '6'],
    ]);
    // A state without a run's counts has no words to read in: left out, never shown as a code.
    expect(changeLines({ state: 'queued' })).toEqual([]);
  });

  it('states both ends of a configured range with the unit', () => {
    expect(
      describeSettingsChanges({
        heatRange: { min: 60, max: 75 },
        coolRange: { min: 70.25, max: 85 },
        holdAction: 'nextTransition',
        fanMinimumOnTime: 10,
      }),
    ).toEqual([
      'heat range 60 °F to 75 °F',
      'cool range 70.25 °F to 85 °F',
      'hold action Until the next scheduled period',
      'fan minimum on-time 10 min/h',
    ]);
  });
});

describe('a service error in words, to whoever reads it', () => {
  it('says who can connect or reconnect, since most roles cannot', () => {
    for (const kind of ['not_connected', 'reconnect', 'unauthorized'] as const) {
      const words = describeServiceError(new ServiceError(kind));
      expect(words).toMatch(
        /an owner or admin (connects|must reconnect) it on the Connection page/,
      );
      expect(words).not.toMatch(/^Connect |Reconnect to continue/);
    }
  });
});
