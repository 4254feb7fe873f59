import 'server-only';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { oauthStates, serviceConnections } from '@/lib/db/schema';

/** The connection store: each organisation's connection to the service, and OAuth states. */

export type ServiceConnection = typeof serviceConnections.$inferSelect;
export type ServiceConnectionFields = Omit<typeof serviceConnections.$inferInsert, 'id' | 'orgId'>;

export async function findConnection({
  orgId,
}: {
  orgId: string;
}): Promise<ServiceConnection | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(serviceConnections)
    .where(eq(serviceConnections.orgId, orgId));
  return row ?? null;
}

/**
 * Stores a new connection for an organisation, replacing any earlier one. The row id is chosen
 * by the caller because the sealed tokens are bound to it.
 */
export async function replaceConnection(input: {
  id: string;
  orgId: string;
  fields: ServiceConnectionFields;
}): Promise<void> {
  const db = await getDb();
  // One statement, so two callbacks for one organisation (two browsers) cannot collide.
  await db
    .insert(serviceConnections)
    .values({ id: input.id, orgId: input.orgId, ...input.fields })
    .onConflictDoUpdate({
      target: serviceConnections.orgId,
      set: { id: input.id, ...input.fields },
    });
}

export async function deleteConnection({ orgId }: { orgId: string }): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .delete(serviceConnections)
    .where(eq(serviceConnections.orgId, orgId))
    .returning({ id: serviceConnections.id });
  return rows.length > 0;
}

/**
 * Runs `work` while holding the connection's row lock (SELECT ... FOR UPDATE), so that only one
 * request in any process refreshes a connection at a time. `work` sees the row as it is under
 * the lock and saves through `update`, inside the same transaction; it must not query through
 * `getDb()` itself (on PGlite, whose one connection the transaction holds, that would wait
 * forever). The same path runs on PGlite, where the lock costs other requests a wait for the
 * length of one token call; refreshes are hourly per connection, so that is rare.
 */
export async function withConnectionLock<T>(
  { orgId }: { orgId: string },
  work: (
    row: ServiceConnection | null,
    update: (fields: Partial<ServiceConnectionFields>) => Promise<void>,
  ) => Promise<T>,
): Promise<T> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(serviceConnections)
      .where(eq(serviceConnections.orgId, orgId))
      .for('update');
    return work(row ?? null, async (fields) => {
      if (row)
        await tx.update(serviceConnections).set(fields).where(eq(serviceConnections.id, row.id));
    });
  });
}

export async function createOAuthState(input: {
  stateHash: string;
  userId: string;
}): Promise<void> {
  const db = await getDb();
  // Old, never-completed requests are cleared as new ones start.
  await db.delete(oauthStates).where(lt(oauthStates.createdAt, new Date(Date.now() - 86_400_000)));
  await db.insert(oauthStates).values(input);
}

/**
 * Marks a state used; true only for the first caller, for the user who started it, within its
 * lifetime. Two callbacks racing with one state get one `true` between them.
 */
export async function consumeOAuthState(input: {
  stateHash: string;
  userId: string;
  notBefore: Date;
}): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(oauthStates)
    .set({ consumedAt: new Date() })
    .where(
      and(
        eq(oauthStates.stateHash, input.stateHash),
        eq(oauthStates.userId, input.userId),
        isNull(oauthStates.consumedAt),
        gt(oauthStates.createdAt, input.notBefore),
      ),
    )
    .returning({ stateHash: oauthStates.stateHash });
  return rows.length === 1;
}
