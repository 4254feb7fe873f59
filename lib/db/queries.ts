import 'server-only';
import { and, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { getDb } from './client';
import { oauthStates, serviceConnections, sessions, signInAttempts, users } from './schema';

export type User = typeof users.$inferSelect;
export type PublicUser = Pick<User, 'id' | 'email' | 'name'>;

const publicUserColumns = { id: users.id, email: users.email, name: users.name };

export async function countUsers(): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ value: count() }).from(users);
  return row?.value ?? 0;
}

/**
 * Creates the first account, or returns null when one already exists. A transaction-scoped
 * advisory lock makes two simultaneous first-run submissions create exactly one account.
 */
export async function createFirstUser(input: {
  email: string;
  name: string;
  passwordHash: string;
}): Promise<PublicUser | null> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727002)`);
    const [existing] = await tx.select({ value: count() }).from(users);
    if ((existing?.value ?? 0) > 0) return null;
    const [created] = await tx
      .insert(users)
      .values({ ...input, email: input.email.toLowerCase() })
      .returning(publicUserColumns);
    return created ?? null;
  });
}

export async function findUserByEmail({ email }: { email: string }): Promise<User | null> {
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
  return user ?? null;
}

/** Company SSO: the identity provider vouches for the email; create the account on first use. */
export async function upsertSsoUser(input: { email: string; name: string }): Promise<PublicUser> {
  const db = await getDb();
  const email = input.email.toLowerCase();
  const [user] = await db
    .insert(users)
    .values({ email, name: input.name || email })
    .onConflictDoUpdate({ target: users.email, set: { email } })
    .returning(publicUserColumns);
  if (!user) throw new Error('SSO account upsert returned no row.');
  return user;
}

export async function createSession(input: {
  id: string;
  userId: string;
  expiresAt: Date;
}): Promise<void> {
  const db = await getDb();
  await db.insert(sessions).values(input);
}

/** The user of a session that exists, has not expired and was not revoked. */
export async function findSessionUser({
  sessionId,
  now = new Date(),
}: {
  sessionId: string;
  now?: Date;
}): Promise<PublicUser | null> {
  const db = await getDb();
  const [row] = await db
    .select(publicUserColumns)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(eq(sessions.id, sessionId), gt(sessions.expiresAt, now), isNull(sessions.revokedAt)),
    );
  return row ?? null;
}

export async function revokeSession({ sessionId }: { sessionId: string }): Promise<void> {
  const db = await getDb();
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function recordSignInAttempt(input: {
  email: string;
  client: string;
  succeeded: boolean;
  at?: Date;
}): Promise<void> {
  const db = await getDb();
  await db.insert(signInAttempts).values({
    email: input.email.toLowerCase(),
    client: input.client,
    succeeded: input.succeeded,
    createdAt: input.at ?? new Date(),
  });
}

/**
 * The failed attempts on one key since `since`, oldest first. For an account (email) only those
 * after its last success count; for a client (address) a success resets nothing, or one valid
 * account would let a client keep guessing at others.
 */
export async function listRecentFailures(input: {
  by: 'email' | 'client';
  value: string;
  since: Date;
}): Promise<Date[]> {
  const db = await getDb();
  const column = input.by === 'email' ? signInAttempts.email : signInAttempts.client;
  const value = input.by === 'email' ? input.value.toLowerCase() : input.value;
  let from = input.since;
  if (input.by === 'email') {
    const [lastSuccess] = await db
      .select({ at: signInAttempts.createdAt })
      .from(signInAttempts)
      .where(and(eq(column, value), eq(signInAttempts.succeeded, true)))
      .orderBy(desc(signInAttempts.createdAt))
      .limit(1);
    if (lastSuccess && lastSuccess.at > from) from = lastSuccess.at;
  }
  const rows = await db
    .select({ at: signInAttempts.createdAt })
    .from(signInAttempts)
    .where(
      and(
        eq(column, value),
        eq(signInAttempts.succeeded, false),
        gt(signInAttempts.createdAt, from),
      ),
    )
    .orderBy(signInAttempts.createdAt);
  return rows.map((row) => row.at);
}

export type ServiceConnection = typeof serviceConnections.$inferSelect;
export type ServiceConnectionFields = Omit<typeof serviceConnections.$inferInsert, 'id' | 'userId'>;

export async function findConnection({
  userId,
}: {
  userId: string;
}): Promise<ServiceConnection | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(serviceConnections)
    .where(eq(serviceConnections.userId, userId));
  return row ?? null;
}

/**
 * Stores a new connection for a manager, replacing any earlier one. The row id is chosen by the
 * caller because the sealed tokens are bound to it.
 */
export async function replaceConnection(input: {
  id: string;
  userId: string;
  fields: ServiceConnectionFields;
}): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.delete(serviceConnections).where(eq(serviceConnections.userId, input.userId));
    await tx
      .insert(serviceConnections)
      .values({ id: input.id, userId: input.userId, ...input.fields });
  });
}

export async function deleteConnection({ userId }: { userId: string }): Promise<void> {
  const db = await getDb();
  await db.delete(serviceConnections).where(eq(serviceConnections.userId, userId));
}

/**
 * Runs `work` while holding the connection's row lock (SELECT ... FOR UPDATE), so that only one
 * request in any process refreshes a connection at a time. `work` sees the row as it is under
 * the lock and saves through `update`, inside the same transaction.
 */
export async function withConnectionLock<T>(
  { userId }: { userId: string },
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
      .where(eq(serviceConnections.userId, userId))
      .for('update');
    return work(row ?? null, async (fields) => {
      if (!row) return;
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
