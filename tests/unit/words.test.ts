import { describe, expect, it } from 'vitest';
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
      ['Heat range', '50 to 79 → 55 to 79'],
      ['Fan minimum on-time (minutes per hour)', '0 → 12'],
      ['HVAC mode', 'Auxiliary heat only'],
    ]);
  });
});
