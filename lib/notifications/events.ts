import 'server-only';
import { getEnv } from '@/lib/platform/env';
import { queueNotices } from './delivery';
import { displayUrl, wants } from './fan-out';
import {
  type FinishedRunRow,
  fanOutFinishedRuns,
  fanOutUnitEvents,
  type OutboundEvent,
  type UnitEventRow,
} from './store/outbound';

/**
 * Webhooks of a unit's change of occupancy (`unit.state_changed`) and of a run's end
 * (`run.finished`), for endpoints that asked for them in their buildings: the reconcile job asks
 * here every round, the store reads what is new since it last told (lib/notifications/store/
 * outbound.ts), and each notice is delivered, signed and retried, as an incident's is.
 */

const appUrl = () => getEnv().NEXTAUTH_URL;

function unitStateEvent(row: UnitEventRow): OutboundEvent {
  return {
    orgId: row.orgId,
    kind: 'unit_state',
    buildingIds: [row.buildingId],
    data: {
      unit: {
        id: row.unitId,
        label: row.label,
        externalId: row.externalId,
        buildingId: row.buildingId,
      },
      event: row.event,
      from: row.fromState,
      to: row.toState,
      at: row.at.toISOString(),
      by: row.actorName,
      moveOutOn: typeof row.detail.moveOutOn === 'string' ? row.detail.moveOutOn : null,
      moveInAt: typeof row.detail.moveInAt === 'string' ? row.detail.moveInAt : null,
      runId: row.runId,
      link: new URL(`/units/${row.unitId}`, appUrl()).toString(),
    },
  };
}

function finishedRunEvent(run: FinishedRunRow): OutboundEvent {
  return {
    orgId: run.orgId,
    kind: 'run_finished',
    buildingIds: run.buildingIds,
    data: {
      run: {
        id: run.id,
        kind: run.kind,
        title: run.title,
        state: run.state,
        startedBy: run.startedByName,
        createdAt: run.createdAt.toISOString(),
        finishedAt: run.finishedAt?.toISOString() ?? null,
        counts: {
          total: run.total,
          applied: run.applied,
          failed: run.failed + run.unconfirmed,
          notSent: run.notSent,
          cancelled: run.cancelled,
        },
        buildingIds: run.buildingIds,
      },
    },
  };
}

/** The notice of an event for an endpoint, if it asked for this kind in these buildings. */
function noticeOf(
  event: OutboundEvent,
  endpoint: {
    id: string;
    url: string;
    kinds: string[];
    buildingIds: string[] | null;
    status: string;
  },
) {
  if (!wants(endpoint, { kind: event.kind, buildingIds: event.buildingIds })) return null;
  return {
    orgId: event.orgId,
    event: event.kind,
    channel: 'webhook' as const,
    endpointId: endpoint.id,
    recipient: displayUrl(endpoint.url),
    status: endpoint.status === 'paused' ? ('paused' as const) : ('pending' as const),
    payload: { kind: event.kind, buildingIds: event.buildingIds, ...event.data },
  };
}

/** One round: what is new of both streams, made into notices and queued. */
export async function sendEventWebhooks(now = new Date()): Promise<{ notices: number }> {
  const units = await fanOutUnitEvents({ now, toEvent: unitStateEvent, noticeOf });
  const runs = await fanOutFinishedRuns({ now, toEvent: finishedRunEvent, noticeOf });
  await queueNotices([...units, ...runs]);
  return { notices: units.length + runs.length };
}
