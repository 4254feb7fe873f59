import 'server-only';
import { and, asc, count, desc, eq, gt, inArray, isNull, lt, notLike, sql } from 'drizzle-orm';
import { getDb } from './client';
import {
  activityLog,
  buildings,
  oauthStates,
  serviceConnections,
  sessions,
  signInAttempts,
  thermostats,
  users,
} from './schema';

export type User = typeof users.$inferSelect;
export type PublicUser = Pick<User, 'id' | 'email' | 'name' | 'temperatureUnit'>;

const publicUserColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  temperatureUnit: users.temperatureUnit,
};

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

/** Records a sign-in attempt (as failed until marked otherwise) and returns its id. */
export async function recordSignInAttempt(input: {
  email: string;
  client: string;
  succeeded: boolean;
  at?: Date;
}): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .insert(signInAttempts)
    .values({
      email: input.email.toLowerCase(),
      client: input.client,
      succeeded: input.succeeded,
      createdAt: input.at ?? new Date(),
    })
    .returning({ id: signInAttempts.id });
  if (!row) throw new Error('sign-in attempt insert returned no row');
  return row.id;
}

export async function markSignInAttempt(input: { id: number; succeeded: boolean }): Promise<void> {
  const db = await getDb();
  await db
    .update(signInAttempts)
    .set({ succeeded: input.succeeded })
    .where(eq(signInAttempts.id, input.id));
}

export async function deleteSignInAttempt({ id }: { id: number }): Promise<void> {
  const db = await getDb();
  await db.delete(signInAttempts).where(eq(signInAttempts.id, id));
}

/** What `client` holds for an attempt from a known device, and for an owner's unlock. */
export const DEVICE_CLIENT_PREFIX = 'device:';
const UNLOCK_CLIENT = 'owner-unlock';

/**
 * The failed attempts matching every key given, since `since`, oldest first. With an email,
 * only those after the account's last success count (a sign-in, or an owner's unlock). A
 * client's count alone is never reset by a success: one valid account would otherwise let a
 * client keep guessing at others. `fromDevices: false` leaves out attempts from known devices.
 */
export async function listRecentFailures(input: {
  email?: string;
  client?: string;
  fromDevices?: boolean;
  since: Date;
}): Promise<{ id: number; at: Date }[]> {
  const db = await getDb();
  const email = input.email?.toLowerCase();
  let from = input.since;
  if (email !== undefined) {
    const [lastSuccess] = await db
      .select({ at: signInAttempts.createdAt })
      .from(signInAttempts)
      .where(and(eq(signInAttempts.email, email), eq(signInAttempts.succeeded, true)))
      .orderBy(desc(signInAttempts.createdAt))
      .limit(1);
    if (lastSuccess && lastSuccess.at > from) from = lastSuccess.at;
  }
  return db
    .select({ id: signInAttempts.id, at: signInAttempts.createdAt })
    .from(signInAttempts)
    .where(
      and(
        email === undefined ? undefined : eq(signInAttempts.email, email),
        input.client === undefined ? undefined : eq(signInAttempts.client, input.client),
        input.fromDevices === false
          ? notLike(signInAttempts.client, `${DEVICE_CLIENT_PREFIX}%`)
          : undefined,
        eq(signInAttempts.succeeded, false),
        gt(signInAttempts.createdAt, from),
      ),
    )
    .orderBy(signInAttempts.id);
}

/**
 * An owner's unlock of an account's sign-in: recorded as a success, so the account's earlier
 * failures stop counting (a client's own count is untouched).
 */
export async function unlockSignIn(input: { email: string; at?: Date }): Promise<void> {
  await recordSignInAttempt({
    email: input.email,
    client: UNLOCK_CLIENT,
    succeeded: true,
    at: input.at,
  });
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
  // One statement, so two callbacks for one manager (two browsers) cannot collide.
  await db
    .insert(serviceConnections)
    .values({ id: input.id, userId: input.userId, ...input.fields })
    .onConflictDoUpdate({
      target: serviceConnections.userId,
      set: { id: input.id, ...input.fields },
    });
}

export async function deleteConnection({ userId }: { userId: string }): Promise<void> {
  const db = await getDb();
  await db.delete(serviceConnections).where(eq(serviceConnections.userId, userId));
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

export async function setTemperatureUnit(input: {
  userId: string;
  unit: 'F' | 'C';
}): Promise<void> {
  const db = await getDb();
  await db.update(users).set({ temperatureUnit: input.unit }).where(eq(users.id, input.userId));
}

// --- Portfolio -------------------------------------------------------------------------------

export type Building = typeof buildings.$inferSelect;
export type PortfolioThermostat = typeof thermostats.$inferSelect;
export type BuildingSummary = Building & { thermostatCount: number };

export async function listBuildings({ userId }: { userId: string }): Promise<BuildingSummary[]> {
  const db = await getDb();
  const rows = await db
    .select({ building: buildings, thermostatCount: count(thermostats.thermostatId) })
    .from(buildings)
    .leftJoin(
      thermostats,
      and(
        eq(thermostats.userId, buildings.userId),
        eq(thermostats.buildingId, buildings.buildingId),
      ),
    )
    .where(eq(buildings.userId, userId))
    .groupBy(buildings.userId, buildings.buildingId)
    .orderBy(asc(buildings.name));
  return rows.map((row) => ({ ...row.building, thermostatCount: row.thermostatCount }));
}

export async function findBuilding(input: {
  userId: string;
  buildingId: string;
}): Promise<Building | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(buildings)
    .where(and(eq(buildings.userId, input.userId), eq(buildings.buildingId, input.buildingId)));
  return row ?? null;
}

/** Adds a building the manager did not have yet; an existing one keeps its name and address. */
export async function ensureBuilding(input: {
  userId: string;
  buildingId: string;
  name: string;
  timeZone: string;
  address?: string;
}): Promise<void> {
  const db = await getDb();
  await db.insert(buildings).values(input).onConflictDoNothing();
}

export async function updateBuilding(input: {
  userId: string;
  buildingId: string;
  name: string;
  address: string;
}): Promise<void> {
  const db = await getDb();
  await db
    .update(buildings)
    .set({ name: input.name, address: input.address })
    .where(and(eq(buildings.userId, input.userId), eq(buildings.buildingId, input.buildingId)));
}

export async function listThermostats(input: {
  userId: string;
  buildingId?: string;
}): Promise<PortfolioThermostat[]> {
  const db = await getDb();
  return db
    .select()
    .from(thermostats)
    .where(
      and(
        eq(thermostats.userId, input.userId),
        input.buildingId ? eq(thermostats.buildingId, input.buildingId) : undefined,
      ),
    )
    .orderBy(asc(thermostats.unitLabel), asc(thermostats.thermostatId));
}

export async function findThermostat(input: {
  userId: string;
  thermostatId: string;
}): Promise<(PortfolioThermostat & { building: Building | null }) | null> {
  const db = await getDb();
  const [row] = await db
    .select({ thermostat: thermostats, building: buildings })
    .from(thermostats)
    .leftJoin(
      buildings,
      and(
        eq(buildings.userId, thermostats.userId),
        eq(buildings.buildingId, thermostats.buildingId),
      ),
    )
    .where(
      and(eq(thermostats.userId, input.userId), eq(thermostats.thermostatId, input.thermostatId)),
    );
  return row ? { ...row.thermostat, building: row.building } : null;
}

/** Which of these thermostat ids the manager already has. */
export async function findKnownThermostatIds(input: {
  userId: string;
  thermostatIds: string[];
}): Promise<Set<string>> {
  if (input.thermostatIds.length === 0) return new Set();
  const db = await getDb();
  const rows = await db
    .select({ id: thermostats.thermostatId })
    .from(thermostats)
    .where(
      and(
        eq(thermostats.userId, input.userId),
        inArray(thermostats.thermostatId, input.thermostatIds),
      ),
    );
  return new Set(rows.map((row) => row.id));
}

export async function addThermostat(input: {
  userId: string;
  thermostatId: string;
  buildingId: string;
  unitLabel: string;
}): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .insert(thermostats)
    .values(input)
    .onConflictDoNothing()
    .returning({ id: thermostats.thermostatId });
  return rows.length === 1;
}

export async function updateThermostat(input: {
  userId: string;
  thermostatId: string;
  unitLabel?: string;
  buildingId?: string;
}): Promise<void> {
  const db = await getDb();
  const { userId, thermostatId, ...changes } = input;
  await db
    .update(thermostats)
    .set(changes)
    .where(and(eq(thermostats.userId, userId), eq(thermostats.thermostatId, thermostatId)));
}

export async function removeThermostat(input: {
  userId: string;
  thermostatId: string;
}): Promise<void> {
  const db = await getDb();
  await db
    .delete(thermostats)
    .where(
      and(eq(thermostats.userId, input.userId), eq(thermostats.thermostatId, input.thermostatId)),
    );
}

// --- Activity log ----------------------------------------------------------------------------

export type ActivityEntry = typeof activityLog.$inferSelect;
export type NewActivityEntry = Omit<typeof activityLog.$inferInsert, 'id' | 'at'>;

export async function recordActivity(entry: NewActivityEntry): Promise<void> {
  const db = await getDb();
  await db.insert(activityLog).values(entry);
}

export async function listActivity(input: {
  buildingId?: string;
  thermostatId?: string;
  userId?: string;
  limit?: number;
}): Promise<ActivityEntry[]> {
  const db = await getDb();
  return db
    .select()
    .from(activityLog)
    .where(
      and(
        input.buildingId ? eq(activityLog.buildingId, input.buildingId) : undefined,
        input.thermostatId ? eq(activityLog.thermostatId, input.thermostatId) : undefined,
        input.userId ? eq(activityLog.userId, input.userId) : undefined,
      ),
    )
    .orderBy(desc(activityLog.at), desc(activityLog.id))
    .limit(input.limit ?? 200);
}

/** The people who appear in the activity log, for its filter. */
export async function listActivityPeople(): Promise<{ userId: string; name: string }[]> {
  const db = await getDb();
  const rows = await db
    .selectDistinct({ userId: activityLog.userId, name: activityLog.actorName })
    .from(activityLog)
    .orderBy(asc(activityLog.actorName));
  return rows.flatMap((row) => (row.userId ? [{ userId: row.userId, name: row.name }] : []));
}
