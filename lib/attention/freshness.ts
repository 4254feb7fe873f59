import { formatDuration } from './words';

/** `5 minutes`, `1 minute`, `2 hours`; anything else as a duration (`2 h 30 min`). */
export function spellMinutes(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  if (minutes % 60 === 0) return `${minutes / 60} hours`;
  return formatDuration(ms);
}

/**
 * The overview's one line on freshness: the promise the poller keeps, or, where the fleet is too
 * large for the target under the service's hourly limit, what it can keep instead and why.
 */
export function freshnessLine(input: {
  /** Thermostats the poller keeps fresh (every organisation's: they share one budget). */
  fleet: number;
  targetMs: number;
  achievableMs: number;
  /** The service's hourly call limit. */
  perHour: number;
}): string {
  if (input.targetMs <= 0) {
    return 'Readings are taken as pages show them: background reading is off.';
  }
  if (input.achievableMs <= input.targetMs) {
    return `Readings are kept within ${spellMinutes(input.targetMs)}.`;
  }
  const fleet = input.fleet.toLocaleString('en-US');
  const calls = input.perHour.toLocaleString('en-US');
  return `About every ${spellMinutes(input.achievableMs)} at this fleet size (${fleet} thermostat${input.fleet === 1 ? '' : 's'} under the service’s ${calls} calls an hour).`;
}
