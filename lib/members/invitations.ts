import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { canManageMember, type MemberScope, ROLE_NAMES } from '@/lib/auth/permissions';
import type { Role } from '@/lib/db/schema';
import {
  createInvitation,
  findInvitationByToken,
  type Invitation,
  type InvitationProblem,
  invitationProblem,
  revokeInvitation,
} from '@/lib/members/store';
import { type Email, emailEnabled, escapeHtml, sendEmail } from '@/lib/platform/email';
import { getEnv } from '@/lib/platform/env';

/** An invitation is good for a week, once. */
export const INVITATION_LIFETIME_MS = 7 * 86_400_000;

/** Only the hash of an invitation's token is stored, so a database dump cannot be used to join. */
export const hashInvitationToken = (token: string) =>
  createHash('sha256').update(token).digest('base64url');

export const invitationLink = (token: string) =>
  new URL(`/invite/${token}`, getEnv().NEXTAUTH_URL).toString();

/**
 * Withdraws a pending invitation of the actor's organisation: an owner or admin may, except that
 * one which would make an owner only an owner may withdraw ('role'), as only an owner makes one.
 */
export function withdrawMemberInvitation(input: {
  actor: MemberScope & { orgId: string };
  id: string;
}) {
  return revokeInvitation({
    orgId: input.actor.orgId,
    id: input.id,
    mayRevoke: (role) => canManageMember(input.actor, { role }),
  });
}

/**
 * Creates an invitation and its link; emails it when email is on. The link is returned once to
 * show to the inviter (it cannot be shown again: only its hash is kept). The caller has checked
 * that the inviter may grant this role.
 */
export async function createMemberInvitation(input: {
  orgId: string;
  orgName: string;
  email: string;
  role: Role;
  buildingIds: string[];
  invitedBy: { userId: string | null; name: string };
}): Promise<{ invitation: Invitation; link: string; emailed: boolean }> {
  const token = randomBytes(32).toString('base64url');
  const invitation = await createInvitation({
    orgId: input.orgId,
    email: input.email,
    role: input.role,
    buildingIds: input.role === 'building_manager' ? input.buildingIds : [],
    tokenHash: hashInvitationToken(token),
    invitedBy: input.invitedBy.userId,
    invitedByName: input.invitedBy.name,
    expiresAt: new Date(Date.now() + INVITATION_LIFETIME_MS),
  });
  const link = invitationLink(token);
  const emailed = emailEnabled()
    ? await sendEmail(
        invitationEmail({
          to: invitation.email,
          orgName: input.orgName,
          inviter: input.invitedBy.name,
          role: input.role,
          link,
          expiresAt: invitation.expiresAt,
        }),
      )
    : false;
  return { invitation, link, emailed };
}

export function invitationEmail(input: {
  to: string;
  orgName: string;
  inviter: string;
  role: Role;
  link: string;
  expiresAt: Date;
}): Email {
  const role = ROLE_NAMES[input.role].toLowerCase();
  const until = input.expiresAt.toUTCString();
  const text = [
    `${input.inviter} invited you to ${input.orgName} on Setpoint, as ${role}.`,
    '',
    `Accept the invitation: ${input.link}`,
    '',
    `The link works once, until ${until}. If you did not expect it, ignore this message.`,
  ].join('\n');
  const html = `<p>${escapeHtml(input.inviter)} invited you to <strong>${escapeHtml(input.orgName)}</strong> on Setpoint, as ${escapeHtml(role)}.</p>
<p><a href="${escapeHtml(input.link)}">Accept the invitation</a></p>
<p>The link works once, until ${escapeHtml(until)}. If you did not expect it, ignore this message.</p>`;
  return { to: input.to, subject: `You are invited to ${input.orgName} on Setpoint`, text, html };
}

/** An invitation's state for its page: usable (with what it grants), or why not. */
export async function readInvitation(
  token: string,
): Promise<
  | { ok: true; invitation: Invitation & { orgName: string } }
  | { ok: false; problem: InvitationProblem }
> {
  if (!/^[\w-]{20,100}$/.test(token)) return { ok: false, problem: 'unknown' };
  const invitation = await findInvitationByToken({ tokenHash: hashInvitationToken(token) });
  if (!invitation) return { ok: false, problem: 'unknown' };
  const problem = invitationProblem(invitation);
  return problem ? { ok: false, problem } : { ok: true, invitation };
}

export const INVITATION_PROBLEMS: Record<InvitationProblem, string> = {
  unknown:
    'This invitation link is not valid. Check that you copied all of it, or ask for a new one.',
  used: 'This invitation has already been used. Sign in with the account it created.',
  revoked:
    'This invitation was withdrawn. Ask an owner or admin of the organisation for a new one.',
  expired: 'This invitation has expired (they last 7 days). Ask an owner or admin for a new one.',
  member_elsewhere:
    'This email already belongs to a member of an organisation on Setpoint; one person can be in one organisation. Ask to be removed there first, or use another email.',
};
