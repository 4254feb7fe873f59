import type { HvacMode, ThermostatStatus } from '@/lib/service/schemas';
import { todayIn } from '@/lib/platform/time-format';
import type { DriftWords } from '@/lib/templates/drift-words';

/**
 * What needs a property manager's attention, computed from what Setpoint already knows: the
 * stored readings and their history, the maintenance reminders read on a slow cycle, the activity
 * log and the connection. Pure functions of those facts and `now`, so the needs-attention page,
 * the overview's count and (later) the notifications' incidents all agree on one set of rules.
 *
 * Temperatures are °F, as the service speaks them.
 */

/** Freeze risk below this, whatever the setpoints or mode: pipes and people are at risk. */
export const FREEZE_BELOW_F = 45;
/** Overheating above this, whatever the setpoints or mode. */
export const OVERHEAT_ABOVE_F = 90;
/**
 * Outside the comfort band: more than this below the heat setpoint or above the cool setpoint.
 * A system works to within a degree or so, and the service adds a second stage from 3 °F away;
 * further than that, it is not keeping up.
 */
export const COMFORT_MARGIN_F = 3;
/**
 * ...for at least this long, as the readings show: a schedule's step from an unoccupied to an
 * occupied setpoint (6-8 °F) leaves a unit outside the band while it recovers, which takes a
 * system in good order well under an hour.
 */
export const COMFORT_SUSTAIN_MS = 60 * 60_000;
/**
 * How far back the comfort band's history is read: "for over 3 h" says enough, and at 1,500
 * thermostats in a cold snap every point read costs the page (150 of them outside their band,
 * read every 5 min: 5,400 points).
 */
export const COMFORT_HISTORY_MS = 3 * 60 * 60_000;
/** A mode change shows in status within seconds; pending this long, it is not taking effect. */
export const MODE_PENDING_MS = 15 * 60_000;
/** Maintenance this close is listed as due, so there is time to book a technician. */
export const MAINTENANCE_DUE_WITHIN_DAYS = 7;
/** Failed writes are listed for this long, unless the same change succeeded since. */
export const FAILED_WRITES_WINDOW_MS = 24 * 60 * 60_000;
/**
 * Readings are out of date when older than three times the freshness the poller can achieve
 * (three rounds missed is a pattern, one is a hiccup), and never sooner than this.
 */
export const STALE_FLOOR_MS = 30 * 60_000;
export const STALE_FACTOR = 3;

export type Severity = 'urgent' | 'warning' | 'notice';

/** Every kind of item, in order of urgency, with how it is grouped for the page's filter. */
export const ATTENTION_KINDS = {
  freeze: { severity: 'urgent', group: 'temperature' },
  overheat: { severity: 'urgent', group: 'temperature' },
  connection_ended: { severity: 'urgent', group: 'connection' },
  not_connected: { severity: 'urgent', group: 'connection' },
  offline: { severity: 'warning', group: 'offline' },
  too_cold: { severity: 'warning', group: 'temperature' },
  too_hot: { severity: 'warning', group: 'temperature' },
  mode_pending: { severity: 'warning', group: 'mode' },
  failed_writes: { severity: 'warning', group: 'failed' },
  vacant_unsettled: { severity: 'warning', group: 'units' },
  connection_expiring: { severity: 'warning', group: 'connection' },
  move_out_passed: { severity: 'notice', group: 'units' },
  stale: { severity: 'notice', group: 'stale' },
  maintenance_overdue: { severity: 'notice', group: 'maintenance' },
  maintenance_due: { severity: 'notice', group: 'maintenance' },
  template_drift: { severity: 'notice', group: 'template' },
} as const satisfies Record<string, { severity: Severity; group: string }>;

export type AttentionKind = keyof typeof ATTENTION_KINDS;
export type AttentionGroup = (typeof ATTENTION_KINDS)[AttentionKind]['group'];

/** The filter's groups, in the order the page offers them, with their names. */
export const ATTENTION_GROUPS: Record<AttentionGroup, string> = {
  temperature: 'Temperature',
  offline: 'Offline',
  mode: 'Mode change not taking effect',
  failed: 'Failed changes',
  maintenance: 'Maintenance',
  stale: 'Readings out of date',
  template: 'Differs from its template',
  units: 'Units: settings and move-outs',
  connection: 'Service connection',
};

const RANK = new Map(Object.keys(ATTENTION_KINDS).map((kind, index) => [kind, index]));

type OnThermostat = { thermostatId: string; buildingId: string };
type Whole = { thermostatId: null; buildingId: null };

/** One thing that needs attention. `since`: when it began, where known. */
export type AttentionItem =
  | (OnThermostat & {
      kind: 'freeze' | 'overheat';
      temperature: number;
      /** The thermostat is offline: this is its temperature when last seen. */
      lastKnown: boolean;
      /** What was running at that reading (the service's names); absent where it did not say. */
      running?: string[] | null;
      since: null;
    })
  | (OnThermostat & {
      kind: 'too_cold' | 'too_hot';
      temperature: number;
      setpoint: number;
      mode: HvacMode | null;
      /** What was running at the latest reading (the service's names); absent where unknown. */
      running?: string[] | null;
      since: Date;
      /** It may have begun earlier than `since`: the history read does not go further back. */
      orEarlier: boolean;
    })
  | (OnThermostat & {
      kind: 'offline';
      since: Date | null;
      /**
       * Whether Setpoint saw it connected at `since` (else `since` is when it first read it
       * offline: it may have gone quiet long before). Absent in incidents recorded before.
       */
      seen?: boolean;
    })
  | (OnThermostat & { kind: 'mode_pending'; from: HvacMode | null; to: HvacMode; since: Date })
  | (OnThermostat & {
      kind: 'maintenance_due' | 'maintenance_overdue';
      /** `YYYY-MM-DD`. */
      due: string;
      /** Days from today (in the building's zone) to the due date: negative when overdue. */
      days: number;
      since: null;
    })
  | (OnThermostat & {
      kind: 'failed_writes';
      count: number;
      last: { at: Date; summary: string; error: string | null };
      since: Date;
    })
  | (OnThermostat & {
      kind: 'stale';
      /** The last good reading; null when it was never read. */
      readAt: Date | null;
      addedAt: Date;
      /** Why the last attempt failed (a service error kind), if it did. */
      failure: string | null;
      /** What the poller can achieve, for the words. */
      achievableMs: number;
      since: Date;
    })
  | (OnThermostat & {
      kind: 'template_drift';
      templateId: string;
      templateName: string;
      /** What differs, in words in each unit, as the last check found it (lib/templates/drift). */
      differs: DriftWords;
      /** When a check first found it differing (it began since the check before); null: unknown. */
      since: Date | null;
    })
  | (OnThermostat & {
      kind: 'vacant_unsettled';
      unitId: string;
      /** The unit's state: vacant or make-ready. */
      state: 'vacant' | 'make_ready';
      /** Why it is not known to be in its settings: its run's words, a change since, no run. */
      detail: string;
      runId: string | null;
      since: Date | null;
    })
  | (OnThermostat & {
      kind: 'move_out_passed';
      unitId: string;
      /** The move-out day given with the notice (`YYYY-MM-DD`, the building's calendar). */
      moveOutOn: string;
      since: null;
    })
  | (Whole & { kind: 'connection_ended' | 'not_connected'; since: null })
  | (Whole & { kind: 'connection_expiring'; expiresAt: Date; since: null });

export const severityOf = (item: { kind: AttentionKind }): Severity =>
  ATTENTION_KINDS[item.kind].severity;
export const groupOf = (item: { kind: AttentionKind }): AttentionGroup =>
  ATTENTION_KINDS[item.kind].group;

// --- Temperature ------------------------------------------------------------------------------

/** What the band needs of a reading or a point of history. */
export type BandPoint = {
  at: Date;
  temperature: number | null;
  desiredHeat: number | null;
  desiredCool: number | null;
  hvacMode: string | null;
};

/**
 * Which way a point is outside the comfort band, if it is. A thermostat set to off keeps no band
 * (only freeze and overheat apply); in any other mode both setpoints are the comfort it should
 * give, so a unit left in cool on a winter night is too cold all the same.
 */
export function bandBreach(point: BandPoint): 'cold' | 'hot' | null {
  if (point.temperature === null || point.hvacMode === 'off') return null;
  if (point.desiredHeat !== null && point.temperature < point.desiredHeat - COMFORT_MARGIN_F) {
    return 'cold';
  }
  if (point.desiredCool !== null && point.temperature > point.desiredCool + COMFORT_MARGIN_F) {
    return 'hot';
  }
  return null;
}

/**
 * Since when the latest point has been outside the band the same way: the oldest point of the
 * unbroken run that ends with it (history oldest first; the latest reading may or may not be in
 * it). `orEarlier` when the run reaches back to the first point given.
 */
export function breachSince(
  latest: BandPoint,
  history: BandPoint[],
): { breach: 'cold' | 'hot'; since: Date; orEarlier: boolean } | null {
  const breach = bandBreach(latest);
  if (!breach) return null;
  const points = history.filter((point) => point.at.getTime() < latest.at.getTime());
  let since = latest.at;
  for (let index = points.length - 1; index >= 0; index--) {
    const point = points[index] as BandPoint;
    if (bandBreach(point) !== breach) return { breach, since, orEarlier: false };
    since = point.at;
  }
  return { breach, since, orEarlier: points.length > 0 };
}

/**
 * Freeze risk and overheating at once, from the latest reading, in any mode (of an offline
 * thermostat, from its last known temperature). Too cold or too hot once the readings show it
 * outside the band for COMFORT_SUSTAIN_MS, while it is online.
 */
export function temperatureCondition(input: {
  thermostat: OnThermostat;
  status: ThermostatStatus;
  readAt: Date;
  history: BandPoint[];
}): AttentionItem | null {
  const { status, thermostat } = input;
  const temperature = status.temperature;
  if (typeof temperature !== 'number') return null;
  const lastKnown = status.connected === false;
  const running = status.runningEquipment;
  if (temperature < FREEZE_BELOW_F) {
    return { ...thermostat, kind: 'freeze', temperature, lastKnown, running, since: null };
  }
  if (temperature > OVERHEAT_ABOVE_F) {
    return { ...thermostat, kind: 'overheat', temperature, lastKnown, running, since: null };
  }
  // An offline thermostat's temperature stands still: no run of readings proves anything.
  if (lastKnown) return null;
  const latest: BandPoint = {
    at: input.readAt,
    temperature,
    desiredHeat: status.setPoint.desiredHeat,
    desiredCool: status.setPoint.desiredCool,
    hvacMode: status.hvacMode ?? null,
  };
  const run = breachSince(latest, input.history);
  if (!run || input.readAt.getTime() - run.since.getTime() < COMFORT_SUSTAIN_MS) return null;
  return {
    ...thermostat,
    kind: run.breach === 'cold' ? 'too_cold' : 'too_hot',
    temperature,
    setpoint: run.breach === 'cold' ? status.setPoint.desiredHeat : status.setPoint.desiredCool,
    mode: status.hvacMode ?? null,
    running,
    since: run.since,
    orEarlier: run.orEarlier,
  };
}

// --- Offline, pending mode ----------------------------------------------------------------------

/**
 * Offline when the service says the thermostat is not connected; since Setpoint last saw it
 * connected (or, never seen so, first saw it offline): the service says nothing of when.
 */
export function offlineCondition(input: {
  thermostat: OnThermostat;
  status: ThermostatStatus;
  offlineSince: Date | null;
  seenConnected: boolean;
}): AttentionItem | null {
  if (input.status.connected !== false) return null;
  return {
    ...input.thermostat,
    kind: 'offline',
    since: input.offlineSince,
    seen: input.seenConnected,
  };
}

/**
 * A mode Setpoint asked for (`pending`, since when it asked) that the latest reading still does
 * not show MODE_PENDING_MS later.
 */
export function pendingModeCondition(input: {
  thermostat: OnThermostat;
  status: ThermostatStatus;
  readAt: Date;
  pending: { mode: string; since: Date } | null;
}): AttentionItem | null {
  const { pending } = input;
  if (!pending || pending.mode === input.status.hvacMode) return null;
  const to = pending.mode;
  const since = pending.since;
  if (input.readAt.getTime() - since.getTime() < MODE_PENDING_MS) return null;
  return {
    ...input.thermostat,
    kind: 'mode_pending',
    from: input.status.hvacMode ?? null,
    to,
    since,
  };
}

// --- Maintenance --------------------------------------------------------------------------------

/** Today's date (`YYYY-MM-DD`) in a building's time zone (UTC if the zone is unknown). */
export function dateIn(timeZone: string, now: Date): string {
  try {
    return todayIn(timeZone, now);
  } catch {
    return todayIn('UTC', now);
  }
}

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);

/**
 * Maintenance overdue once its date has passed in the building's zone, and due from
 * MAINTENANCE_DUE_WITHIN_DAYS before it (its day included). Nothing when the reminder is off.
 */
export function maintenanceCondition(input: {
  thermostat: OnThermostat;
  reminder: { enabled: boolean | null; nextReminderDate: string | null } | null;
  today: string;
}): AttentionItem | null {
  const due = input.reminder?.enabled ? input.reminder.nextReminderDate : null;
  if (!due || !/^\d{4}-\d\d-\d\d$/.test(due)) return null;
  const days = dayNumber(due) - dayNumber(input.today);
  if (Number.isNaN(days) || days > MAINTENANCE_DUE_WITHIN_DAYS) return null;
  return {
    ...input.thermostat,
    kind: days < 0 ? 'maintenance_overdue' : 'maintenance_due',
    due,
    days,
    since: null,
  };
}

// --- Failed writes, stale readings ----------------------------------------------------------------

/** Changes to this thermostat that failed in the last day and have not succeeded since. */
export function failedWritesCondition(input: {
  thermostat: OnThermostat;
  failed: { count: number; first: Date; last: { at: Date; summary: string; error: string | null } };
}): AttentionItem | null {
  if (input.failed.count < 1) return null;
  return {
    ...input.thermostat,
    kind: 'failed_writes',
    count: input.failed.count,
    last: input.failed.last,
    since: input.failed.first,
  };
}

/** How old a reading may grow before it is out of date, given what the poller can achieve. */
export function staleAfterMs(achievableMs: number): number {
  return Math.max(STALE_FACTOR * achievableMs, STALE_FLOOR_MS);
}

/**
 * A thermostat not read for far longer than the poller can achieve (or never read since it was
 * added that long ago). Only while the poller is on (a target above 0) and the connection is
 * active: otherwise nothing promised freshness, or the connection's own item says why.
 */
export function staleCondition(input: {
  thermostat: OnThermostat;
  reading: { readAt: Date | null; failure: string | null } | null;
  addedAt: Date;
  now: Date;
  freshness: { targetMs: number; achievableMs: number };
  connectionActive: boolean;
}): AttentionItem | null {
  if (!input.connectionActive || input.freshness.targetMs <= 0) return null;
  const limit = staleAfterMs(input.freshness.achievableMs);
  const readAt = input.reading?.readAt ?? null;
  const since = readAt ?? input.addedAt;
  if (input.now.getTime() - since.getTime() <= limit) return null;
  return {
    ...input.thermostat,
    kind: 'stale',
    readAt,
    addedAt: input.addedAt,
    failure: input.reading?.failure ?? null,
    achievableMs: input.freshness.achievableMs,
    since,
  };
}

// --- Template drift ------------------------------------------------------------------------------

export type DriftFacts = {
  templateId: string;
  templateName: string;
  differs: DriftWords;
  /** When a check first found it differing; null when not known. */
  since: Date | null;
} | null;

/**
 * The template a run last applied to the thermostat no longer matches it, as the slow-cycle check
 * last found (access control aside: the service cannot read it).
 */
export function driftCondition(input: {
  thermostat: OnThermostat;
  drift: DriftFacts;
}): AttentionItem | null {
  const { drift } = input;
  if (!drift || drift.differs.F.length === 0) return null;
  return {
    ...input.thermostat,
    kind: 'template_drift',
    templateId: drift.templateId,
    templateName: drift.templateName,
    differs: drift.differs,
    since: drift.since,
  };
}

// --- The connection -------------------------------------------------------------------------------

export type ConnectionFacts = {
  status: 'active' | 'reconnect';
  refreshTokenExpiresAt: Date;
  refreshTokenExpiresSoon: boolean;
} | null;

/**
 * The organisation's connection: ended (the service refused its refresh token), about to run
 * out, or missing while there are thermostats to read.
 */
export function connectionCondition(input: {
  connection: ConnectionFacts;
  hasThermostats: boolean;
}): AttentionItem | null {
  const whole = { thermostatId: null, buildingId: null, since: null } as const;
  const { connection } = input;
  if (!connection) return input.hasThermostats ? { ...whole, kind: 'not_connected' } : null;
  if (connection.status === 'reconnect') return { ...whole, kind: 'connection_ended' };
  if (connection.refreshTokenExpiresSoon) {
    return { ...whole, kind: 'connection_expiring', expiresAt: connection.refreshTokenExpiresAt };
  }
  return null;
}

// --- One thermostat, all of it ---------------------------------------------------------------------

/** Everything known about one thermostat that the conditions read. */
export type ThermostatFacts = OnThermostat & {
  /** The building's time zone, for maintenance dates. */
  timeZone: string;
  addedAt: Date;
  reading: { status: ThermostatStatus | null; readAt: Date | null; failure: string | null } | null;
  /** Offline: since Setpoint last saw it connected, or first saw it offline. */
  offlineSince?: Date | null;
  /** Whether Setpoint saw it connected at `offlineSince`. */
  seenConnected?: boolean;
  /** Recent history for the comfort band, oldest first (may be empty). */
  history: BandPoint[];
  pending: { mode: string; since: Date } | null;
  reminder: { enabled: boolean | null; nextReminderDate: string | null } | null;
  failed: {
    count: number;
    first: Date;
    last: { at: Date; summary: string; error: string | null };
  } | null;
  /** What differs from its template, if it has one and differs. */
  drift?: DriftFacts;
};

export type FleetFacts = {
  now: Date;
  connection: ConnectionFacts;
  freshness: { targetMs: number; achievableMs: number };
};

/** Every item of one thermostat. */
export function thermostatConditions(facts: ThermostatFacts, fleet: FleetFacts): AttentionItem[] {
  const thermostat = { thermostatId: facts.thermostatId, buildingId: facts.buildingId };
  const items: (AttentionItem | null)[] = [];
  const status = facts.reading?.status ?? null;
  const readAt = facts.reading?.readAt ?? null;
  if (status && readAt) {
    items.push(
      temperatureCondition({ thermostat, status, readAt, history: facts.history }),
      offlineCondition({
        thermostat,
        status,
        offlineSince: facts.offlineSince ?? null,
        seenConnected: facts.seenConnected ?? true,
      }),
      pendingModeCondition({ thermostat, status, readAt, pending: facts.pending }),
    );
  }
  items.push(
    maintenanceCondition({
      thermostat,
      reminder: facts.reminder,
      today: dateIn(facts.timeZone, fleet.now),
    }),
    facts.failed ? failedWritesCondition({ thermostat, failed: facts.failed }) : null,
    staleCondition({
      thermostat,
      reading: facts.reading,
      addedAt: facts.addedAt,
      now: fleet.now,
      freshness: fleet.freshness,
      connectionActive: fleet.connection?.status === 'active',
    }),
    driftCondition({ thermostat, drift: facts.drift ?? null }),
  );
  return items.filter((item): item is AttentionItem => item !== null);
}

/**
 * Most urgent first: by kind (freeze before offline before maintenance ...), then the longest
 * standing, then maintenance by how overdue, then by `tieBreak` (e.g. building and unit label).
 */
export function compareUrgency<T extends AttentionItem>(tieBreak: (item: T) => string = () => '') {
  return (a: T, b: T): number => {
    const rank = (RANK.get(a.kind) ?? 99) - (RANK.get(b.kind) ?? 99);
    if (rank !== 0) return rank;
    const since = (item: T) => item.since?.getTime() ?? Number.POSITIVE_INFINITY;
    if (since(a) !== since(b)) return since(a) < since(b) ? -1 : 1;
    const days = (item: T) => ('days' in item ? item.days : 0);
    if (days(a) !== days(b)) return days(a) - days(b);
    return tieBreak(a).localeCompare(tieBreak(b));
  };
}
