import 'server-only';
import { and, asc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import {
  bulkRunItems,
  bulkRuns,
  eventCursors,
  notifications,
  unitEvents,
  units,
  webhookEndpoints,
} from '@/lib/db/schema';
import { type QueuedNotice, queuedColumns, type Tx } from './rows';

/**
 * The webhooks of what happens besides incidents: a unit's change of occupancy (`unit_events`)
 * and a run's end (`bulk_runs`), read from those tables after a cursor per stream, so the
 * features that write them need not know of webhooks. Each round takes the events settled a few
 * seconds (a transaction that began earlier may still commit one with a lower id), makes one
 * notice per endpoint that asked for the kind in the event's buildings, and moves the cursor, in
 * one transaction: each event is told once however many workers ask.
 */

/** An event waits this long before it is told, for the transactions under way to commit. */
export const SETTLE_MS = 15_000;
const BATCH = 500;

export type OutboundEvent = {
  orgId: string;
  kind: 'unit_state' | 'run_finished';
  /** The buildings it concerns, for each endpoint's choice of buildings. */
  buildingIds: string[];
  /** What the webhook carries (lib/notifications/events.ts shapes it). */
  data: Record<string, unknown>;
};

type EndpointRow = {
  id: string;
  orgId: string;
  url: string;
  kinds: string[];
  buildingIds: string[] | null;
  status: 'active' | 'failing' | 'paused';
};

/** The cursor of a stream, locked; on first use it starts at `start` (nothing before is told). */
async function cursorOf(tx: Tx, stream: 'unit_events' | 'runs', start: () => Promise<string>) {
  const [row] = await tx
    .select({ position: eventCursors.position })
    .from(eventCursors)
    .where(eq(eventCursors.stream, stream))
    .for('update');
  if (row) return row.position;
  const position = await start();
  await tx.insert(eventCursors).values({ stream, position }).onConflictDoNothing();
  return null;
}

async function moveCursor(tx: Tx, stream: 'unit_events' | 'runs', position: string) {
  await tx
    .update(eventCursors)
    .set({ position, updatedAt: new Date() })
    .where(eq(eventCursors.stream, stream));
}

/** The endpoints of these organisations that take any of these kinds. */
async function endpointsFor(tx: Tx, orgIds: string[], kind: OutboundEvent['kind']) {
  if (orgIds.length === 0) return [];
  return (await tx
    .select({
      id: webhookEndpoints.id,
      orgId: webhookEndpoints.orgId,
      url: webhookEndpoints.url,
      kinds: webhookEndpoints.kinds,
      buildingIds: webhookEndpoints.buildingIds,
      status: webhookEndpoints.status,
    })
    .from(webhookEndpoints)
    .where(
      and(
        inArray(webhookEndpoints.orgId, orgIds),
        sql`${webhookEndpoints.kinds} @> ${JSON.stringify([kind])}::jsonb`,
      ),
    )) as EndpointRow[];
}

type NoticeOf = (
  event: OutboundEvent,
  endpoint: EndpointRow,
) => typeof notifications.$inferInsert | null;

async function insertNotices(
  tx: Tx,
  events: OutboundEvent[],
  endpoints: EndpointRow[],
  noticeOf: NoticeOf,
): Promise<QueuedNotice[]> {
  const rows = events.flatMap((event) =>
    endpoints.flatMap((endpoint) => {
      if (endpoint.orgId !== event.orgId) return [];
      const row = noticeOf(event, endpoint);
      return row ? [row] : [];
    }),
  );
  if (rows.length === 0) return [];
  return tx.insert(notifications).values(rows).returning(queuedColumns);
}

/** Units' changes of occupancy since the cursor, settled by `now`, as notices. */
export async function fanOutUnitEvents(input: {
  now: Date;
  toEvent: (row: UnitEventRow) => OutboundEvent;
  noticeOf: NoticeOf;
}): Promise<QueuedNotice[]> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const after = await cursorOf(tx, 'unit_events', async () => {
      const [last] = await tx
        .select({ id: sql<number>`coalesce(max(${unitEvents.id}), 0)` })
        .from(unitEvents);
      return String(last?.id ?? 0);
    });
    if (after === null) return [];
    const rows = await tx
      .select({
        id: unitEvents.id,
        orgId: unitEvents.orgId,
        unitId: unitEvents.unitId,
        at: unitEvents.at,
        event: unitEvents.event,
        fromState: unitEvents.fromState,
        toState: unitEvents.toState,
        detail: unitEvents.detail,
        actorName: unitEvents.actorName,
        runId: unitEvents.runId,
        label: units.label,
        externalId: units.externalId,
        buildingId: units.buildingId,
      })
      .from(unitEvents)
      .innerJoin(units, eq(units.id, unitEvents.unitId))
      .where(
        and(
          gt(unitEvents.id, Number(after)),
          lt(unitEvents.at, new Date(input.now.getTime() - SETTLE_MS)),
        ),
      )
      .orderBy(asc(unitEvents.id))
      .limit(BATCH);
    const last = rows.at(-1);
    if (!last) return [];
    const events = rows.map(input.toEvent);
    const endpoints = await endpointsFor(
      tx,
      [...new Set(events.map((event) => event.orgId))],
      'unit_state',
    );
    const notices = await insertNotices(tx, events, endpoints, input.noticeOf);
    await moveCursor(tx, 'unit_events', String(last.id));
    return notices;
  });
}

export type UnitEventRow = {
  id: number;
  orgId: string;
  unitId: string;
  at: Date;
  event: string;
  fromState: string;
  toState: string;
  detail: Record<string, unknown>;
  actorName: string;
  runId: string | null;
  label: string;
  externalId: string | null;
  buildingId: string;
};

export type FinishedRunRow = typeof bulkRuns.$inferSelect & { buildingIds: string[] };

/** Runs that ended since the cursor, settled by `now`, as notices. */
export async function fanOutFinishedRuns(input: {
  now: Date;
  toEvent: (row: FinishedRunRow) => OutboundEvent;
  noticeOf: NoticeOf;
}): Promise<QueuedNotice[]> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const after = await cursorOf(
      tx,
      'runs',
      async () => `${input.now.toISOString()}|00000000-0000-0000-0000-000000000000`,
    );
    if (after === null) return [];
    const [at = '', id = ''] = after.split('|');
    // The instant as the database keeps it (to the microsecond), so no run is told twice.
    const found = await tx
      .select({ run: bulkRuns, finished: sql<string>`${bulkRuns.finishedAt}::text` })
      .from(bulkRuns)
      .where(
        and(
          inArray(bulkRuns.state, ['done', 'cancelled']),
          lt(bulkRuns.finishedAt, new Date(input.now.getTime() - SETTLE_MS)),
          sql`(${bulkRuns.finishedAt}, ${bulkRuns.id}) > (${at}::timestamptz, ${id}::uuid)`,
        ),
      )
      .orderBy(asc(bulkRuns.finishedAt), asc(bulkRuns.id))
      .limit(BATCH);
    const runs = found.map((row) => row.run);
    const last = found.at(-1);
    if (!last) return [];
    const buildings = await tx
      .selectDistinct({ runId: bulkRunItems.runId, buildingId: bulkRunItems.buildingId })
      .from(bulkRunItems)
      .where(
        inArray(
          bulkRunItems.runId,
          runs.map((run) => run.id),
        ),
      );
    const events = runs.map((run) =>
      input.toEvent({
        ...run,
        buildingIds: buildings.filter((row) => row.runId === run.id).map((row) => row.buildingId),
      }),
    );
    const endpoints = await endpointsFor(
      tx,
      [...new Set(events.map((event) => event.orgId))],
      'run_finished',
    );
    const notices = await insertNotices(tx, events, endpoints, input.noticeOf);
    await moveCursor(tx, 'runs', `${last.finished}|${last.run.id}`);
    return notices;
  });
}
