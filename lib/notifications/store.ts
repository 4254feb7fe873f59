import 'server-only';
import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { NewNotification } from '@/lib/notifications/fan-out';
import { quietUntil } from '@/lib/notifications/quiet-hours';
import type { FailedRun, OpenIncident, ReconcilePlan } from '@/lib/notifications/reconcile';
import { type Database, getDb, rowsOf } from '@/lib/db/client';
import {
  buildings,
  incidents,
  memberBuildings,
  memberships,
  type NOTIFICATION_STATES,
  notificationRules,
  notificationSubscriptions,
  notifications,
  organizations,
  thermostats,
  users,
  webhookEndpoints,
} from '@/lib/db/schema';
import type { Scope } from '@/lib/db/scope';

/**
 * Notifications' SQL: incidents (opened and resolved by the reconcile job), the organisation's
 * rules, members' subscriptions, webhook endpoints, and the notices with their delivery log.
 * Every read of a member's view takes the organisation and, for incidents, the scope; the jobs'
 * writes take the ids of rows they read from the same organisation.
 */

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type NotificationStatus = (typeof NOTIFICATION_STATES)[number];
export type Incident = typeof incidents.$inferSelect;
export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type Subscription = typeof notificationSubscriptions.$inferSelect;

/** Rows per insert, far below PostgreSQL's 65,535 parameters. */
const INSERT_BATCH = 500;

function batches<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < rows.length; index += INSERT_BATCH) {
    out.push(rows.slice(index, index + INSERT_BATCH));
  }
  return out;
}

const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

// --- Reconciling --------------------------------------------------------------------------------

/** Organisations that may have incidents: with thermostats, a connection or one still open. */
export async function listOrganizationsToReconcile(): Promise<{ id: string; name: string }[]> {
  const db = await getDb();
  const result = await db.execute(sql`
    select o.id, o.name from organizations o
    where exists (select 1 from thermostats t where t.org_id = o.id)
      or exists (select 1 from service_connections c where c.org_id = o.id)
      or exists (select 1 from incidents i where i.org_id = o.id and i.resolved_at is null)
    order by o.created_at`);
  return rowsOf<{ id: string; name: string }>(result);
}

export async function listNotificationRules(input: {
  orgId: string;
}): Promise<{ kind: string; enabled: boolean; delayMinutes: number }[]> {
  const db = await getDb();
  return db
    .select({
      kind: notificationRules.kind,
      enabled: notificationRules.enabled,
      delayMinutes: notificationRules.delayMinutes,
    })
    .from(notificationRules)
    .where(eq(notificationRules.orgId, input.orgId));
}

export async function saveNotificationRules(input: {
  orgId: string;
  rules: { kind: string; enabled: boolean; delayMinutes: number }[];
}): Promise<void> {
  if (input.rules.length === 0) return;
  const db = await getDb();
  await db
    .insert(notificationRules)
    .values(input.rules.map((rule) => ({ orgId: input.orgId, ...rule })))
    .onConflictDoUpdate({
      target: [notificationRules.orgId, notificationRules.kind],
      set: {
        enabled: sql`excluded.enabled`,
        delayMinutes: sql`excluded.delay_minutes`,
      },
    });
}

export async function listOpenIncidents(input: { orgId: string }): Promise<OpenIncident[]> {
  const db = await getDb();
  return db
    .select({
      id: incidents.id,
      kind: incidents.kind,
      subject: incidents.subject,
      openedAt: incidents.openedAt,
      notifiedAt: incidents.notifiedAt,
    })
    .from(incidents)
    .where(and(eq(incidents.orgId, input.orgId), sql`${incidents.resolvedAt} is null`));
}

/**
 * Bulk runs of the organisation that finished since `since` with thermostats failed or not sent,
 * each with what became of its retries: none; some, finished or still going, that have not yet
 * taken up everything that failed (`partial`: a building manager retries their buildings'
 * share); or finished retries that took up every thermostat that failed, each reaching them all
 * (`clean`) or not (`failed`), whatever another retry still going does. Its
 * counts are what no finished retry has taken up since: a failure a retry took up is that
 * retry's own, and a failed retry is a failed run of its own.
 */
export async function listFailedRuns(input: {
  orgId: string;
  since: Date;
}): Promise<(FailedRun & { retry: 'none' | 'partial' | 'clean' | 'failed' })[]> {
  const db = await getDb();
  const result = await db.execute(sql`
    with failed_runs as (
      select r.* from bulk_runs r
      where r.org_id = ${input.orgId}::uuid and r.state = 'done' and r.failed + r.not_sent > 0
        and r.finished_at > ${input.since.toISOString()}::timestamptz),
    items as (
      select i.run_id, i.building_id, i.outcome,
        exists (select 1 from bulk_runs x join bulk_run_items j on j.run_id = x.id
          where x.retry_of = i.run_id and x.state = 'done'
            and j.thermostat_id = i.thermostat_id) as retried
      from bulk_run_items i where i.run_id in (select id from failed_runs)),
    shares as (
      select run_id, building_id, count(*)::int as total,
        (count(*) filter (where outcome in ('failed', 'unconfirmed') and not retried))::int as failed,
        (count(*) filter (where outcome = 'not_sent' and not retried))::int as not_sent
      from items group by run_id, building_id)
    select r.id as "runId", r.total, r.applied,
      (select coalesce(sum(s.failed), 0) from shares s where s.run_id = r.id)::int as failed,
      (select coalesce(sum(s.not_sent), 0) from shares s where s.run_id = r.id)::int as "notSent",
      r.started_by_name as "startedByName", r.finished_at as "finishedAt",
      coalesce((select jsonb_object_agg(s.building_id, jsonb_build_object('total', s.total,
          'failed', s.failed, 'notSent', s.not_sent))
        from shares s where s.run_id = r.id), '{}'::jsonb) as "byBuilding",
      (select case
          when count(*) = 0 then 'none'
          when exists (select 1 from shares s
            where s.run_id = r.id and s.failed + s.not_sent > 0) then 'partial'
          -- Every failure taken up by a finished retry: how those ended decides, not another
          -- retry still going over the same thermostats.
          when bool_and(x.failed + x.not_sent = 0) filter (where x.state = 'done') then 'clean'
          else 'failed' end
        from bulk_runs x where x.retry_of = r.id and x.state <> 'cancelled') as retry
    from failed_runs r`);
  return rowsOf<
    Omit<FailedRun, 'finishedAt'> & {
      finishedAt: string | Date;
      retry: 'none' | 'partial' | 'clean' | 'failed';
    }
  >(result).map((row) => ({
    ...row,
    total: Number(row.total),
    applied: Number(row.applied),
    failed: Number(row.failed),
    notSent: Number(row.notSent),
    finishedAt: new Date(row.finishedAt),
  }));
}

/** Which of these thermostats are still in the organisation's portfolio. */
export async function listKnownThermostats(input: {
  orgId: string;
  thermostatIds: string[];
}): Promise<Set<string>> {
  if (input.thermostatIds.length === 0) return new Set();
  const db = await getDb();
  const rows = await db
    .select({ id: thermostats.thermostatId })
    .from(thermostats)
    .where(
      and(
        eq(thermostats.orgId, input.orgId),
        inArray(thermostats.thermostatId, input.thermostatIds),
      ),
    );
  return new Set(rows.map((row) => row.id));
}

/** An event of an incident that people are told of. */
export type PlannedEvent = {
  incidentId: string;
  event: 'opened' | 'resolved';
  kind: string;
  buildingId: string | null;
  buildingIds: string[];
};

/** A notice as the delivery queue needs it. */
export type QueuedNotice = {
  id: string;
  channel: 'email' | 'webhook';
  userId: string | null;
  endpointId: string | null;
  status: NotificationStatus;
};

const queuedColumns = {
  id: notifications.id,
  channel: notifications.channel,
  userId: notifications.userId,
  endpointId: notifications.endpointId,
  status: notifications.status,
};

/**
 * Writes a reconcile plan in one transaction: new incidents, refreshed ones, the ones announced
 * now and the ones resolved, and the notices of every event that people are told of
 * (`fanOut` says who, given who was told of each resolved incident's opening). A cause another
 * worker opened meanwhile is skipped; an incident is announced or resolved once.
 */
export async function applyIncidentPlan(input: {
  orgId: string;
  plan: ReconcilePlan;
  now: Date;
  fanOut: (events: PlannedEvent[], told: Map<string, Set<string>>) => NewNotification[];
}): Promise<{ opened: number; announced: number; resolved: number; notices: QueuedNotice[] }> {
  const db = await getDb();
  const { orgId, plan, now } = input;
  return db.transaction(async (tx) => {
    const events: PlannedEvent[] = [];
    let opened = 0;
    for (const batch of batches(plan.open)) {
      const rows = await tx
        .insert(incidents)
        .values(
          batch.map((cause) => ({
            orgId,
            kind: cause.kind,
            subject: cause.subject,
            thermostatId: cause.thermostatId,
            runId: cause.runId,
            buildingId: cause.buildingId,
            buildingIds: cause.buildingIds,
            severity: cause.severity,
            facts: cause.facts,
            openedAt: cause.openedAt,
            notifiedAt: cause.notify ? now : null,
          })),
        )
        .onConflictDoNothing()
        .returning({
          id: incidents.id,
          kind: incidents.kind,
          buildingId: incidents.buildingId,
          buildingIds: incidents.buildingIds,
          notifiedAt: incidents.notifiedAt,
        });
      opened += rows.length;
      for (const row of rows) {
        if (row.notifiedAt) events.push({ incidentId: row.id, event: 'opened', ...pick(row) });
      }
    }

    if (plan.keep.length > 0) {
      // Only the rows whose facts or building changed are written: most stand still each minute.
      await tx.execute(sql`
        update incidents i set facts = x.facts, building_id = x.building_id,
          building_ids = x.building_ids
        from jsonb_to_recordset(${json(
          plan.keep.map(({ id, cause }) => ({
            id,
            facts: cause.facts,
            building_id: cause.buildingId,
            building_ids: cause.buildingIds,
          })),
        )}) as x(id uuid, facts jsonb, building_id text, building_ids jsonb)
        where i.id = x.id and i.org_id = ${orgId}::uuid and i.resolved_at is null
          and (i.facts is distinct from x.facts or i.building_id is distinct from x.building_id
            or i.building_ids is distinct from x.building_ids)`);
    }
    const announce = plan.keep.filter((entry) => entry.notify).map((entry) => entry.id);
    let announced = 0;
    if (announce.length > 0) {
      const rows = await tx
        .update(incidents)
        .set({ notifiedAt: now })
        .where(
          and(
            eq(incidents.orgId, orgId),
            inArray(incidents.id, announce),
            sql`${incidents.notifiedAt} is null and ${incidents.resolvedAt} is null`,
          ),
        )
        .returning({
          id: incidents.id,
          kind: incidents.kind,
          buildingId: incidents.buildingId,
          buildingIds: incidents.buildingIds,
        });
      announced = rows.length;
      for (const row of rows) events.push({ incidentId: row.id, event: 'opened', ...pick(row) });
    }

    let resolved = 0;
    const told = new Map<string, Set<string>>();
    if (plan.resolve.length > 0) {
      const result = await tx.execute(sql`
        update incidents i set resolved_at = ${now.toISOString()}::timestamptz,
          resolution = x.resolution
        from jsonb_to_recordset(${json(
          plan.resolve.map(({ id, resolution, notify }) => ({ id, resolution, notify })),
        )}) as x(id uuid, resolution text, notify boolean)
        where i.id = x.id and i.org_id = ${orgId}::uuid and i.resolved_at is null
        returning i.id, i.kind, i.building_id as "buildingId", i.building_ids as "buildingIds",
          (x.notify and i.notified_at is not null) as notify`);
      const rows = rowsOf<{
        id: string;
        kind: string;
        buildingId: string | null;
        buildingIds: string[];
        notify: boolean;
      }>(result);
      resolved = rows.length;
      const notify = rows.filter((row) => row.notify);
      for (const row of notify) {
        events.push({ incidentId: row.id, event: 'resolved', ...pick(row) });
      }
      if (notify.length > 0) {
        for (const row of await tx
          .select({
            incidentId: notifications.incidentId,
            userId: notifications.userId,
            endpointId: notifications.endpointId,
          })
          .from(notifications)
          .where(
            and(
              inArray(
                notifications.incidentId,
                notify.map((row) => row.id),
              ),
              eq(notifications.event, 'opened'),
              ne(notifications.status, 'skipped'),
            ),
          )) {
          const keys = told.get(row.incidentId ?? '') ?? new Set<string>();
          keys.add(row.userId ? `user:${row.userId}` : `endpoint:${row.endpointId}`);
          told.set(row.incidentId ?? '', keys);
        }
      }
    }

    const notices = await insertNotices(tx, orgId, input.fanOut(events, told));
    return { opened, announced, resolved, notices };
  });
}

const pick = (row: { kind: string; buildingId: string | null; buildingIds: string[] }) => ({
  kind: row.kind,
  buildingId: row.buildingId,
  buildingIds: row.buildingIds,
});

async function insertNotices(
  tx: Tx,
  orgId: string,
  rows: readonly NewNotification[],
): Promise<QueuedNotice[]> {
  const notices: QueuedNotice[] = [];
  for (const batch of batches(rows)) {
    notices.push(
      ...(await tx
        .insert(notifications)
        .values(batch.map((row) => ({ orgId, ...row })))
        .returning(queuedColumns)),
    );
  }
  return notices;
}

// --- Who is told ----------------------------------------------------------------------------------

/** A member's building ids, in a query grouped by member. */
const memberBuildingIds = sql<
  string[] | null
>`array_remove(array_agg(${memberBuildings.buildingId}), null)`;

export type SubscriberRow = Omit<Subscription, 'orgId' | 'updatedAt' | 'lastDigestDate'> & {
  email: string;
  role: (typeof memberships.$inferSelect)['role'];
  memberBuildingIds: string[];
  temperatureUnit: 'F' | 'C';
};

const subscriberColumns = {
  userId: notificationSubscriptions.userId,
  mode: notificationSubscriptions.mode,
  kinds: notificationSubscriptions.kinds,
  buildingIds: notificationSubscriptions.buildingIds,
  timeZone: notificationSubscriptions.timeZone,
  digestHour: notificationSubscriptions.digestHour,
  quietStart: notificationSubscriptions.quietStart,
  quietEnd: notificationSubscriptions.quietEnd,
  email: users.email,
  temperatureUnit: users.temperatureUnit,
  role: memberships.role,
  memberBuildingIds,
};

/**
 * Members with their subscription, role and buildings as they are now (members only: a removed
 * member's subscription went with their membership). One member with `userId`, or every member
 * of the organisation who is emailed at all.
 */
export async function listSubscribers(input: {
  orgId: string;
  userId?: string;
}): Promise<SubscriberRow[]> {
  const db = await getDb();
  const rows = await db
    .select(subscriberColumns)
    .from(notificationSubscriptions)
    .innerJoin(memberships, eq(memberships.userId, notificationSubscriptions.userId))
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(memberBuildings, eq(memberBuildings.userId, memberships.userId))
    .where(
      and(
        eq(memberships.orgId, input.orgId),
        eq(notificationSubscriptions.orgId, input.orgId),
        input.userId
          ? eq(notificationSubscriptions.userId, input.userId)
          : ne(notificationSubscriptions.mode, 'off'),
      ),
    )
    .groupBy(notificationSubscriptions.userId, users.id, memberships.userId);
  return rows.map((row) => ({ ...row, memberBuildingIds: row.memberBuildingIds ?? [] }));
}

export async function findSubscription(input: {
  orgId: string;
  userId: string;
}): Promise<Subscription | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(notificationSubscriptions)
    .where(
      and(
        eq(notificationSubscriptions.orgId, input.orgId),
        eq(notificationSubscriptions.userId, input.userId),
      ),
    );
  return row ?? null;
}

/** Why a notice waiting for its member was not sent: they turned email off. */
const EMAIL_TURNED_OFF = 'Email notifications were turned off.';

/**
 * Saves a member's subscription. Notices waiting for their digest or the end of quiet hours
 * follow the new choice: sent now when they chose immediate email (held to the end of quiet
 * hours, where they chose those and it is quiet now), moved into the digest when they chose one,
 * dropped (logged as not sent) when they turned email off.
 * Returns the notices to queue now. (Releasing held notices reads the choice again.)
 */
export async function saveSubscription(
  input: Omit<Subscription, 'updatedAt' | 'lastDigestDate'>,
): Promise<QueuedNotice[]> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await tx
      .insert(notificationSubscriptions)
      .values({ ...input, updatedAt: new Date() })
      .onConflictDoUpdate({
        target: notificationSubscriptions.userId,
        set: {
          mode: input.mode,
          kinds: input.kinds,
          buildingIds: input.buildingIds,
          timeZone: input.timeZone,
          digestHour: input.digestHour,
          quietStart: input.quietStart,
          quietEnd: input.quietEnd,
          updatedAt: new Date(),
        },
      });
    const mine = and(
      eq(notifications.orgId, input.orgId),
      eq(notifications.userId, input.userId),
      eq(notifications.channel, 'email'),
    );
    if (input.mode === 'off') {
      await tx
        .update(notifications)
        .set({ status: 'skipped', lastError: EMAIL_TURNED_OFF })
        .where(and(mine, inArray(notifications.status, ['digest', 'held'])));
      return [];
    }
    if (input.mode === 'digest') {
      // Held for quiet hours as immediate email: they go in the digest now.
      await tx
        .update(notifications)
        .set({ status: 'digest', notBefore: null })
        .where(and(mine, eq(notifications.status, 'held')));
      return [];
    }
    const sendNow = (ids: SQL) =>
      tx
        .update(notifications)
        .set({ status: 'pending', notBefore: null, queuedAt: new Date() })
        .where(and(mine, ids))
        .returning(queuedColumns);
    if (input.quietStart === null || input.quietEnd === null) {
      return sendNow(inArray(notifications.status, ['digest', 'held']));
    }
    // Immediate email with quiet hours: what waited for the digest goes now, or, where it is quiet
    // now (in the zone of the notice's building, as for a new notice), when quiet hours end.
    const quiet = { start: input.quietStart, end: input.quietEnd };
    const now = new Date();
    const waiting = await tx
      .select({ id: notifications.id, zone: buildings.timeZone })
      .from(notifications)
      .leftJoin(incidents, eq(incidents.id, notifications.incidentId))
      .leftJoin(
        buildings,
        and(eq(buildings.orgId, incidents.orgId), eq(buildings.buildingId, incidents.buildingId)),
      )
      .where(and(mine, eq(notifications.status, 'digest')));
    const due: string[] = [];
    const heldUntil = new Map<number, string[]>();
    for (const notice of waiting) {
      const until = quietUntil(quiet, notice.zone ?? input.timeZone, now);
      if (until <= now) due.push(notice.id);
      else heldUntil.set(until.getTime(), [...(heldUntil.get(until.getTime()) ?? []), notice.id]);
    }
    for (const [until, ids] of heldUntil) {
      await tx
        .update(notifications)
        .set({ status: 'held', notBefore: new Date(until) })
        .where(and(mine, inArray(notifications.id, ids)));
    }
    return due.length > 0 ? sendNow(inArray(notifications.id, due)) : [];
  });
}

// --- Webhook endpoints ----------------------------------------------------------------------------

export type EndpointListing = Omit<WebhookEndpoint, 'secretSealed'>;

/** Every column but the sealed secret. */
const endpointColumns = {
  id: webhookEndpoints.id,
  orgId: webhookEndpoints.orgId,
  url: webhookEndpoints.url,
  description: webhookEndpoints.description,
  kinds: webhookEndpoints.kinds,
  buildingIds: webhookEndpoints.buildingIds,
  status: webhookEndpoints.status,
  consecutiveFailures: webhookEndpoints.consecutiveFailures,
  lastSuccessAt: webhookEndpoints.lastSuccessAt,
  lastFailureAt: webhookEndpoints.lastFailureAt,
  lastError: webhookEndpoints.lastError,
  createdByName: webhookEndpoints.createdByName,
  createdAt: webhookEndpoints.createdAt,
};

/** The organisation's endpoints, never with their secrets. */
export async function listWebhookEndpoints(input: { orgId: string }): Promise<EndpointListing[]> {
  const db = await getDb();
  return db
    .select(endpointColumns)
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.orgId, input.orgId))
    .orderBy(asc(webhookEndpoints.createdAt));
}

/** One endpoint of the organisation, with its sealed secret (for signing). */
export async function findWebhookEndpoint(input: {
  orgId: string;
  id: string;
}): Promise<WebhookEndpoint | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.orgId, input.orgId), eq(webhookEndpoints.id, input.id)));
  return row ?? null;
}

export async function createWebhookEndpoint(
  input: Pick<
    WebhookEndpoint,
    | 'id'
    | 'orgId'
    | 'url'
    | 'description'
    | 'secretSealed'
    | 'kinds'
    | 'buildingIds'
    | 'createdByName'
  >,
): Promise<EndpointListing> {
  const db = await getDb();
  const [row] = await db.insert(webhookEndpoints).values(input).returning(endpointColumns);
  if (!row) throw new Error('webhook endpoint not created');
  return row;
}

/** Removes an endpoint (and its delivery log); null when it was not the organisation's. */
export async function deleteWebhookEndpoint(input: {
  orgId: string;
  id: string;
}): Promise<EndpointListing | null> {
  const db = await getDb();
  const [row] = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.orgId, input.orgId), eq(webhookEndpoints.id, input.id)))
    .returning(endpointColumns);
  return row ?? null;
}

/** How long notices wait for a paused endpoint: resumed within this, they are sent. */
export const PAUSED_KEPT_MS = 24 * 60 * 60_000;

/**
 * Resumes an endpoint: active again with no failures counted, and the notices that waited for
 * it in the last day pending again (older ones are logged as not sent). Null when it is not the
 * organisation's.
 */
export async function resumeWebhookEndpoint(input: {
  orgId: string;
  id: string;
  now?: Date;
}): Promise<{ endpoint: EndpointListing; notices: QueuedNotice[] } | null> {
  const db = await getDb();
  const kept = new Date((input.now ?? new Date()).getTime() - PAUSED_KEPT_MS);
  return db.transaction(async (tx) => {
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({ status: 'active', consecutiveFailures: 0 })
      .where(and(eq(webhookEndpoints.orgId, input.orgId), eq(webhookEndpoints.id, input.id)))
      .returning(endpointColumns);
    if (!endpoint) return null;
    const paused = and(
      eq(notifications.endpointId, endpoint.id),
      eq(notifications.status, 'paused'),
    );
    await tx
      .update(notifications)
      .set({ status: 'skipped', lastError: 'The endpoint was paused for over a day.' })
      .where(and(paused, sql`${notifications.createdAt} < ${kept.toISOString()}::timestamptz`));
    const notices = await tx
      .update(notifications)
      .set({ status: 'pending', queuedAt: new Date() })
      .where(paused)
      .returning(queuedColumns);
    return { endpoint, notices };
  });
}

/**
 * Counts a delivery attempt against its endpoint: a success makes it active with no failures
 * counted; a failure makes it failing, and paused at `pauseAfter` failures in a row. Returns its
 * state after.
 */
export async function recordEndpointAttempt(input: {
  endpointId: string;
  ok: boolean;
  error?: string;
  pauseAfter: number;
  now?: Date;
}): Promise<{ status: WebhookEndpoint['status']; consecutiveFailures: number } | null> {
  const db = await getDb();
  const at = input.now ?? new Date();
  const [row] = await db
    .update(webhookEndpoints)
    .set(
      input.ok
        ? {
            // A request in flight when the endpoint was paused does not resume it: only an owner
            // or admin does (resumeWebhookEndpoint), which also queues the notices that waited.
            status: sql`case when ${webhookEndpoints.status} = 'paused' then 'paused' else 'active' end`,
            consecutiveFailures: sql`case when ${webhookEndpoints.status} = 'paused' then ${webhookEndpoints.consecutiveFailures} else 0 end`,
            lastSuccessAt: at,
          }
        : {
            consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1`,
            status: sql`case when ${webhookEndpoints.consecutiveFailures} + 1 >= ${input.pauseAfter} then 'paused' else 'failing' end`,
            lastFailureAt: at,
            lastError: input.error ?? null,
          },
    )
    .where(eq(webhookEndpoints.id, input.endpointId))
    .returning({
      status: webhookEndpoints.status,
      consecutiveFailures: webhookEndpoints.consecutiveFailures,
    });
  return row ?? null;
}

// --- Delivery ---------------------------------------------------------------------------------------

/** An incident as its words need it: its thermostat's label and building as they are now. */
const incidentColumns = {
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
const thermostatOfIncident = and(
  eq(thermostats.orgId, incidents.orgId),
  eq(thermostats.thermostatId, incidents.thermostatId),
);
const buildingOfIncident = and(
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

export type DeliveryRow = {
  id: string;
  orgId: string;
  orgName: string;
  event: 'opened' | 'resolved' | 'test';
  channel: 'email' | 'webhook';
  userId: string | null;
  endpointId: string | null;
  recipient: string;
  status: NotificationStatus;
  attempts: number;
  createdAt: Date;
  incident: IncidentRow | null;
};

/** Attempts per notice before it is logged as failed (about an hour of backoff). */
export const MAX_DELIVERY_ATTEMPTS = 8;

/**
 * How long a delivery holds the notices it claimed. Longer than any attempt takes (the mail
 * transport's and the webhook request's timeouts are well under it); released as soon as the
 * attempt's outcome is recorded, and lapsed only when the process stopped mid-attempt.
 */
export const CLAIM_MS = 10 * 60_000;

/** A pending notice no delivery holds now. */
const unclaimed = (at: Date) =>
  sql`(${notifications.claimedUntil} is null or ${notifications.claimedUntil} < ${at.toISOString()}::timestamptz)`;

/**
 * Claims the notices among `ids` still to send, and returns them with their incident and
 * organisation. The claim is one UPDATE, so of two jobs carrying the same notice (queued twice
 * by a race with the sweep, or a job retried while its first run still sends) only one gets it.
 */
export async function listNoticesToDeliver(input: {
  ids: string[];
  now?: Date;
}): Promise<DeliveryRow[]> {
  if (input.ids.length === 0) return [];
  const db = await getDb();
  const at = input.now ?? new Date();
  const claimed = await db
    .update(notifications)
    .set({ claimedUntil: new Date(at.getTime() + CLAIM_MS) })
    .where(
      and(inArray(notifications.id, input.ids), eq(notifications.status, 'pending'), unclaimed(at)),
    )
    .returning({ id: notifications.id });
  if (claimed.length === 0) return [];
  const rows = await db
    .select({
      id: notifications.id,
      orgId: notifications.orgId,
      orgName: organizations.name,
      event: notifications.event,
      channel: notifications.channel,
      userId: notifications.userId,
      endpointId: notifications.endpointId,
      recipient: notifications.recipient,
      status: notifications.status,
      attempts: notifications.attempts,
      createdAt: notifications.createdAt,
      incident: incidentColumns,
    })
    .from(notifications)
    .innerJoin(organizations, eq(organizations.id, notifications.orgId))
    .leftJoin(incidents, eq(incidents.id, notifications.incidentId))
    .leftJoin(thermostats, thermostatOfIncident)
    .leftJoin(buildings, buildingOfIncident)
    .where(
      inArray(
        notifications.id,
        claimed.map((row) => row.id),
      ),
    )
    .orderBy(asc(notifications.createdAt));
  return rows.map((row) => ({
    ...row,
    incident: row.incident?.id ? (row.incident as IncidentRow) : null,
  }));
}

/**
 * Records what came of sending these notices (`attempted`: a send was tried and counts), and
 * releases their claim.
 */
export async function recordNoticeResults(input: {
  ids: string[];
  status: NotificationStatus;
  error?: string | null;
  attempted: boolean;
  now?: Date;
}): Promise<void> {
  if (input.ids.length === 0) return;
  const db = await getDb();
  const at = input.now ?? new Date();
  await db
    .update(notifications)
    .set({
      status: input.status,
      lastError: input.error ?? null,
      claimedUntil: null,
      ...(input.attempted
        ? { attempts: sql`${notifications.attempts} + 1`, lastAttemptAt: at }
        : {}),
      ...(input.status === 'sent' ? { sentAt: at } : {}),
    })
    .where(inArray(notifications.id, input.ids));
}

/**
 * Notes that delivery jobs now carry these notices; `now: null`, that queueing them failed (the
 * sweep queues them a minute on).
 */
export async function markNoticesQueued(input: {
  ids: string[];
  now?: Date | null;
}): Promise<void> {
  if (input.ids.length === 0) return;
  const db = await getDb();
  await db
    .update(notifications)
    .set({ queuedAt: input.now === undefined ? new Date() : input.now })
    .where(inArray(notifications.id, input.ids));
}

/**
 * Notices held by quiet hours whose time has come, released as their member's choice is now
 * (it may have changed while they were held): into the digest for a member who takes one, not
 * sent for one who turned email off, and otherwise pending again, returned to queue.
 */
export async function releaseHeldNotices(input: { now: Date }): Promise<QueuedNotice[]> {
  const db = await getDb();
  const due = and(
    eq(notifications.status, 'held'),
    sql`${notifications.notBefore} <= ${input.now.toISOString()}::timestamptz`,
  );
  const chose = (mode: Subscription['mode']) =>
    sql`exists (select 1 from ${notificationSubscriptions} s
      where s.user_id = ${notifications}.user_id and s.org_id = ${notifications}.org_id
        and s.mode = ${mode})`;
  return db.transaction(async (tx) => {
    await tx
      .update(notifications)
      .set({ status: 'skipped', notBefore: null, lastError: EMAIL_TURNED_OFF })
      .where(and(due, chose('off')));
    await tx
      .update(notifications)
      .set({ status: 'digest', notBefore: null })
      .where(and(due, chose('digest')));
    // Immediate email, or no longer a member (the delivery says so in the log).
    return tx
      .update(notifications)
      .set({ status: 'pending', notBefore: null, queuedAt: input.now })
      .where(due)
      .returning(queuedColumns);
  });
}

/**
 * A job's retries take about an hour at most; a pending notice neither queued nor tried for
 * longer lost its job.
 */
export const STRANDED_AFTER_MS = 2 * 60 * 60_000;
/** A pending notice neither queued nor tried for this long is given up, not queued again. */
export const STRANDED_GIVE_UP_MS = 24 * 60 * 60_000;

/**
 * Pending notices no job carries and no delivery holds: never queued (the process stopped
 * between writing them and queueing them), or neither queued nor tried for longer than any job
 * lives. Those out of attempts, or idle for a day, are logged as failed instead of queued again.
 */
export async function listStrandedNotices(input: {
  now: Date;
  maxAttempts?: number;
}): Promise<QueuedNotice[]> {
  const db = await getDb();
  const never = new Date(input.now.getTime() - 60_000).toISOString();
  const lost = new Date(input.now.getTime() - STRANDED_AFTER_MS).toISOString();
  const old = new Date(input.now.getTime() - STRANDED_GIVE_UP_MS).toISOString();
  // When it was last written, queued or tried (greatest() passes over nulls).
  const lastActive = sql`greatest(${notifications.createdAt}, ${notifications.queuedAt}, ${notifications.lastAttemptAt})`;
  const stranded = and(eq(notifications.status, 'pending'), unclaimed(input.now));
  await db
    .update(notifications)
    .set({ status: 'failed', lastError: 'Not sent: delivery stopped trying.', claimedUntil: null })
    .where(
      and(
        stranded,
        or(
          sql`${notifications.attempts} >= ${input.maxAttempts ?? MAX_DELIVERY_ATTEMPTS}`,
          sql`${lastActive} < ${old}::timestamptz`,
        ),
      ),
    );
  return db
    .select(queuedColumns)
    .from(notifications)
    .where(
      and(
        stranded,
        or(
          sql`${notifications.queuedAt} is null and ${notifications.createdAt} < ${never}::timestamptz`,
          sql`${lastActive} < ${lost}::timestamptz`,
        ),
      ),
    )
    .limit(1000);
}

/** Members who take a daily digest, with when they last had one. */
export async function listDigestSubscriptions(): Promise<
  {
    orgId: string;
    userId: string;
    timeZone: string;
    digestHour: number;
    lastDigestDate: string | null;
  }[]
> {
  const db = await getDb();
  return db
    .select({
      orgId: notificationSubscriptions.orgId,
      userId: notificationSubscriptions.userId,
      timeZone: notificationSubscriptions.timeZone,
      digestHour: notificationSubscriptions.digestHour,
      lastDigestDate: notificationSubscriptions.lastDigestDate,
    })
    .from(notificationSubscriptions)
    .where(eq(notificationSubscriptions.mode, 'digest'));
}

/**
 * Takes a member's digest: marks today's (`date`, in their zone) as sent, and makes the notices
 * waiting for it pending, to go in one message. Only once a day: a second call the same day
 * takes nothing.
 */
export async function takeDigest(input: {
  orgId: string;
  userId: string;
  date: string;
}): Promise<QueuedNotice[]> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [taken] = await tx
      .update(notificationSubscriptions)
      .set({ lastDigestDate: input.date })
      .where(
        and(
          eq(notificationSubscriptions.orgId, input.orgId),
          eq(notificationSubscriptions.userId, input.userId),
          sql`${notificationSubscriptions.lastDigestDate} is distinct from ${input.date}`,
        ),
      )
      .returning({ userId: notificationSubscriptions.userId });
    if (!taken) return [];
    return tx
      .update(notifications)
      .set({ status: 'pending', queuedAt: new Date() })
      .where(
        and(
          eq(notifications.orgId, input.orgId),
          eq(notifications.userId, input.userId),
          eq(notifications.status, 'digest'),
        ),
      )
      .returning(queuedColumns);
  });
}

/** A test notice from the page, pending, to send at once. */
export async function createTestNotice(input: {
  orgId: string;
  channel: 'email' | 'webhook';
  userId: string | null;
  endpointId: string | null;
  recipient: string;
}): Promise<string> {
  const db = await getDb();
  const [row] = await db
    .insert(notifications)
    .values({ ...input, event: 'test', status: 'pending', queuedAt: new Date() })
    .returning({ id: notifications.id });
  if (!row) throw new Error('test notice not created');
  return row.id;
}

// --- What members read ------------------------------------------------------------------------------

/** Incidents a scope may know of: every building they concern is in it. */
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
 * The incidents people were told of, in the scope: every one open, and those resolved since
 * `resolvedSince`; most recent first, at most `limit`.
 */
/** Which incidents a list shows: of one kind, concerning one building (each optional). */
export type IncidentFilter = { kind?: string; buildingId?: string };

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
  const { kind, buildingId } = input.filter ?? {};
  return and(
    incidentsInScope(input.scope),
    isNotNull(incidents.notifiedAt),
    or(
      sql`${incidents.resolvedAt} is null`,
      sql`${incidents.resolvedAt} > ${input.resolvedSince.toISOString()}::timestamptz`,
    ),
    kind ? eq(incidents.kind, kind) : undefined,
    buildingId ? sql`${incidents.buildingIds} @> ${json([buildingId])}` : undefined,
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
  event: 'opened' | 'resolved' | 'test';
  channel: 'email' | 'webhook';
  recipient: string;
  status: NotificationStatus;
  attempts: number;
  lastError: string | null;
  notBefore: Date | null;
  sentAt: Date | null;
  incident: IncidentRow | null;
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
