import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '@/lib/db/client';
import {
  buildings,
  incidents,
  type NOTIFICATION_EVENTS,
  type NOTIFICATION_STATES,
  type notificationSubscriptions,
  notifications,
  thermostats,
  type webhookEndpoints,
} from '@/lib/db/schema';

/** What the parts of the notifications' store share: the rows' types and a few helpers. */

export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type NotificationStatus = (typeof NOTIFICATION_STATES)[number];
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];
export type Incident = typeof incidents.$inferSelect;
export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type Subscription = typeof notificationSubscriptions.$inferSelect;

/** Rows per insert, far below PostgreSQL's 65,535 parameters. */
const INSERT_BATCH = 500;

export function batches<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < rows.length; index += INSERT_BATCH) {
    out.push(rows.slice(index, index + INSERT_BATCH));
  }
  return out;
}

export const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

/** A notice as the delivery queue needs it. */
export type QueuedNotice = {
  id: string;
  channel: 'email' | 'webhook';
  userId: string | null;
  endpointId: string | null;
  status: NotificationStatus;
};

export const queuedColumns = {
  id: notifications.id,
  channel: notifications.channel,
  userId: notifications.userId,
  endpointId: notifications.endpointId,
  status: notifications.status,
};

/** An incident as its words need it: its thermostat's label and building as they are now. */
export const incidentColumns = {
  id: incidents.id,
  kind: incidents.kind,
  severity: incidents.severity,
  facts: incidents.facts,
  thermostatId: incidents.thermostatId,
  runId: incidents.runId,
  buildingId: incidents.buildingId,
  buildingIds: incidents.buildingIds,
  label: thermostats.unitLabel,
  buildingName: buildings.name,
  timeZone: buildings.timeZone,
  openedAt: incidents.openedAt,
  notifiedAt: incidents.notifiedAt,
  resolvedAt: incidents.resolvedAt,
  resolution: incidents.resolution,
};

// An incident's thermostat and building, joined to it (either may be gone).
export const thermostatOfIncident = and(
  eq(thermostats.orgId, incidents.orgId),
  eq(thermostats.thermostatId, incidents.thermostatId),
);
export const buildingOfIncident = and(
  eq(buildings.orgId, incidents.orgId),
  eq(buildings.buildingId, incidents.buildingId),
);

export type IncidentRow = {
  id: string;
  kind: string;
  severity: 'urgent' | 'warning' | 'notice';
  facts: Record<string, unknown>;
  thermostatId: string | null;
  runId: string | null;
  buildingId: string | null;
  buildingIds: string[];
  label: string | null;
  buildingName: string | null;
  timeZone: string | null;
  openedAt: Date;
  notifiedAt: Date | null;
  resolvedAt: Date | null;
  resolution: Incident['resolution'];
};

/** Why a notice waiting for its member was not sent: they turned email off. */
export const EMAIL_TURNED_OFF = 'Email notifications were turned off.';
