import { randomBytes } from 'node:crypto';
import {
  createFirstOrganization,
  createOrganization,
  createSession,
  findSessionMember,
  type Member,
} from '@/lib/auth/store';
import type { Role } from '@/lib/db/schema';
import { acceptInvitation, createInvitation, type Invitation } from '@/lib/members/store';

/**
 * Organisations and members for data-layer tests, made the way the app makes them: first-run
 * setup for the first, then an organisation and invitations accepted with a password.
 */
export async function createFirstOwner(
  email = 'owner@example.com',
  orgName = 'Reyes Property',
): Promise<Member> {
  const user = await createFirstOrganization({ orgName, email, name: 'Owner', passwordHash: 'x' });
  if (!user) throw new Error('setup is closed: an account exists');
  return signedIn(user.id);
}

export async function createOrganizationWithOwner(
  email: string,
  orgName = 'Northwind Property',
): Promise<Member> {
  const org = await createOrganization({ name: orgName });
  return inviteAndAccept(org.id, email, 'owner');
}

/** A member of `orgId` with this role (and buildings, for a building manager). */
export async function inviteAndAccept(
  orgId: string,
  email: string,
  role: Role,
  buildingIds: string[] = [],
): Promise<Member> {
  const { tokenHash } = await invite(orgId, email, role, { buildingIds });
  const accepted = await acceptInvitation({
    tokenHash,
    name: email.split('@')[0] ?? email,
    passwordHash: 'x',
  });
  if (!accepted.ok) throw new Error(`invitation not accepted: ${accepted.problem}`);
  return signedIn(accepted.user.id);
}

/** A pending invitation to `orgId` (valid for a day unless `expiresAt` says otherwise). */
export async function invite(
  orgId: string,
  email: string,
  role: Role,
  options: { buildingIds?: string[]; expiresAt?: Date } = {},
): Promise<Invitation> {
  return createInvitation({
    orgId,
    email,
    role,
    buildingIds: options.buildingIds ?? [],
    tokenHash: randomBytes(16).toString('hex'),
    invitedBy: null,
    invitedByName: 'Test',
    expiresAt: options.expiresAt ?? new Date(Date.now() + 86_400_000),
  });
}

/** The member as a session sees them (role, buildings), through the session query itself. */
export async function signedIn(userId: string): Promise<Member> {
  return (await signIn(userId)).member;
}

/** A new session for this account, and the member it reads as. */
export async function signIn(userId: string): Promise<{ sessionId: string; member: Member }> {
  const sessionId = randomBytes(12).toString('hex');
  await createSession({ id: sessionId, userId, expiresAt: new Date(Date.now() + 3_600_000) });
  const member = await findSessionMember({ sessionId });
  if (!member) throw new Error('no membership');
  return { sessionId, member };
}
