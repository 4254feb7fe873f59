/**
 * The slow checks (each thermostat's maintenance reminder, read about once a day; each
 * thermostat's template, checked every few hours) come in a few a minute, so on a new portfolio
 * the count of items climbs while a manager looks. Until every one has run once, the overview and
 * Needs attention say how far they have come; once all have, they say nothing. Pure: the pages
 * and the tests share it.
 */

/** How many of the thermostats a check covers it has run on at least once. */
export type CheckProgress = { checked: number; total: number };

export type SlowChecks = {
  maintenance: CheckProgress;
  templates: CheckProgress;
  /** Whether the background reads run at all (READINGS_TARGET_MINUTES above 0). */
  background: boolean;
};

const count = (value: number) => value.toLocaleString('en-US');
const pending = (progress: CheckProgress) => progress.checked < progress.total;

/**
 * One line on what is not yet checked, e.g. "Still checking: maintenance dates read for 12 of 35
 * thermostats. More items may appear as the rest are read, a few a minute."; null once every
 * check has run.
 */
export function slowChecksLine(checks: SlowChecks): string | null {
  const parts = [
    pending(checks.maintenance)
      ? `maintenance dates read for ${count(checks.maintenance.checked)} of ${count(checks.maintenance.total)} thermostats`
      : null,
    pending(checks.templates)
      ? `${count(checks.templates.checked)} of ${count(checks.templates.total)} thermostats compared with their templates`
      : null,
  ].filter((part): part is string => part !== null);
  if (parts.length === 0) return null;
  if (!checks.background) {
    return `Not yet checked: ${parts.join('; ')}. Setpoint reads these in the background, which is turned off here.`;
  }
  return `Still checking: ${parts.join('; ')}. More items may appear as the rest are read, a few a minute.`;
}
