import { dateTimeFormat } from '@/lib/platform/time-format';

/**
 * Local time of day in a time zone, and quiet hours over it. Minutes after local midnight, read
 * with Intl (no time zone arithmetic of our own). Pure.
 */

export const MINUTES_PER_DAY = 24 * 60;

/** Minutes after midnight in `timeZone` at `now` (UTC for an unknown zone). */
export function minutesIn(timeZone: string, now: Date): number {
  const read = (zone: string) => {
    const parts = dateTimeFormat({
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(now);
    const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
    return (part('hour') % 24) * 60 + part('minute');
  };
  try {
    return read(timeZone);
  } catch {
    return read('UTC');
  }
}

export type QuietHours = { start: number; end: number } | null;

/** Whether `minute` falls in quiet hours from `start` up to (not including) `end`; may span midnight. */
export function inQuietHours(quiet: QuietHours, minute: number): boolean {
  if (!quiet || quiet.start === quiet.end) return false;
  return quiet.start < quiet.end
    ? minute >= quiet.start && minute < quiet.end
    : minute >= quiet.start || minute < quiet.end;
}

/**
 * When a notice held by quiet hours may go: `now` when it is not quiet in `timeZone`, else the
 * moment quiet hours end there, to the minute. Counted in minutes from now, the end is an hour
 * off on a night the clocks change (an hour late in spring, early in autumn), so the moment is
 * read back in the zone and moved by however far its wall clock misses the end.
 */
export function quietUntil(quiet: QuietHours, timeZone: string, now: Date): Date {
  const minute = minutesIn(timeZone, now);
  if (!quiet || !inQuietHours(quiet, minute)) return now;
  const wait = (quiet.end - minute + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  const start = new Date(now);
  start.setUTCSeconds(0, 0);
  const counted = new Date(start.getTime() + wait * 60_000);
  const past = (minutesIn(timeZone, counted) - quiet.end + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  // Minutes to move: back when the wall clock is past the end, on when it is short of it.
  const shift = past > MINUTES_PER_DAY / 2 ? MINUTES_PER_DAY - past : -past;
  if (shift === 0 || Math.abs(shift) > MAX_CLOCK_CHANGE_MINUTES) return counted;
  const moved = new Date(counted.getTime() + shift * 60_000);
  const quietAt = (at: Date) => inQuietHours(quiet, minutesIn(timeZone, at));
  if (moved <= now) return counted;
  if (!quietAt(moved)) return moved;
  // The end falls in the hour a spring change skips: quiet hours end at the change itself, the
  // first minute between the two that is not quiet.
  let [quietMinute, freeMinute] = [moved.getTime() / 60_000, counted.getTime() / 60_000];
  while (freeMinute - quietMinute > 1) {
    const middle = Math.floor((quietMinute + freeMinute) / 2);
    if (quietAt(new Date(middle * 60_000))) quietMinute = middle;
    else freeMinute = middle;
  }
  return new Date(freeMinute * 60_000);
}

/** The largest clock change any time zone makes (Lord Howe's is half an hour; most are one). */
const MAX_CLOCK_CHANGE_MINUTES = 120;

/** `22:00` for 1320. */
export function formatMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** 1320 for `22:00` (or `22:00:00`); null when it is not a time of day. */
export function parseMinutes(text: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?$/.exec(text.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}
