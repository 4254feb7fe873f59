import 'server-only';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { NewNotification } from '@/lib/notifications/fan-out';
import type { FailedRun, OpenIncident, ReconcilePlan } from '@/lib/notifications/reconcile';
import { getDb, rowsOf } from '@/lib/db/client';
import { incidents, notificationRules, notifications, thermostats } from '@/lib/db/schema';

import { batches, json, type QueuedNotice, queuedColumns, type Tx } from './rows';

/**
 * Incidents as the reconcile job keeps them: the organisations to look at, their rules, what is
 * open, failed runs, and one plan applied at once (incidents opened and resolved, notices
 * written). The job's writes take the ids of rows it read from the same organisation.
 */

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
