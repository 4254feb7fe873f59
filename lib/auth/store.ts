import 'server-only';
import { and, count, desc, eq, gt, inArray, isNull, notLike, sql } from 'drizzle-orm';
import { type Database, getDb } from '@/lib/db/client';
import {
  buildings,
  invitations,
  memberBuildings,
  memberships,
  organizations,
  type Role,
  sessions,
  signInAttempts,
  users,
} from '@/lib/db/schema';
import type { Scope } from '@/lib/db/scope';
import { knownZone } from '@/lib/platform/time-format';

/**
 * The accounts store: people, organisations, sessions and sign-in attempts, joining by company
 * SSO, and the locks and columns the members store shares (lib/members/store.ts).
 */

export type User = typeof users.$inferSelect;
export type PublicUser = Pick<User, 'id' | 'email' | 'name' | 'temperatureUnit'>;
export type Organization = typeof organizations.$inferSelect;

export const publicUserColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  temperatureUnit: users.temperatureUnit,
};

/** The member of an organisation behind a session: who they are, where, and what they may do. */
export type Member = PublicUser &
  Scope & {
    orgName: string;
    role: Role;
    /**
     * The zone organisation-wide pages show times in: the one the member chose, else the zone
     * most of the organisation's buildings are in, else UTC.
     */
    timeZone: string;
    /** Whether the member chose `timeZone` (else it is the buildings' guess). */
    timeZoneChosen: boolean;
  };

/** A member's building ids, in a query grouped by member. */
export const memberBuildingIds = sql<
  string[] | null
>`array_remove(array_agg(${memberBuildings.buildingId}), null)`;
/** Who a member is, their role and buildings (grouped by member). */
export const memberColumns = {
  ...publicUserColumns,
  role: memberships.role,
  buildingIds: memberBuildingIds,
};

// Membership changes of one organisation run one at a time, so "at least one owner remains"
// cannot be raced (two owners removing each other at once).
export const lockOrganization = (tx: Pick<Database, 'execute'>, orgId: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(727003, hashtext(${orgId}))`);

// The ways of joining for one email (accepting an invitation, a first SSO sign-in) run one at a
// time, and take this lock before any other, so two tabs or two invitations for one new email
// give one account and a clean answer, never a duplicate-key error or a deadlock.
export const lockEmail = (tx: Pick<Database, 'execute'>, email: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(727005, hashtext(${email}))`);

export async function countUsers(): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ value: count() }).from(users);
  return row?.value ?? 0;
}

/**
 * First-run setup: creates the organisation and its owner, or returns null when an account
 * already exists. A transaction-scoped advisory lock makes two simultaneous first-run
 * submissions create exactly one.
 */
export async function createFirstOrganization(input: {
  orgName: string;
  email: string;
  name: string;
  passwordHash: string;
}): Promise<PublicUser | null> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727002)`);
    const [existing] = await tx.select({ value: count() }).from(users);
    if ((existing?.value ?? 0) > 0) return null;
    const [org] = await tx
      .insert(organizations)
      .values({ name: input.orgName })
      .returning({ id: organizations.id });
    const [created] = await tx
      .insert(users)
      .values({
        email: input.email.toLowerCase(),
        name: input.name,
        passwordHash: input.passwordHash,
      })
      .returning(publicUserColumns);
    if (!org || !created) throw new Error('first-run insert returned no row');
    await tx.insert(memberships).values({ userId: created.id, orgId: org.id, role: 'owner' });
    return created;
  });
}

/**
 * Another organisation in this deployment (an operator's command, `npm run org:create`): it
 * starts with no members; its owner joins through an invitation.
 */
export async function createOrganization({ name }: { name: string }): Promise<Organization> {
  const db = await getDb();
  const [org] = await db.insert(organizations).values({ name }).returning();
  if (!org) throw new Error('organisation insert returned no row');
  return org;
}

export async function findUserByEmail({ email }: { email: string }): Promise<User | null> {
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
  return user ?? null;
}

export async function findOrganization({ orgId }: { orgId: string }): Promise<Organization | null> {
  const db = await getDb();
  const [org] = await db.select().from(organizations).where(eq(organizations.id, orgId));
  return org ?? null;
}

/** Renames the organisation and sets its SSO sign-up rule; false when the domain is taken. */
export async function updateOrganization(input: {
  orgId: string;
  name: string;
  ssoDomain: string | null;
  ssoDefaultRole: Organization['ssoDefaultRole'];
}): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(organizations)
    .set({ name: input.name, ssoDomain: input.ssoDomain, ssoDefaultRole: input.ssoDefaultRole })
    .where(eq(organizations.id, input.orgId))
    .returning({ id: organizations.id })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) return null;
      throw error;
    });
  return rows !== null && rows.length === 1;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown; cause?: { code?: unknown } })?.code;
  const causeCode = (error as { cause?: { code?: unknown } })?.cause?.code;
  return code === '23505' || causeCode === '23505';
}

/**
 * Company SSO, for an email the identity provider vouches for: a member already, or a new member
 * by a pending invitation, or by the organisation's allowed domain and default role. Null for
 * anyone else (no account is created) and for a password account, which SSO never signs into.
 */
export async function resolveSsoMember(input: {
  email: string;
  name: string;
  /** The invitation the person came from (its page's SSO button), by its token's hash. */
  invitationTokenHash?: string | null;
  now?: Date;
}): Promise<{
  user: PublicUser;
  joined: { orgId: string; how: 'invitation' | 'domain' } | null;
} | null> {
  const db = await getDb();
  const email = input.email.toLowerCase();
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    await lockEmail(tx, email);
    const [existing] = await tx
      .select({ ...publicUserColumns, passwordHash: users.passwordHash, orgId: memberships.orgId })
      .from(users)
      .leftJoin(memberships, eq(memberships.userId, users.id))
      .where(eq(users.email, email));
    if (existing?.passwordHash) return null;
    if (existing?.orgId) {
      const { passwordHash: _hash, orgId: _org, ...user } = existing;
      return { user, joined: null };
    }
    const pending = await tx
      .select()
      .from(invitations)
      .where(pendingInvitationsOf(email, now))
      .orderBy(desc(invitations.createdAt));
    // The invitation the person came from; else the newest, when one organisation alone invited
    // them. Invited by several, without saying which, they join none (countInvitingOrganizations
    // says why): the newest invitation is not necessarily the one they mean, and anyone could
    // send one.
    const chosen = pending.find((p) => p.tokenHash === input.invitationTokenHash);
    if (!chosen && new Set(pending.map((p) => p.orgId)).size > 1) return null;
    const invitation = chosen ?? pending[0];
    const domain = email.split('@')[1] ?? '';
    const [byDomain] = invitation
      ? []
      : await tx.select().from(organizations).where(eq(organizations.ssoDomain, domain));
    const grant = invitation
      ? { orgId: invitation.orgId, role: invitation.role, buildingIds: invitation.buildingIds }
      : byDomain?.ssoDefaultRole
        ? { orgId: byDomain.id, role: byDomain.ssoDefaultRole, buildingIds: [] as string[] }
        : null;
    if (!grant) return null;
    await lockOrganization(tx, grant.orgId);
    const user =
      existing ??
      (
        await tx
          .insert(users)
          .values({ email, name: input.name.trim().slice(0, 100) || email })
          .returning(publicUserColumns)
      )[0];
    if (!user) throw new Error('SSO account insert returned no row');
    await tx.insert(memberships).values({ userId: user.id, orgId: grant.orgId, role: grant.role });
    await insertMemberBuildings(tx, user.id, grant.orgId, grant.role, grant.buildingIds);
    if (invitation) {
      await tx
        .update(invitations)
        .set({ acceptedAt: now })
        .where(eq(invitations.id, invitation.id));
    }
    return {
      user: {
        id: user.id,
        email: user.email,
        name: user.name,
        temperatureUnit: user.temperatureUnit,
      },
      joined: { orgId: grant.orgId, how: invitation ? 'invitation' : 'domain' },
    };
  });
}

/** Invitations of this (lower-case) email still to be used: not accepted, withdrawn or expired. */
const pendingInvitationsOf = (email: string, now: Date) =>
  and(
    eq(invitations.email, email),
    isNull(invitations.acceptedAt),
    isNull(invitations.revokedAt),
    gt(invitations.expiresAt, now),
  );

/** How many organisations have a pending invitation for this email (for the SSO refusal's words). */
export async function countInvitingOrganizations(input: {
  email: string;
  now?: Date;
}): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${invitations.orgId})::int` })
    .from(invitations)
    .where(pendingInvitationsOf(input.email.toLowerCase(), input.now ?? new Date()));
  return Number(row?.n ?? 0);
}

export async function insertMemberBuildings(
  tx: Pick<Database, 'insert' | 'select'>,
  userId: string,
  orgId: string,
  role: Role,
  buildingIds: readonly string[],
) {
  if (role !== 'building_manager' || buildingIds.length === 0) return;
  // Only buildings the organisation still has (one may have left since an invitation).
  const existing = await tx
    .select({ buildingId: buildings.buildingId })
    .from(buildings)
    .where(and(eq(buildings.orgId, orgId), inArray(buildings.buildingId, [...buildingIds])));
  if (existing.length === 0) return;
  await tx
    .insert(memberBuildings)
    .values(existing.map(({ buildingId }) => ({ userId, orgId, buildingId })));
}

export async function createSession(input: {
  id: string;
  userId: string;
  expiresAt: Date;
}): Promise<void> {
  const db = await getDb();
  await db.insert(sessions).values(input);
  await db.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, input.userId));
}

/**
 * The member behind a session that exists, has not expired and was not revoked, and whose
 * membership still stands: one indexed query that also brings their role and buildings, so the
 * scope checks of a request cost nothing more.
 */
export async function findSessionMember({
  sessionId,
  now = new Date(),
}: {
  sessionId: string;
  now?: Date;
}): Promise<Member | null> {
  const db = await getDb();
  const [row] = await db
    .select({
      ...memberColumns,
      orgId: memberships.orgId,
      orgName: organizations.name,
      chosenZone: users.timeZone,
      buildingsZone: sql<string | null>`(
        select ${buildings.timeZone} from ${buildings}
        where ${buildings.orgId} = ${organizations.id}
        group by ${buildings.timeZone} order by count(*) desc, ${buildings.timeZone} limit 1)`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .innerJoin(organizations, eq(organizations.id, memberships.orgId))
    .leftJoin(memberBuildings, eq(memberBuildings.userId, users.id))
    .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, now), isNull(sessions.revokedAt)))
    .groupBy(users.id, memberships.userId, organizations.id);
  if (!row) return null;
  const { chosenZone, buildingsZone, ...member } = row;
  return {
    ...member,
    userId: row.id,
    buildingIds: row.role === 'building_manager' ? (row.buildingIds ?? []) : null,
    timeZone: knownZone(chosenZone ?? buildingsZone),
    timeZoneChosen: chosenZone !== null,
  };
}

export async function revokeSession({ sessionId }: { sessionId: string }): Promise<void> {
  const db = await getDb();
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

// --- Sign-in attempts --------------------------------------------------------------------------

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

/** Whether this email already belongs to a member of some organisation. */
export async function isMemberAnywhere({ email }: { email: string }): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(users.email, email.toLowerCase()));
  return Boolean(row);
}

export async function setTemperatureUnit(input: {
  userId: string;
  unit: 'F' | 'C';
}): Promise<void> {
  const db = await getDb();
  await db.update(users).set({ temperatureUnit: input.unit }).where(eq(users.id, input.userId));
}
