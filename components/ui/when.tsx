import { formatMoment } from '@/lib/platform/time-format';

/**
 * A moment as the server writes it, with its zone named (`Nov 28, 2026, 3:04 PM EST`), the same
 * with or without JavaScript. The zone is the caller's: a thermostat's building's for its own
 * events, the member's (`member.timeZone`) for everything else.
 */
export function When({ at, zone }: { at: Date; zone: string | null | undefined }) {
  return <time dateTime={at.toISOString()}>{formatMoment(at, zone)}</time>;
}
