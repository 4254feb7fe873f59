import 'server-only';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  isNull,
  lt,
  notLike,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { ActivityAction } from '@/lib/activity/actions';
import { knownZone } from '@/lib/platform/time-format';
import { type Database, getDb } from './client';
import {
  activityLog,
  buildings,
  bulkRunItems,
  invitations,
  memberBuildings,
  memberships,
  oauthStates,
  organizations,
  ROLES,
  type Role,
  serviceConnections,
  sessions,
  signInAttempts,
  thermostats,
  users,
} from './schema';
import { inBuildings, type Scope } from './scope';

export type { Role };
export { ROLES };
export type User = typeof users.$inferSelect;
export type PublicUser = Pick<User, 'id' | 'email' | 'name' | 'temperatureUnit'>;
export type Organization = typeof organizations.$inferSelect;

const publicUserColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  temperatureUnit: users.temperatureUnit,
};

export type { Scope };

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

/** One thermostat of an organisation, as the portfolio names it. */
export type ThermostatKey = { orgId: string; thermostatId: string };
/** One building of an organisation. */
export type BuildingKey = { orgId: string; buildingId: string };

const thermostatIs = (key: ThermostatKey) =>
  and(eq(thermostats.orgId, key.orgId), eq(thermostats.thermostatId, key.thermostatId));
const buildingIs = (key: BuildingKey) =>
  and(eq(buildings.orgId, key.orgId), eq(buildings.buildingId, key.buildingId));
/** Joins a thermostat to the building it is in. */
const buildingOfThermostat = and(
  eq(buildings.orgId, thermostats.orgId),
  eq(buildings.buildingId, thermostats.buildingId),
);

/** The buildings and thermostats a scope may see. */
const buildingsInScope = (scope: Scope) =>
  and(eq(buildings.orgId, scope.orgId), inBuildings(buildings.buildingId, scope));
const thermostatsInScope = (scope: Scope) =>
  and(eq(thermostats.orgId, scope.orgId), inBuildings(thermostats.buildingId, scope));

/** A member's building ids, in a query grouped by member. */
const memberBuildingIds = sql<
  string[] | null
>`array_remove(array_agg(${memberBuildings.buildingId}), null)`;
/** Who a member is, their role and buildings (grouped by member). */
const memberColumns = {
  ...publicUserColumns,
  role: memberships.role,
  buildingIds: memberBuildingIds,
};

// Membership changes of one organisation run one at a time, so "at least one owner remains"
// cannot be raced (two owners removing each other at once).
const lockOrganization = (tx: Pick<Database, 'execute'>, orgId: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(727003, hashtext(${orgId}))`);

// The ways of joining for one email (accepting an invitation, a first SSO sign-in) run one at a
// time, and take this lock before any other, so two tabs or two invitations for one new email
// give one account and a clean answer, never a duplicate-key error or a deadlock.
const lockEmail = (tx: Pick<Database, 'execute'>, email: string) =>
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

async function insertMemberBuildings(
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

/** Ends every session of a person at once (removed from the organisation, or leaving). */
async function revokeUserSessions(tx: Pick<Database, 'update'>, userId: string) {
  await tx
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
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

// --- Members and invitations -----------------------------------------------------------------

export type MemberListing = PublicUser & {
  role: Role;
  buildingIds: string[];
  joinedAt: Date;
  lastSignInAt: Date | null;
};

export async function listMembers({ orgId }: { orgId: string }): Promise<MemberListing[]> {
  const db = await getDb();
  const rows = await db
    .select({
      ...memberColumns,
      joinedAt: memberships.createdAt,
      lastSignInAt: users.lastSignInAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(memberBuildings, eq(memberBuildings.userId, memberships.userId))
    .where(eq(memberships.orgId, orgId))
    .groupBy(users.id, memberships.userId)
    .orderBy(asc(users.name));
  return rows.map((row) => ({ ...row, buildingIds: row.buildingIds ?? [] }));
}

/** One member of this organisation, or null (another organisation's, or no one's). */
export async function findMembership(input: {
  orgId: string;
  userId: string;
}): Promise<(PublicUser & { role: Role; buildingIds: string[] }) | null> {
  const db = await getDb();
  const [row] = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(memberBuildings, eq(memberBuildings.userId, memberships.userId))
    .where(and(eq(memberships.orgId, input.orgId), eq(memberships.userId, input.userId)))
    .groupBy(users.id, memberships.userId);
  return row ? { ...row, buildingIds: row.buildingIds ?? [] } : null;
}

export type MembershipChange =
  | { ok: true; before: { role: Role; buildingIds: string[] } }
  | { ok: false; reason: 'not_found' | 'last_owner' };

/**
 * Sets a member's role (and a building manager's buildings). The last owner cannot stop being
 * one. The caller has checked that the actor may make this change (lib/auth/permissions.ts).
 */
export async function updateMembership(input: {
  orgId: string;
  userId: string;
  role: Role;
  buildingIds: readonly string[];
}): Promise<MembershipChange> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const before = await lockMembership(tx, input);
    if (!before) return { ok: false, reason: 'not_found' };
    if (
      before.role === 'owner' &&
      input.role !== 'owner' &&
      (await ownerCount(tx, input.orgId)) < 2
    )
      return { ok: false, reason: 'last_owner' };
    await tx
      .update(memberships)
      .set({ role: input.role })
      .where(and(eq(memberships.orgId, input.orgId), eq(memberships.userId, input.userId)));
    await tx.delete(memberBuildings).where(eq(memberBuildings.userId, input.userId));
    await insertMemberBuildings(tx, input.userId, input.orgId, input.role, input.buildingIds);
    return { ok: true, before };
  });
}

/**
 * Takes a person out of the organisation (removed, or leaving): their membership goes and every
 * session of theirs ends at once. The last owner cannot go.
 */
export async function removeMembership(input: {
  orgId: string;
  userId: string;
}): Promise<MembershipChange> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const before = await lockMembership(tx, input);
    if (!before) return { ok: false, reason: 'not_found' };
    if (before.role === 'owner' && (await ownerCount(tx, input.orgId)) < 2)
      return { ok: false, reason: 'last_owner' };
    await tx
      .delete(memberships)
      .where(and(eq(memberships.orgId, input.orgId), eq(memberships.userId, input.userId)));
    await revokeUserSessions(tx, input.userId);
    return { ok: true, before };
  });
}

/** Takes the organisation's lock, then reads the member's role and buildings as they stand. */
async function lockMembership(
  tx: Pick<Database, 'execute' | 'select'>,
  { orgId, userId }: { orgId: string; userId: string },
) {
  await lockOrganization(tx, orgId);
  const [row] = await tx
    .select({
      role: memberships.role,
      buildingIds: memberBuildingIds,
    })
    .from(memberships)
    .leftJoin(memberBuildings, eq(memberBuildings.userId, memberships.userId))
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)))
    .groupBy(memberships.userId);
  return row ? { role: row.role, buildingIds: row.buildingIds ?? [] } : null;
}

async function ownerCount(tx: Pick<Database, 'select'>, orgId: string): Promise<number> {
  const [row] = await tx
    .select({ value: count() })
    .from(memberships)
    .where(and(eq(memberships.orgId, orgId), eq(memberships.role, 'owner')));
  return row?.value ?? 0;
}

export type Invitation = typeof invitations.$inferSelect;

export async function createInvitation(input: {
  orgId: string;
  email: string;
  role: Role;
  buildingIds: string[];
  tokenHash: string;
  invitedBy: string | null;
  invitedByName: string;
  expiresAt: Date;
}): Promise<Invitation> {
  const db = await getDb();
  const [row] = await db
    .insert(invitations)
    .values({ ...input, email: input.email.toLowerCase() })
    .returning();
  if (!row) throw new Error('invitation insert returned no row');
  return row;
}

/** The organisation's invitations, newest first: pending ones and the last month's others. */
export async function listInvitations({
  orgId,
  now = new Date(),
}: {
  orgId: string;
  now?: Date;
}): Promise<Invitation[]> {
  const db = await getDb();
  return db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.orgId, orgId),
        gt(invitations.createdAt, new Date(now.getTime() - 30 * 86_400_000)),
      ),
    )
    .orderBy(desc(invitations.createdAt))
    .limit(200);
}

/**
 * Revokes a pending invitation of this organisation when `mayRevoke` allows its role: 'gone' when
 * there is none to revoke, 'role' when the caller may not revoke one of that role
 * (lib/members/invitations.ts `withdrawMemberInvitation` asks lib/auth/permissions.ts).
 */
export async function revokeInvitation(input: {
  orgId: string;
  id: string;
  mayRevoke: (role: Role) => boolean;
}): Promise<{ ok: true; invitation: Invitation } | { ok: false; reason: 'gone' | 'role' }> {
  const db = await getDb();
  const pending = and(
    eq(invitations.orgId, input.orgId),
    eq(invitations.id, input.id),
    isNull(invitations.acceptedAt),
    isNull(invitations.revokedAt),
  );
  const [found] = await db.select({ role: invitations.role }).from(invitations).where(pending);
  if (!found) return { ok: false, reason: 'gone' };
  if (!input.mayRevoke(found.role)) return { ok: false, reason: 'role' };
  const [row] = await db
    .update(invitations)
    .set({ revokedAt: new Date() })
    .where(pending)
    .returning();
  return row ? { ok: true, invitation: row } : { ok: false, reason: 'gone' };
}

export async function findInvitationByToken({
  tokenHash,
}: {
  tokenHash: string;
}): Promise<(Invitation & { orgName: string }) | null> {
  const db = await getDb();
  const [row] = await db
    .select({ invitation: invitations, orgName: organizations.name })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.orgId))
    .where(eq(invitations.tokenHash, tokenHash));
  return row ? { ...row.invitation, orgName: row.orgName } : null;
}

export type InvitationProblem = 'unknown' | 'used' | 'revoked' | 'expired' | 'member_elsewhere';

/**
 * Accepts an invitation with a password: creates the account (or takes back one that belongs to
 * no organisation any more) and its membership, once. Everything is checked again under the
 * organisation's lock, so two tabs accepting one link make one member.
 */
export async function acceptInvitation(input: {
  tokenHash: string;
  name: string;
  passwordHash: string;
  now?: Date;
}): Promise<
  { ok: true; user: PublicUser; orgId: string } | { ok: false; problem: InvitationProblem }
> {
  const db = await getDb();
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select({ email: invitations.email })
      .from(invitations)
      .where(eq(invitations.tokenHash, input.tokenHash));
    if (target) await lockEmail(tx, target.email);
    const [invitation] = await tx
      .select()
      .from(invitations)
      .where(eq(invitations.tokenHash, input.tokenHash))
      .for('update');
    const problem = invitation ? invitationProblem(invitation, now) : 'unknown';
    if (!invitation || problem) return { ok: false, problem: problem ?? 'unknown' };
    await lockOrganization(tx, invitation.orgId);
    const [existing] = await tx
      .select({ id: users.id, orgId: memberships.orgId })
      .from(users)
      .leftJoin(memberships, eq(memberships.userId, users.id))
      .where(eq(users.email, invitation.email));
    if (existing?.orgId) return { ok: false, problem: 'member_elsewhere' };
    const [user] = existing
      ? await tx
          .update(users)
          .set({ name: input.name, passwordHash: input.passwordHash })
          .where(eq(users.id, existing.id))
          .returning(publicUserColumns)
      : await tx
          .insert(users)
          .values({ email: invitation.email, name: input.name, passwordHash: input.passwordHash })
          .returning(publicUserColumns);
    if (!user) throw new Error('invited account insert returned no row');
    await tx
      .insert(memberships)
      .values({ userId: user.id, orgId: invitation.orgId, role: invitation.role });
    await insertMemberBuildings(
      tx,
      user.id,
      invitation.orgId,
      invitation.role,
      invitation.buildingIds,
    );
    await tx.update(invitations).set({ acceptedAt: now }).where(eq(invitations.id, invitation.id));
    return { ok: true, user, orgId: invitation.orgId };
  });
}

/** Why an invitation can no longer be used, or null while it can. */
export function invitationProblem(
  invitation: Pick<Invitation, 'acceptedAt' | 'revokedAt' | 'expiresAt'>,
  now = new Date(),
): InvitationProblem | null {
  if (invitation.acceptedAt) return 'used';
  if (invitation.revokedAt) return 'revoked';
  if (invitation.expiresAt <= now) return 'expired';
  return null;
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

/** The buildings in scope, by name, with how many thermostats each has. */
export async function listBuildings({ scope }: { scope: Scope }): Promise<BuildingSummary[]> {
  const db = await getDb();
  const rows = await db
    .select({ building: buildings, thermostatCount: count(thermostats.thermostatId) })
    .from(buildings)
    .leftJoin(
      thermostats,
      and(eq(thermostats.orgId, buildings.orgId), eq(thermostats.buildingId, buildings.buildingId)),
    )
    .where(buildingsInScope(scope))
    .groupBy(buildings.orgId, buildings.buildingId)
    .orderBy(asc(buildings.name));
  return rows.map((row) => ({ ...row.building, thermostatCount: row.thermostatCount }));
}

/** Every building of the organisation (for an owner or admin choosing a manager's buildings). */
export async function listOrganizationBuildings({ orgId }: { orgId: string }): Promise<Building[]> {
  const db = await getDb();
  return db.select().from(buildings).where(eq(buildings.orgId, orgId)).orderBy(asc(buildings.name));
}

export async function findBuilding(input: {
  scope: Scope;
  buildingId: string;
}): Promise<Building | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(buildings)
    .where(and(buildingsInScope(input.scope), eq(buildings.buildingId, input.buildingId)));
  return row ?? null;
}

/** Adds a building the organisation did not have yet; an existing one keeps its name and address. */
export async function ensureBuilding(
  input: BuildingKey & { name: string; timeZone: string; address?: string },
): Promise<string> {
  const db = await getDb();
  await db.insert(buildings).values(input).onConflictDoNothing();
  // A building already in the portfolio keeps the name its managers gave it.
  const [row] = await db.select({ name: buildings.name }).from(buildings).where(buildingIs(input));
  return row?.name ?? input.name;
}

export async function updateBuilding(
  input: BuildingKey & { name: string; address: string },
): Promise<void> {
  const db = await getDb();
  await db
    .update(buildings)
    .set({ name: input.name, address: input.address })
    .where(buildingIs(input));
}

/** Thermostats in scope: all, one building's, or only these ids (none when the list is empty). */
export type ThermostatSelection = { scope: Scope; buildingId?: string; thermostatIds?: string[] };

export async function listThermostats(input: ThermostatSelection): Promise<PortfolioThermostat[]> {
  if (input.thermostatIds?.length === 0) return [];
  const db = await getDb();
  return db
    .select()
    .from(thermostats)
    .where(
      and(
        thermostatsInScope(input.scope),
        input.buildingId ? eq(thermostats.buildingId, input.buildingId) : undefined,
        input.thermostatIds ? inArray(thermostats.thermostatId, input.thermostatIds) : undefined,
      ),
    )
    .orderBy(asc(thermostats.unitLabel), asc(thermostats.thermostatId));
}

export type ScopedThermostat = PortfolioThermostat & { building: Building | null };

export async function findThermostat(input: {
  scope: Scope;
  thermostatId: string;
}): Promise<ScopedThermostat | null> {
  const db = await getDb();
  const [row] = await db
    .select({ thermostat: thermostats, building: buildings })
    .from(thermostats)
    .leftJoin(buildings, buildingOfThermostat)
    .where(and(thermostatsInScope(input.scope), eq(thermostats.thermostatId, input.thermostatId)));
  return row ? { ...row.thermostat, building: row.building } : null;
}

/** Which of these thermostats the organisation already has, each with its building's name. */
export async function findKnownThermostats(input: {
  orgId: string;
  thermostatIds: string[];
}): Promise<Map<string, string>> {
  if (input.thermostatIds.length === 0) return new Map();
  const db = await getDb();
  const rows = await db
    .select({ id: thermostats.thermostatId, building: buildings.name })
    .from(thermostats)
    .innerJoin(buildings, buildingOfThermostat)
    .where(
      and(
        eq(thermostats.orgId, input.orgId),
        inArray(thermostats.thermostatId, input.thermostatIds),
      ),
    );
  return new Map(rows.map((row) => [row.id, row.building]));
}

export async function addThermostat(
  input: ThermostatKey & { buildingId: string; unitLabel: string },
): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .insert(thermostats)
    .values(input)
    .onConflictDoNothing()
    .returning({ id: thermostats.thermostatId });
  return rows.length === 1;
}

export async function updateThermostatLabel(
  input: ThermostatKey & { unitLabel: string },
): Promise<void> {
  const db = await getDb();
  await db.update(thermostats).set({ unitLabel: input.unitLabel }).where(thermostatIs(input));
}

/**
 * Claims a thermostat for a move from the building it is in: true for the one caller that finds
 * it there with no move in flight. A second, concurrent move sees the first instead of racing it.
 */
export async function startMove(
  input: ThermostatKey & { from: string; to: string },
): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(thermostats)
    .set({ movingTo: input.to })
    .where(
      and(
        thermostatIs(input),
        eq(thermostats.buildingId, input.from),
        isNull(thermostats.movingTo),
      ),
    )
    .returning({ id: thermostats.thermostatId });
  return rows.length === 1;
}

/** Ends a claimed move: in the new building when it was made, where it was when it failed. */
export async function finishMove(input: ThermostatKey & { movedTo: string | null }): Promise<void> {
  const db = await getDb();
  await db
    .update(thermostats)
    .set(input.movedTo ? { movingTo: null, buildingId: input.movedTo } : { movingTo: null })
    .where(thermostatIs(input));
}

export async function removeThermostat(input: ThermostatKey): Promise<void> {
  const db = await getDb();
  await db.delete(thermostats).where(thermostatIs(input));
}

// --- Activity log ----------------------------------------------------------------------------

export type ActivityEntry = typeof activityLog.$inferSelect & { action: ActivityAction };
export type NewActivityEntry = Omit<typeof activityLog.$inferInsert, 'id' | 'at'> & {
  orgId: string;
  action: ActivityAction;
};

export async function recordActivity(entry: NewActivityEntry): Promise<void> {
  const db = await getDb();
  await db.insert(activityLog).values(entry);
}

export type ActivityFilter = {
  buildingId?: string;
  /** Entries about any of these thermostats. */
  thermostatIds?: string[];
  userId?: string;
  action?: ActivityAction;
  from?: Date;
  /** Exclusive. */
  to?: Date;
};

/** An entry of a bulk run whose items meet `condition` (one entry stands for many thermostats). */
const runTouched = (condition: SQL | undefined) =>
  sql`(${activityLog.runId} is not null and exists (select 1 from ${bulkRunItems} where ${bulkRunItems.runId} = ${activityLog.runId} and ${condition ?? sql`true`}))`;

/**
 * The entries a scope may see: the organisation's; for a building manager those of their
 * buildings (a bulk run's, when it touched one of them) and their own.
 */
function activityInScope(scope: Scope): SQL | undefined {
  return and(
    eq(activityLog.orgId, scope.orgId),
    scope.buildingIds === null
      ? undefined
      : or(
          inBuildings(activityLog.buildingId, scope),
          eq(activityLog.userId, scope.userId),
          runTouched(inBuildings(bulkRunItems.buildingId, scope)),
        ),
  );
}

/**
 * The scope's activity, newest first, a page at a time: `before` is the last entry of the page
 * shown (keyset paging, so a page costs the same however deep). A building manager sees the
 * entries of their buildings and their own. Filters by building or thermostat also find the bulk
 * runs that touched them.
 */
export async function listActivity(input: {
  scope: Scope;
  filter?: ActivityFilter;
  before?: { at: Date; id: number };
  limit?: number;
}): Promise<ActivityEntry[]> {
  const db = await getDb();
  const { scope, filter = {} } = input;
  const rows = await db
    .select()
    .from(activityLog)
    .where(
      and(
        activityInScope(scope),
        filter.buildingId
          ? or(
              eq(activityLog.buildingId, filter.buildingId),
              runTouched(eq(bulkRunItems.buildingId, filter.buildingId)),
            )
          : undefined,
        filter.thermostatIds
          ? filter.thermostatIds.length > 0
            ? or(
                inArray(activityLog.thermostatId, filter.thermostatIds),
                runTouched(inArray(bulkRunItems.thermostatId, filter.thermostatIds)),
              )
            : sql`false`
          : undefined,
        filter.userId ? eq(activityLog.userId, filter.userId) : undefined,
        filter.action ? eq(activityLog.action, filter.action) : undefined,
        filter.from ? gte(activityLog.at, filter.from) : undefined,
        filter.to ? lt(activityLog.at, filter.to) : undefined,
        input.before
          ? or(
              lt(activityLog.at, input.before.at),
              and(eq(activityLog.at, input.before.at), lt(activityLog.id, input.before.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(activityLog.at), desc(activityLog.id))
    .limit(input.limit ?? 50);
  return rows as ActivityEntry[];
}

/** The people who appear in the scope's activity log, for its filter. */
/** One entry of the activity log, if the scope sees it. */
export async function findActivityEntry(input: {
  scope: Scope;
  entryId: number;
}): Promise<ActivityEntry | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.id, input.entryId), activityInScope(input.scope)));
  return row ? (row as ActivityEntry) : null;
}

export async function listActivityPeople({
  scope,
}: {
  scope: Scope;
}): Promise<{ userId: string; name: string }[]> {
  const db = await getDb();
  const rows = await db
    .selectDistinct({ userId: activityLog.userId, name: activityLog.actorName })
    .from(activityLog)
    .where(activityInScope(scope))
    .orderBy(asc(activityLog.actorName));
  return rows.flatMap((row) => (row.userId ? [{ userId: row.userId, name: row.name }] : []));
}

/** Thermostats in scope whose id is this one or whose label contains the text, at most `limit`. */
export async function searchThermostats(input: {
  scope: Scope;
  text: string;
  limit?: number;
}): Promise<PortfolioThermostat[]> {
  const db = await getDb();
  const text = input.text.trim();
  const pattern = `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  return db
    .select()
    .from(thermostats)
    .where(
      and(
        thermostatsInScope(input.scope),
        or(eq(thermostats.thermostatId, text), ilike(thermostats.unitLabel, pattern)),
      ),
    )
    .orderBy(asc(thermostats.unitLabel))
    .limit(input.limit ?? 50);
}
