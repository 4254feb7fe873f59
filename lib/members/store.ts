import 'server-only';
import { and, asc, count, desc, eq, gt, isNull } from 'drizzle-orm';
import {
  insertMemberBuildings,
  lockEmail,
  lockOrganization,
  memberBuildingIds,
  memberColumns,
  type PublicUser,
  publicUserColumns,
} from '@/lib/auth/store';
import { type Database, getDb } from '@/lib/db/client';
import {
  invitations,
  memberBuildings,
  memberships,
  organizations,
  type Role,
  sessions,
  users,
} from '@/lib/db/schema';

/** The members store: an organisation's members, their roles and buildings, and invitations. */

/** Ends every session of a person at once (removed from the organisation, or leaving). */
async function revokeUserSessions(tx: Pick<Database, 'update'>, userId: string) {
  await tx
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

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
