import 'server-only';
import { and, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import { quietUntil } from '@/lib/notifications/quiet-hours';
import { getDb } from '@/lib/db/client';
import {
  buildings,
  incidents,
  memberBuildings,
  memberships,
  notificationSubscriptions,
  notifications,
  users,
} from '@/lib/db/schema';

import { EMAIL_TURNED_OFF, type QueuedNotice, queuedColumns, type Subscription } from './rows';

/** Who is told of what: members' subscriptions, and the subscribers of an organisation. */

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
