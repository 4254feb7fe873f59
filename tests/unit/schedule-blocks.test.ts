import { describe, expect, it } from 'vitest';
import {
  applyRange,
  blockSpan,
  blockTime,
  currentBlock,
  describeRange,
  describeUsage,
  moveFocus,
  rangeBetween,
  runsOf,
} from '@/lib/schedule/blocks';
import { isKnownTimeZone } from '@/lib/platform/time-format';

const at = (iso: string) => new Date(iso);

describe('block times', () => {
  it('names blocks by their local wall-clock half hour', () => {
    expect(blockTime(0)).toBe('00:00');
    expect(blockTime(15)).toBe('07:30');
    expect(blockTime(47)).toBe('23:30');
    expect(blockTime(48)).toBe('24:00');
    expect(blockSpan(15)).toBe('07:30–08:00');
    expect(blockSpan(14, 17)).toBe('07:00–09:00');
    expect(blockSpan(0, 47)).toBe('00:00–24:00');
  });
});

describe('currentBlock', () => {
  it('reads the day and half hour in the building’s zone, not UTC', () => {
    // 2026-06-03 is a Wednesday. 14:45 UTC = 09:45 CDT.
    expect(currentBlock(at('2026-06-03T14:45:00Z'), 'America/Chicago')).toEqual({
      dayIndex: 2,
      block: 19,
    });
    // 03:10 UTC Thursday is still Wednesday evening (22:10 CDT) in Chicago.
    expect(currentBlock(at('2026-06-04T03:10:00Z'), 'America/Chicago')).toEqual({
      dayIndex: 2,
      block: 44,
    });
    // ... and already Thursday in Tokyo (12:10).
    expect(currentBlock(at('2026-06-04T03:10:00Z'), 'Asia/Tokyo')).toEqual({
      dayIndex: 3,
      block: 24,
    });
  });

  it('handles midnight, block edges and the end of the week', () => {
    // Sunday 2026-06-07 23:59:59 EDT, then Monday 00:00 EDT.
    expect(currentBlock(at('2026-06-08T03:59:59Z'), 'America/New_York')).toEqual({
      dayIndex: 6,
      block: 47,
    });
    expect(currentBlock(at('2026-06-08T04:00:00Z'), 'America/New_York')).toEqual({
      dayIndex: 0,
      block: 0,
    });
    expect(currentBlock(at('2026-06-08T04:29:59Z'), 'America/New_York').block).toBe(0);
    expect(currentBlock(at('2026-06-08T04:30:00Z'), 'America/New_York').block).toBe(1);
  });

  it('handles zones with 45-minute offsets (Kathmandu is UTC+5:45)', () => {
    // 2026-06-01 (Monday) 04:59 UTC = 10:44 local → block 21 (10:30–11:00).
    expect(currentBlock(at('2026-06-01T04:59:00Z'), 'Asia/Kathmandu')).toEqual({
      dayIndex: 0,
      block: 21,
    });
  });

  it('skips the lost hour when New York springs forward (Sunday 2026-03-08)', () => {
    const zone = 'America/New_York';
    // 01:59 EST, one minute before the change.
    expect(currentBlock(at('2026-03-08T06:59:00Z'), zone)).toEqual({ dayIndex: 6, block: 3 });
    // One minute later it is 03:00 EDT: blocks 4 and 5 (02:00–03:00) never become current.
    expect(currentBlock(at('2026-03-08T07:00:00Z'), zone)).toEqual({ dayIndex: 6, block: 6 });
    // Afternoon of the same day is on EDT (UTC-4): 18:00 UTC = 14:00.
    expect(currentBlock(at('2026-03-08T18:00:00Z'), zone)).toEqual({ dayIndex: 6, block: 28 });
    // The Saturday before is on EST (UTC-5): 18:00 UTC = 13:00.
    expect(currentBlock(at('2026-03-07T18:00:00Z'), zone)).toEqual({ dayIndex: 5, block: 26 });
    // Monday after: EDT.
    expect(currentBlock(at('2026-03-09T12:00:00Z'), zone)).toEqual({ dayIndex: 0, block: 16 });
  });

  it('repeats the 01:00–02:00 blocks when New York falls back (Sunday 2026-11-01)', () => {
    const zone = 'America/New_York';
    // 01:30 EDT, then an hour later 01:30 EST: the same block twice.
    expect(currentBlock(at('2026-11-01T05:30:00Z'), zone)).toEqual({ dayIndex: 6, block: 3 });
    expect(currentBlock(at('2026-11-01T06:30:00Z'), zone)).toEqual({ dayIndex: 6, block: 3 });
    // 02:00 EST.
    expect(currentBlock(at('2026-11-01T07:00:00Z'), zone)).toEqual({ dayIndex: 6, block: 4 });
    // Friday before (EDT, UTC-4) and Monday after (EST, UTC-5) at 12:00 UTC.
    expect(currentBlock(at('2026-10-30T12:00:00Z'), zone)).toEqual({ dayIndex: 4, block: 16 });
    expect(currentBlock(at('2026-11-02T12:00:00Z'), zone)).toEqual({ dayIndex: 0, block: 14 });
  });

  it('walks a whole daylight-saving week in half hours: every block of a day is seen, except the skipped hour', () => {
    const zone = 'America/Chicago';
    // Chicago springs forward on Sunday 2026-03-08 at 02:00 local (08:00 UTC).
    const seen = Array.from({ length: 7 }, () => new Set<number>());
    const start = Date.parse('2026-03-02T06:00:00Z'); // Monday 00:00 CST
    for (let t = start; t < start + 7 * 24 * 3600_000; t += 30 * 60_000) {
      const { dayIndex, block } = currentBlock(new Date(t), zone);
      seen[dayIndex]?.add(block);
    }
    for (let day = 0; day < 6; day++) expect(seen[day]?.size).toBe(48);
    // Sunday is 23 hours long: 46 blocks occur, 02:00 and 02:30 do not (and the week's
    // last hour spills into the next Monday).
    expect(seen[6]?.has(4)).toBe(false);
    expect(seen[6]?.has(5)).toBe(false);
    expect(seen[6]?.size).toBe(46);
  });

  it('knows real zones and refuses made-up ones', () => {
    expect(isKnownTimeZone('America/Phoenix')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});

describe('selection and range math', () => {
  it('spans the days and blocks between two corners, in either direction', () => {
    expect(rangeBetween({ dayIndex: 1, block: 18 }, { dayIndex: 0, block: 14 })).toEqual({
      days: ['monday', 'tuesday'],
      firstSlot: 14,
      lastSlot: 18,
    });
    expect(rangeBetween({ dayIndex: 4, block: 3 }, { dayIndex: 4, block: 3 })).toEqual({
      days: ['friday'],
      firstSlot: 3,
      lastSlot: 3,
    });
  });

  it('applies a range like the service does, leaving the rest and the input untouched', () => {
    const week = Array.from({ length: 7 }, () => new Array<string>(48).fill('home'));
    const next = applyRange(
      week,
      { days: ['monday', 'sunday'], firstSlot: 46, lastSlot: 47 },
      'smart7',
    );
    expect(next[0]?.slice(45)).toEqual(['home', 'smart7', 'smart7']);
    expect(next[6]?.slice(45)).toEqual(['home', 'smart7', 'smart7']);
    expect(next[1]?.every((ref) => ref === 'home')).toBe(true);
    expect(week[0]?.[46]).toBe('home');
  });

  it('moves the keyboard focus inside the grid', () => {
    expect(moveFocus({ dayIndex: 0, block: 0 }, 'ArrowUp')).toEqual({ dayIndex: 0, block: 0 });
    expect(moveFocus({ dayIndex: 0, block: 0 }, 'ArrowLeft')).toEqual({ dayIndex: 0, block: 0 });
    expect(moveFocus({ dayIndex: 6, block: 47 }, 'ArrowDown')).toEqual({ dayIndex: 6, block: 47 });
    expect(moveFocus({ dayIndex: 6, block: 47 }, 'ArrowRight')).toEqual({
      dayIndex: 6,
      block: 47,
    });
    expect(moveFocus({ dayIndex: 2, block: 10 }, 'ArrowRight')).toEqual({
      dayIndex: 3,
      block: 10,
    });
    expect(moveFocus({ dayIndex: 2, block: 10 }, 'Home')).toEqual({ dayIndex: 2, block: 0 });
    expect(moveFocus({ dayIndex: 2, block: 10 }, 'End')).toEqual({ dayIndex: 2, block: 47 });
  });
});

describe('usage in words', () => {
  const week = Array.from({ length: 7 }, (_, day) => {
    const blocks = new Array<string>(48).fill('home');
    if (day < 5) blocks.fill('smart2', 14, 18);
    if (day === 6) blocks.fill('smart2');
    return blocks;
  });

  it('finds runs of blocks', () => {
    expect(runsOf(['a', 'b', 'b', 'a', 'b'], 'b')).toEqual([
      [1, 2],
      [4, 4],
    ]);
  });

  it('groups days with the same times', () => {
    expect(describeUsage(week, 'smart2')).toEqual([
      'Monday–Friday 07:00–09:00',
      'Sunday 00:00–24:00',
    ]);
    expect(describeUsage(week, 'nowhere')).toEqual([]);
  });

  it('describes a range for messages and the activity log', () => {
    expect(describeRange({ days: ['monday', 'tuesday'], firstSlot: 14, lastSlot: 17 })).toBe(
      'Monday, Tuesday 07:00–09:00',
    );
    expect(
      describeRange({
        days: ['wednesday', 'monday', 'tuesday'],
        firstSlot: 0,
        lastSlot: 0,
      }),
    ).toBe('Monday–Wednesday 00:00–00:30');
    expect(describeRange({ days: ['monday', 'friday'], firstSlot: 47, lastSlot: 47 })).toBe(
      'Monday, Friday 23:30–24:00',
    );
  });
});
