import { describe, expect, it } from 'vitest';
import { dayIn, formatMoment, isoIn, knownZone, zoneLabel } from '@/lib/platform/time-format';

/** One clock: every moment written with its zone, every day a whole day of one zone's calendar. */
describe('times in a zone', () => {
  const at = new Date('2026-11-24T11:58:00Z');

  it('writes a moment in the zone it is given, with the zone named', () => {
    expect(formatMoment(at, 'America/New_York')).toBe('Nov 24, 2026, 6:58 AM EST');
    expect(formatMoment(at, 'America/Los_Angeles')).toBe('Nov 24, 2026, 3:58 AM PST');
    expect(formatMoment(at, 'Europe/Berlin')).toBe('Nov 24, 2026, 12:58 PM GMT+1');
    // A zone unknown to the runtime (or none) is UTC, and says so.
    expect(formatMoment(at, 'Mars/Olympus_Mons')).toBe('Nov 24, 2026, 11:58 AM UTC');
    expect(formatMoment(at, null)).toBe('Nov 24, 2026, 11:58 AM UTC');
  });

  it('names a zone briefly for a label, the same in summer and winter', () => {
    expect(zoneLabel('America/New_York')).toBe('ET');
    expect(zoneLabel('Europe/Berlin')).toBe('Germany Time');
    expect(zoneLabel('UTC')).toBe('UTC');
    expect(knownZone('Nowhere/Else')).toBe('UTC');
    expect(knownZone('Asia/Kolkata')).toBe('Asia/Kolkata');
  });

  it('writes a moment for a spreadsheet with the zone’s offset', () => {
    expect(isoIn(at, 'America/Chicago')).toBe('2026-11-24T05:58:00.000-06:00');
    expect(isoIn(at, 'Asia/Kolkata')).toBe('2026-11-24T17:28:00.000+05:30');
  });

  it('takes a calendar day in a zone from its midnight to the next, across a clock change', () => {
    expect(dayIn('2026-11-24', 'America/New_York')).toEqual({
      start: new Date('2026-11-24T05:00:00Z'),
      end: new Date('2026-11-25T05:00:00Z'),
    });
    // The day the clocks go forward is 23 hours long.
    const spring = dayIn('2026-03-08', 'America/New_York');
    expect(spring).toEqual({
      start: new Date('2026-03-08T05:00:00Z'),
      end: new Date('2026-03-09T04:00:00Z'),
    });
    expect(dayIn('2026-11-24', 'UTC').start).toEqual(new Date('2026-11-24T00:00:00Z'));
  });
});
