import { describe, expect, it } from 'vitest';
import { describeSettingsChanges } from '@/lib/settings/configuration';
import {
  changeLines,
  equipmentNames,
  failureWords,
  modeName,
  scopeNames,
  timeZoneName,
} from '@/lib/words';

describe('the service’s codes in words', () => {
  it('names modes, equipment and scopes as a manager says them', () => {
    expect(modeName('auxHeatOnly')).toBe('Auxiliary heat only');
    expect(modeName(null)).toBe('—');
    expect(modeName('ecoPlus')).toBe('ecoPlus');
    expect(equipmentNames('heatPump,fan')).toBe('Heat pump, Fan');
    expect(equipmentNames('')).toBe('Idle');
    expect(scopeNames('smartWrite')).toBe('Read and change thermostats');
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

  it('states both ends of a configured range with the unit', () => {
    expect(
      describeSettingsChanges({
        heatRange: { min: 60, max: 75 },
        coolRange: { min: 70.25, max: 85 },
        holdAction: 'nextPeriod',
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
