import 'server-only';
import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { getDb } from './client';
import { sessions, signInAttempts, users } from './schema';

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
