import type { AttentionItem, Severity } from '@/lib/attention/conditions';
import type { INCIDENT_RESOLUTIONS } from '@/lib/db/schema';
import {
  type IncidentKind,
  incidentKindOf,
  isIncidentKind,
  type Rules,
  SUPERSEDED_BY,
  severityOfKind,
} from './kinds';

/**
 * Incidents from what needs attention now: one per cause, opened when the cause appears,
 * announced once it has stood for its rule's delay, resolved when it goes. Pure: the reconcile
 * job (lib/notifications/incidents.ts) feeds it the needs-attention items and failed runs of an
 * organisation and the incidents it has open, and writes what it plans.
 */

/** Something that needs attention now, as an incident would record it. */
export type Cause = {
  kind: IncidentKind;
  /** What it is about within its kind: a thermostat id, a run id, '' for the organisation. */
  subject: string;
  thermostatId: string | null;
  runId: string | null;
  buildingId: string | null;
  /** Every building it concerns ([] for the whole organisation). */
  buildingIds: string[];
  /** When it began, where known. */
  since: Date | null;
  /** What the words are made of (JSON). */
  facts: Record<string, unknown>;
};

export type OpenIncident = {
  id: string;
  kind: string;
  subject: string;
  openedAt: Date;
  notifiedAt: Date | null;
};

export type Resolution = (typeof INCIDENT_RESOLUTIONS)[number];

export type ReconcilePlan = {
  /** New incidents; `notify`: people are told now (the delay has passed already). */
  open: (Cause & { severity: Severity; openedAt: Date; notify: boolean })[];
  /** Open incidents whose cause stands: their facts refreshed, announced once due. */
  keep: { id: string; cause: Cause; notify: boolean }[];
  /** Open incidents whose cause went; `notify`: a resolved notice goes to those told of it. */
  resolve: { id: string; resolution: Resolution; notify: boolean }[];
};

const keyOf = (cause: { kind: string; subject: string }) => `${cause.kind}\u0000${cause.subject}`;

export function planReconcile(input: {
  causes: readonly Cause[];
  open: readonly OpenIncident[];
  rules: Rules;
  now: Date;
  /** Why an incident's cause went, where something other than "it cleared" is known. */
  whyGone?: (incident: OpenIncident) => Resolution | null;
}): ReconcilePlan {
  const { rules, now } = input;
  const due = (kind: IncidentKind, openedAt: Date) =>
    now.getTime() - openedAt.getTime() >= rules[kind].delayMinutes * 60_000;
  const current = new Map<string, Cause>();
  for (const cause of input.causes) {
    if (rules[cause.kind].enabled && !current.has(keyOf(cause))) current.set(keyOf(cause), cause);
  }
  const plan: ReconcilePlan = { open: [], keep: [], resolve: [] };
  const stillOpen = new Set<string>();
  for (const incident of input.open) {
    const cause = current.get(keyOf(incident));
    if (cause && isIncidentKind(incident.kind)) {
      stillOpen.add(keyOf(incident));
      plan.keep.push({
        id: incident.id,
        cause,
        notify: incident.notifiedAt === null && due(cause.kind, incident.openedAt),
      });
      continue;
    }
    const resolution = resolutionOf(incident, current, rules, input.whyGone);
    plan.resolve.push({
      id: incident.id,
      resolution,
      notify: resolution === 'cleared' && incident.notifiedAt !== null,
    });
  }
  for (const [key, cause] of current) {
    if (stillOpen.has(key)) continue;
    const openedAt = cause.since && cause.since < now ? cause.since : now;
    plan.open.push({
      ...cause,
      severity: severityOfKind(cause.kind),
      openedAt,
      notify: due(cause.kind, openedAt),
    });
  }
  return plan;
}

function resolutionOf(
  incident: OpenIncident,
  current: Map<string, Cause>,
  rules: Rules,
  whyGone: ((incident: OpenIncident) => Resolution | null) | undefined,
): Resolution {
  if (!isIncidentKind(incident.kind) || !rules[incident.kind].enabled) return 'rule_off';
  const graver = SUPERSEDED_BY[incident.kind] ?? [];
  if (graver.some((kind) => current.has(keyOf({ kind, subject: incident.subject })))) {
    return 'superseded';
  }
  return whyGone?.(incident) ?? 'cleared';
}

/** The causes of needs-attention items (those of a kind that makes incidents). */
export function causesOfItems(items: readonly AttentionItem[]): Cause[] {
  return items.flatMap((item) => {
    const kind = incidentKindOf(item.kind);
    if (!kind) return [];
    // A page's item also carries its label and building name: the incident joins those anew.
    const {
      label: _label,
      buildingName: _building,
      ...facts
    } = item as AttentionItem & {
      label?: unknown;
      buildingName?: unknown;
    };
    return [
      {
        kind,
        subject: item.thermostatId ?? '',
        thermostatId: item.thermostatId,
        runId: null,
        buildingId: item.buildingId,
        buildingIds: item.buildingId ? [item.buildingId] : [],
        since: item.since,
        facts: JSON.parse(JSON.stringify(facts)) as Record<string, unknown>,
      },
    ];
  });
}

/** One building's part of a run: its thermostats, and how many of them failed or were not sent. */
export type RunShare = { total: number; failed: number; notSent: number };

/** A bulk run that finished with thermostats failed or not sent, and no retry of it finished. */
export type FailedRun = {
  runId: string;
  total: number;
  applied: number;
  failed: number;
  notSent: number;
  startedByName: string;
  finishedAt: Date;
  /** Its thermostats by the building each was in when the run started. */
  byBuilding: Record<string, RunShare>;
};

/**
 * A failed run concerns the buildings where it failed, not those it reached everywhere: a
 * building manager of one of them is told of their share (`byBuilding`, worded for their scope
 * in lib/notifications/words.ts), and one whose buildings it reached in full is not told.
 */
export function causesOfRuns(runs: readonly FailedRun[]): Cause[] {
  return runs.flatMap((run): Cause[] => {
    const failedIn = Object.entries(run.byBuilding)
      .filter(([, share]) => share.failed + share.notSent > 0)
      .map(([buildingId]) => buildingId)
      .sort();
    // Every failure taken up by a retry: nothing of this run is left to tell (an incident of no
    // building would concern everyone).
    if (failedIn.length === 0) return [];
    return [
      {
        kind: 'run_failed',
        subject: run.runId,
        thermostatId: null,
        runId: run.runId,
        buildingId: failedIn.length === 1 ? (failedIn[0] ?? null) : null,
        buildingIds: failedIn,
        since: run.finishedAt,
        facts: {
          kind: 'run_failed',
          runId: run.runId,
          total: run.total,
          applied: run.applied,
          failed: run.failed,
          notSent: run.notSent,
          startedByName: run.startedByName,
          finishedAt: run.finishedAt.toISOString(),
          byBuilding: run.byBuilding,
        },
      },
    ];
  });
}
