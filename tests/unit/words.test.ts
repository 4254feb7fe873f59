import { describe, expect, it } from 'vitest';
import { daysInWords, weekInRanges } from '@/lib/activity-log/template-words';
import { changeLines, summaryInWords } from '@/lib/activity-log/words';
import { describeSettingsChanges } from '@/lib/settings/configuration';
import {
  describeRecordedFailure,
  describeServiceError,
  failureWords,
  problemWords,
  ServiceError,
} from '@/lib/service/errors';
import { equipmentNames, modeName, scopeNames, timeZoneName } from '@/lib/platform/words';

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

  it('says a recorded failure in one of three forms from one table, every kind included', () => {
    expect(problemWords('unavailable')).toBe('not responding');
    expect(failureWords('unconfirmed')).toBe(
      'the service did not confirm it, and it may have been applied',
    );
    // A run's failure recorded as 'unconfirmed' reads as that, not as an error of Setpoint's own.
    expect(describeRecordedFailure('unconfirmed')).toBe(
      describeServiceError(new ServiceError('unconfirmed')),
    );
    expect(describeRecordedFailure('unconfirmed')).toMatch(/may have been applied/);
    expect(describeRecordedFailure('thermostat_offline')).toBe(
      'Something went wrong on our side. Please try again.',
    );
    expect(describeRecordedFailure(null)).toBe('It failed.');
    expect(failureWords('something new')).toBe('something went wrong');
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
      // The service's ref of the setting ("smart1") is left out: the entry's words name it.
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
      ['Kind', 'Template run'],
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

  it('says an alert-settings change by the alerts page’s words, never its field codes', () => {
    expect(
      summaryInWords({
        action: 'alert_settings.update',
        summary: 'Changed alert settings of Unit 101 (hvacMaintenanceReminder)',
      }),
    ).toBe('Changed alert settings of Unit 101 (maintenance reminder)');
    expect(
      summaryInWords({
        action: 'alert_settings.update',
        summary:
          'May have been applied: change alert settings of Unit 7 (hvacMaintenanceReminder, lowTemperatureAlert) (the service did not confirm it)',
      }),
    ).toBe(
      'May have been applied: change alert settings of Unit 7 (maintenance reminder, low temperature alert) (the service did not confirm it)',
    );
    // Words already, or another kind of entry: as written.
    for (const entry of [
      {
        action: 'alert_settings.update',
        summary: 'Changed alert settings of A (low humidity alert)',
      },
      { action: 'thermostat.rename', summary: 'Relabelled x as Unit (hvacMaintenanceReminder)' },
    ] as const) {
      expect(summaryInWords(entry)).toBe(entry.summary);
    }
    expect(
      changeLines({
        hvacMaintenanceReminder: {
          enabled: true,
          lastMaintenanceDate: '2026-05-01',
          maintenanceInterval: 6,
          maintenanceIntervalUnits: 'month',
        },
        lowTemperatureAlert: { enabled: true },
      }),
    ).toEqual([
      ['Maintenance reminder', 'on, last done 2026-05-01, every 6 months'],
      ['Low temperature alert', 'enabled on'],
    ]);
    expect(
      changeLines({
        hvacMaintenanceReminder: { maintenanceInterval: 1, maintenanceIntervalUnits: 'hour' },
      }),
    ).toEqual([['Maintenance reminder', 'every 1 hour of running']]);
  });

  it('words the other codes an entry records: days, slots, zones, run kinds, fans, ids', () => {
    // A schedule change: one line of when, as its summary says it, and no ref or slot numbers.
    expect(
      changeLines({
        days: ['monday', 'tuesday', 'wednesday'],
        firstSlot: 14,
        lastSlot: 18,
        comfortSettingRef: 'smart1',
      }),
    ).toEqual([['When', 'Monday–Wednesday 07:00–09:30']]);
    expect(changeLines({ timeZone: 'America/Chicago', name: 'Birch Court' })).toEqual([
      ['Time zone', 'Central Time (Chicago)'],
      ['Name', 'Birch Court'],
    ]);
    expect(changeLines({ kind: 'undo' })).toEqual([['Kind', 'Undo run']]);
    // A group renamed, as its entry records it.
    expect(changeLines({ name: { before: 'Lobbies', after: 'Common areas' } })).toEqual([
      ['Name', 'Lobbies → Common areas'],
    ]);
    expect(changeLines({ ssoDomain: 'example.com' })).toEqual([
      ['Company SSO email domain', 'example.com'],
    ]);
    expect(changeLines({ kind: 'hand-picked' })).toEqual([['Kind', 'hand-picked']]);
    expect(changeLines({ name: 'Guest', fanHeat: 'on', fanCool: 'auto' })).toEqual([
      ['Name', 'Guest'],
      ['Fan when heating', 'always on'],
      ['Fan when cooling', 'auto'],
    ]);
    const ids = Array.from({ length: 12 }, (_, n) => String(511000000000 + n));
    expect(changeLines({ thermostatIds: ids })).toEqual([
      ['Thermostats', `12 thermostats: ${ids.slice(0, 10).join(', ')} and 2 more`],
    ]);
  });

  it('summarises a week as ranges of days alike, the night as one range', () => {
    const weekday = Array.from({ length: 48 }, (_, block) =>
      block < 12 || block >= 44 ? 'Sleep' : 'Home',
    );
    const weekend = new Array<string>(48).fill('Home');
    const week = [...new Array(5).fill(weekday), weekend, weekend];
    expect(weekInRanges(week)).toEqual([
      'Mon–Fri 06:00–22:00 Home, 22:00–06:00 Sleep',
      'Sat–Sun all day Home',
    ]);
    // Days alike need not be next to each other; a day's ranges stay in order.
    const busy = weekday.map((name, block) => (block >= 16 && block < 36 ? 'Away' : name));
    expect(weekInRanges([busy, weekday, busy, weekday, busy, weekend, weekday])).toEqual([
      'Mon, Wed, Fri 06:00–08:00 Home, 08:00–18:00 Away, 18:00–22:00 Home, 22:00–06:00 Sleep',
      'Tue, Thu, Sun 06:00–22:00 Home, 22:00–06:00 Sleep',
      'Sat all day Home',
    ]);
    expect(daysInWords([0, 1, 2, 4])).toBe('Mon–Wed, Fri');
    expect(daysInWords([0, 1, 2, 3, 4, 5, 6])).toBe('Every day');
  });

  it('reads a template entry by section, its schedule as ranges, never half-hour blocks', () => {
    const sleepy = Array.from({ length: 48 }, (_, block) =>
      block < 12 || block >= 44 ? 'Sleep' : 'Home',
    );
    const week = [...new Array(5).fill(sleepy), ...new Array(2).fill(new Array(48).fill('Home'))];
    const template = {
      name: 'Winter comfort',
      comfortSettings: [
        { name: 'Sleep', desiredHeat: 64, desiredCool: 80, fanHeat: 'auto', fanCool: 'auto' },
      ],
      schedule: week,
      configuration: { holdAction: 'indefinite', fanMinimumOnTime: 10 },
      alerts: { hvacMaintenanceReminder: { enabled: true } },
    };
    const created = changeLines({ before: null, after: template });
    expect(created).toEqual([
      ['Comfort settings', 'Sleep (heat 64 °F, cool 80 °F)'],
      ['Weekly schedule', 'Mon–Fri 06:00–22:00 Home, 22:00–06:00 Sleep; Sat–Sun all day Home'],
      ['Configuration', 'Hold action: Indefinitely; Fan minimum on-time 10 minutes per hour'],
      ['Alert settings', 'HVAC maintenance reminder on'],
    ]);
    expect(JSON.stringify(created)).not.toMatch(/Sleep, Sleep|Home, Home/);
    // In the reader's unit.
    expect(changeLines({ before: null, after: template }, 'C')[0]).toEqual([
      'Comfort settings',
      'Sleep (heat 17.8 °C, cool 26.7 °C)',
    ]);

    // A change: only what changed, was → now, and a new name.
    const later = {
      ...template,
      name: 'Winter comfort 2',
      schedule: week.map(() => new Array(48).fill('Home')),
      scheduleRanges: undefined,
    };
    expect(changeLines({ before: template, after: later })).toEqual([
      ['Name', 'Winter comfort → Winter comfort 2'],
      [
        'Weekly schedule',
        'Mon–Fri 06:00–22:00 Home, 22:00–06:00 Sleep; Sat–Sun all day Home → Every day all day Home',
      ],
    ]);
    // Deleted: what it set.
    expect(
      changeLines({
        before: {
          name: 'Ranges',
          scheduleRanges: [
            { days: ['saturday', 'sunday'], firstSlot: 18, lastSlot: 33, name: 'Home' },
          ],
        },
        after: null,
      }),
    ).toEqual([['Schedule ranges', 'Sat–Sun 09:00–17:00 Home']]);
    // A week recorded anywhere else reads as ranges too.
    expect(changeLines({ week })).toEqual([
      ['Week', 'Mon–Fri 06:00–22:00 Home, 22:00–06:00 Sleep; Sat–Sun all day Home'],
    ]);
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
