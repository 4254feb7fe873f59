import 'server-only';
import { and, asc, desc, eq, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { buildings, incidents, notifications, thermostats } from '@/lib/db/schema';
import type { Scope } from '@/lib/db/scope';

import {
  buildingOfIncident,
  incidentColumns,
  type IncidentRow,
  json,
  type NotificationEvent,
  type NotificationStatus,
  thermostatOfIncident,
} from './rows';

/**
 * What members read of notifications: the incidents a scope may know of, a page at a time and
 * counted, and the delivery log. Every read takes the organisation and, for incidents, the scope.
 */

/**
 * The incidents a scope may know of (lib/notifications/fan-out.ts, `mayKnow`): those whose every
 * building is in it, and a failed run that failed in any of its buildings (read as its share).
 */
function incidentsInScope(scope: Scope): SQL | undefined {
  return and(
    eq(incidents.orgId, scope.orgId),
    scope.buildingIds === null
      ? undefined
      : or(
          sql`${incidents.buildingIds} <@ ${json(scope.buildingIds)}`,
          and(
            eq(incidents.kind, 'run_failed'),
            sql`exists (select 1 from jsonb_array_elements_text(${incidents.buildingIds}) b
              where ${json(scope.buildingIds)} @> to_jsonb(b.value))`,
          ),
        ),
  );
}

/**
 * Which incidents a list shows: of one kind, concerning one building, of these thermostats (a
 * unit's, across its replacements); each optional.
 */
export type IncidentFilter = { kind?: string; buildingId?: string; thermostatIds?: string[] };

/**
 * The incidents people were told of in the scope, open ones and those resolved since
 * `resolvedSince`, narrowed by `filter`: a building's are those that concern it (a failed bulk
 * change concerns each of its buildings).
 */
function listedIncidents(input: {
  scope: Scope;
  resolvedSince: Date;
  filter?: IncidentFilter;
}): SQL | undefined {
  const { kind, buildingId, thermostatIds } = input.filter ?? {};
  return and(
    incidentsInScope(input.scope),
    isNotNull(incidents.notifiedAt),
    or(
      sql`${incidents.resolvedAt} is null`,
      sql`${incidents.resolvedAt} > ${input.resolvedSince.toISOString()}::timestamptz`,
    ),
    kind ? eq(incidents.kind, kind) : undefined,
    buildingId ? sql`${incidents.buildingIds} @> ${json([buildingId])}` : undefined,
    thermostatIds ? inArray(incidents.thermostatId, thermostatIds) : undefined,
  );
}

/** Those incidents, open ones first, then newest first; a page of them with `offset`. */
export async function listIncidents(input: {
  scope: Scope;
  resolvedSince: Date;
  filter?: IncidentFilter;
  offset?: number;
  limit?: number;
}): Promise<IncidentRow[]> {
  const db = await getDb();
  const rows = await db
    .select(incidentColumns)
    .from(incidents)
    .leftJoin(thermostats, thermostatOfIncident)
    .leftJoin(buildings, buildingOfIncident)
    .where(listedIncidents(input))
    .orderBy(sql`${incidents.resolvedAt} is not null`, desc(incidents.openedAt), asc(incidents.id))
    .offset(input.offset ?? 0)
    .limit(input.limit ?? 200);
  return rows as IncidentRow[];
}

/** How many incidents `listIncidents` would list in all, and how many of them are open. */
export async function countIncidents(input: {
  scope: Scope;
  resolvedSince: Date;
  filter?: IncidentFilter;
}): Promise<{ total: number; open: number }> {
  const db = await getDb();
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      open: sql<number>`(count(*) filter (where ${incidents.resolvedAt} is null))::int`,
    })
    .from(incidents)
    .where(listedIncidents(input));
  return { total: Number(row?.total ?? 0), open: Number(row?.open ?? 0) };
}

export type LogEntry = {
  id: string;
  createdAt: Date;
  event: NotificationEvent;
  channel: 'email' | 'webhook';
  recipient: string;
  status: NotificationStatus;
  attempts: number;
  lastError: string | null;
  notBefore: Date | null;
  sentAt: Date | null;
  incident: IncidentRow | null;
  /** A unit's change or a run's end, as its webhook carries it. */
  payload: Record<string, unknown> | null;
};

/**
 * The delivery log, newest first: the organisation's (an owner's or admin's view), or one
 * member's own notices (`member`), without those of incidents in buildings no longer in their
 * scope (as the incident list).
 */
export async function listDeliveryLog(input: {
  orgId: string;
  member?: Scope;
  offset?: number;
  limit?: number;
}): Promise<LogEntry[]> {
  const member = input.member;
  const db = await getDb();
  const rows = await db
    .select({
      id: notifications.id,
      createdAt: notifications.createdAt,
      event: notifications.event,
      channel: notifications.channel,
      recipient: notifications.recipient,
      status: notifications.status,
      attempts: notifications.attempts,
      lastError: notifications.lastError,
      notBefore: notifications.notBefore,
      sentAt: notifications.sentAt,
      payload: notifications.payload,
      incident: incidentColumns,
    })
    .from(notifications)
    .leftJoin(incidents, eq(incidents.id, notifications.incidentId))
    .leftJoin(thermostats, thermostatOfIncident)
    .leftJoin(buildings, buildingOfIncident)
    .where(
      and(
        eq(notifications.orgId, input.orgId),
        member ? eq(notifications.userId, member.userId) : undefined,
        member ? or(isNull(incidents.id), incidentsInScope(member)) : undefined,
      ),
    )
    .orderBy(desc(notifications.createdAt), asc(notifications.id))
    .offset(input.offset ?? 0)
    .limit(input.limit ?? 100);
  return rows.map((row) => ({
    ...row,
    incident: row.incident?.id ? (row.incident as IncidentRow) : null,
  }));
}
