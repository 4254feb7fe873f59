import 'server-only';
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import {
  buildings,
  incidents,
  notificationSubscriptions,
  notifications,
  organizations,
  thermostats,
} from '@/lib/db/schema';

import {
  buildingOfIncident,
  EMAIL_TURNED_OFF,
  incidentColumns,
  type IncidentRow,
  type NotificationEvent,
  type NotificationStatus,
  type QueuedNotice,
  queuedColumns,
  type Subscription,
  thermostatOfIncident,
} from './rows';

/**
 * Notices on their way: claimed for delivery, their results recorded, held ones released,
 * stranded ones found, daily digests taken, and a member's test notice.
 */

export type DeliveryRow = {
  id: string;
  orgId: string;
  orgName: string;
  event: NotificationEvent;
  channel: 'email' | 'webhook';
  userId: string | null;
  endpointId: string | null;
  recipient: string;
  status: NotificationStatus;
  attempts: number;
  createdAt: Date;
  incident: IncidentRow | null;
  /** A unit's change or a run's end, as its webhook carries it. */
  payload: Record<string, unknown> | null;
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
      payload: notifications.payload,
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
