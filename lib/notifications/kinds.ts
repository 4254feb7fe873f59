import type { AttentionKind, Severity } from '@/lib/attention/conditions';

/**
 * The kinds of incident Setpoint tells people about: the needs-attention kinds worth a message
 * (lib/attention/conditions.ts decides when each holds, so the page and the messages agree), and a
 * failed bulk run. Pure: the rules form, the reconcile job and the tests share it.
 *
 * Left out on purpose: readings out of date (`stale`) is about Setpoint's own reading, not the
 * building, and a service outage would make every thermostat stale at once.
 */
export const INCIDENT_KINDS = {
  freeze: {
    name: 'Freeze risk',
    severity: 'urgent',
    enabled: true,
    delayMinutes: 10,
    help: 'Below 45 °F (7.2 °C): pipes can freeze. Told once it has lasted this long.',
  },
  overheat: {
    name: 'Overheating',
    severity: 'urgent',
    enabled: true,
    delayMinutes: 10,
    help: 'Above 90 °F (32.2 °C). Told once it has lasted this long.',
  },
  too_cold: {
    name: 'Too cold',
    severity: 'warning',
    enabled: true,
    delayMinutes: 0,
    help: 'More than 3 °F (1.7 °C) below the heat setpoint for an hour of readings, plus this delay.',
  },
  too_hot: {
    name: 'Too hot',
    severity: 'warning',
    enabled: true,
    delayMinutes: 0,
    help: 'More than 3 °F (1.7 °C) above the cool setpoint for an hour of readings, plus this delay.',
  },
  offline: {
    name: 'Offline',
    severity: 'warning',
    enabled: true,
    delayMinutes: 30,
    help: 'Not heard from for this long (a thermostat can drop off the network for a minute).',
  },
  maintenance: {
    name: 'Maintenance due',
    severity: 'notice',
    enabled: true,
    delayMinutes: 0,
    help: 'HVAC maintenance due within 7 days, or overdue.',
  },
  run_failed: {
    name: 'Bulk change failed',
    severity: 'warning',
    enabled: true,
    delayMinutes: 0,
    help: 'A bulk change finished with thermostats failed or not sent, until a retry succeeds.',
  },
  connection_ended: {
    name: 'Service connection ended',
    severity: 'urgent',
    enabled: true,
    delayMinutes: 0,
    help: 'The service refused to renew access: nothing is read or changed until someone reconnects.',
  },
  not_connected: {
    name: 'No service connection',
    severity: 'urgent',
    enabled: true,
    delayMinutes: 0,
    help: 'No service account is connected while there are thermostats.',
  },
  connection_expiring: {
    name: 'Service connection expires soon',
    severity: 'warning',
    enabled: true,
    delayMinutes: 0,
    help: 'The refresh token runs out within 7 days: reconnect before then.',
  },
  mode_pending: {
    name: 'Mode change not taking effect',
    severity: 'warning',
    enabled: false,
    delayMinutes: 0,
    help: 'A mode change still waiting 15 minutes after it was first seen.',
  },
  failed_writes: {
    name: 'Changes failed',
    severity: 'warning',
    enabled: false,
    delayMinutes: 0,
    help: 'Changes to a thermostat that failed and have not succeeded since (the person who made them saw it fail).',
  },
  vacant_unsettled: {
    name: 'Vacant, not in its vacant settings',
    severity: 'warning',
    enabled: false,
    delayMinutes: 0,
    help: 'A vacant or make-ready unit whose thermostat its turnover could not put in the vacant settings (the run says why).',
  },
  move_out_passed: {
    name: 'Move-out day passed',
    severity: 'notice',
    enabled: false,
    delayMinutes: 0,
    help: 'A unit whose resident gave notice, and whose move-out day has passed with no move-out recorded (its thermostat keeps its occupied settings).',
  },
  template_drift: {
    name: 'Differs from its template',
    severity: 'notice',
    // Off unless an organisation turns it on: nothing is at risk, it is found only every few
    // hours, and someone may have changed the thermostat on purpose.
    enabled: false,
    delayMinutes: 0,
    help: 'A thermostat no longer matches the template last applied to it (checked about every 6 hours; locks aside).',
  },
} as const satisfies Record<
  string,
  { name: string; severity: Severity; enabled: boolean; delayMinutes: number; help: string }
>;

export type IncidentKind = keyof typeof INCIDENT_KINDS;

export const INCIDENT_KIND_NAMES = Object.keys(INCIDENT_KINDS) as IncidentKind[];

export const isIncidentKind = (value: unknown): value is IncidentKind =>
  typeof value === 'string' && Object.hasOwn(INCIDENT_KINDS, value);

/**
 * The incident kind of a needs-attention item, or null when it makes none. Maintenance due and
 * overdue are one incident (its date passing is not a new cause). The return type checks that
 * every other needs-attention kind has an incident kind.
 */
export function incidentKindOf(kind: AttentionKind): IncidentKind | null {
  if (kind === 'maintenance_due' || kind === 'maintenance_overdue') return 'maintenance';
  if (kind === 'stale') return null;
  return kind;
}

export const severityOfKind = (kind: IncidentKind): Severity => INCIDENT_KINDS[kind].severity;

/**
 * Urgent incidents go out at once whatever a member chose: through quiet hours, and beside the
 * daily digest (a freeze at 3 a.m. cannot wait for the morning).
 */
export const isUrgent = (kind: IncidentKind): boolean => severityOfKind(kind) === 'urgent';

/** The graver kinds that take over from a kind on the same subject (its end is no news). */
export const SUPERSEDED_BY: Partial<Record<IncidentKind, IncidentKind[]>> = {
  too_cold: ['freeze'],
  too_hot: ['overheat'],
  connection_expiring: ['connection_ended', 'not_connected'],
  connection_ended: ['not_connected'],
};

/** The delay a rule may set, in minutes: up to a day. */
export const MAX_DELAY_MINUTES = 24 * 60;

/** An organisation's rule for a kind: whether it opens incidents, after how long people hear. */
export type Rule = { enabled: boolean; delayMinutes: number };
export type Rules = Record<IncidentKind, Rule>;

/** The rules in force: each kind's stored rule, or its default. */
export function rulesOf(stored: readonly ({ kind: string } & Rule)[]): Rules {
  const rules = Object.fromEntries(
    INCIDENT_KIND_NAMES.map((kind) => [
      kind,
      { enabled: INCIDENT_KINDS[kind].enabled, delayMinutes: INCIDENT_KINDS[kind].delayMinutes },
    ]),
  ) as Rules;
  for (const rule of stored) {
    if (isIncidentKind(rule.kind)) {
      rules[rule.kind] = { enabled: rule.enabled, delayMinutes: rule.delayMinutes };
    }
  }
  return rules;
}

/**
 * What a webhook may take besides incidents (email never carries them): a unit's change of
 * occupancy, a run's end (lib/notifications/events.ts).
 */
export const EVENT_KINDS = {
  unit_state: {
    name: 'Unit occupancy changes',
    help: 'Each change of a unit’s state (notice, move-out, make-ready, move-in scheduled or made), by whom, with its run.',
  },
  run_finished: {
    name: 'Runs finished',
    help: 'Each run (a turnover, a template, a bulk change, an undo) when it ends, with how many thermostats it changed or failed.',
  },
} as const;

export type EventKind = keyof typeof EVENT_KINDS;

export const EVENT_KIND_NAMES = Object.keys(EVENT_KINDS) as EventKind[];

/** What a webhook may take: an incident kind or an event kind. */
export const isWebhookKind = (value: unknown): value is IncidentKind | EventKind =>
  isIncidentKind(value) || (typeof value === 'string' && Object.hasOwn(EVENT_KINDS, value));
