'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { formStrings, openAction, openOwnAction } from '@/lib/access/actions';
import { notYours } from '@/lib/access/not-yours';
import { logActivity } from '@/lib/activity/sink';
import { canManageMember, ROLE_NAMES, ROLES, refusal } from '@/lib/auth/permissions';
import { emailSchema, organizationNameSchema } from '@/lib/auth/schemas';
import { isMemberAnywhere, unlockSignIn, updateOrganization } from '@/lib/auth/store';
import { findMembership, removeMembership, updateMembership } from '@/lib/members/store';
import { listOrganizationBuildings } from '@/lib/portfolio/store';
import { type FormState, fieldErrorsOf } from '@/lib/platform/forms';
import { withNotice } from '@/lib/platform/notice';
import { createMemberInvitation, withdrawMemberInvitation } from '@/lib/members/invitations';
import { buildingIdSchema } from '@/lib/service/schemas';

const roleSchema = z.enum(ROLES, 'Choose a role.');
const buildingIdsSchema = z.array(buildingIdSchema, 'Choose buildings from the list.').max(1000);
const LAST_OWNER =
  'An organisation always keeps at least one owner: make someone else an owner first.';
const NOT_A_MEMBER: FormState = { status: 'error', message: notYours('member') };

/** The role and buildings posted, checked against the organisation's buildings. */
async function readRole(orgId: string, form: FormData) {
  const parsed = z
    .object({ role: roleSchema, buildingIds: buildingIdsSchema })
    .refine((value) => value.role !== 'building_manager' || value.buildingIds.length > 0, {
      path: ['buildingIds'],
      message: 'Choose at least one building for a building manager.',
    })
    .safeParse({ role: form.get('role'), buildingIds: form.getAll('buildingIds') });
  if (!parsed.success) return { ok: false as const, fieldErrors: fieldErrorsOf(parsed.error) };
  const known = new Set(
    (await listOrganizationBuildings({ orgId })).map((building) => building.buildingId),
  );
  if (!parsed.data.buildingIds.every((id) => known.has(id))) {
    return {
      ok: false as const,
      fieldErrors: { buildingIds: ['Choose buildings of your organisation.'] },
    };
  }
  const buildingIds = parsed.data.role === 'building_manager' ? parsed.data.buildingIds : [];
  return { ok: true as const, role: parsed.data.role, buildingIds };
}

/** Invites someone by email with a role; the link is shown once, and emailed when email is on. */
export async function inviteMember(_previous: FormState, form: FormData): Promise<FormState> {
  const opened = await openAction('manage_members');
  if (!opened.ok) return opened.state;
  const { member } = opened;
  const values = formStrings(form, ['email', 'role']);
  const email = emailSchema.safeParse(form.get('email'));
  const role = await readRole(member.orgId, form);
  if (!email.success || !role.ok) {
    return {
      status: 'error',
      fieldErrors: {
        ...(email.success ? {} : { email: email.error.issues.map((issue) => issue.message) }),
        ...(role.ok ? {} : role.fieldErrors),
      },
      values,
    };
  }
  if (!canManageMember(member, { role: 'viewer' }, role.role)) {
    return {
      status: 'error',
      fieldErrors: { role: ['Only an owner can invite an owner.'] },
      values,
    };
  }
  if (await isMemberAnywhere({ email: email.data })) {
    return {
      status: 'error',
      fieldErrors: {
        email: ['This email already belongs to a member of an organisation on Setpoint.'],
      },
      values,
    };
  }
  const { invitation, link, emailed } = await createMemberInvitation({
    orgId: member.orgId,
    orgName: member.orgName,
    email: email.data,
    role: role.role,
    buildingIds: role.buildingIds,
    invitedBy: { userId: member.userId, name: member.name },
  });
  await logActivity({
    actor: member,
    action: 'member.invite',
    summary: `Invited ${invitation.email} as ${ROLE_NAMES[invitation.role].toLowerCase()}`,
    changes: {
      email: invitation.email,
      role: invitation.role,
      buildingIds: invitation.buildingIds,
    },
  });
  revalidatePath('/members');
  return {
    status: 'success',
    message: emailed
      ? `Invitation emailed to ${invitation.email}. The link below works too, once, for 7 days.`
      : `Pass this link on to ${invitation.email} yourself (email is not set up). It works once, for 7 days, and cannot be shown again.`,
    link,
  };
}

/** Withdraws a pending invitation; its link then says it was withdrawn. */
export async function withdrawInvitation(
  invitationId: string,
  _previous: FormState,
  _form: FormData,
): Promise<FormState> {
  const opened = await openAction('manage_members');
  if (!opened.ok) return opened.state;
  const { member } = opened;
  const id = z.uuid().safeParse(invitationId);
  const revoked = id.success
    ? await withdrawMemberInvitation({ actor: member, id: id.data })
    : ({ ok: false, reason: 'gone' } as const);
  if (!revoked.ok) {
    return {
      status: 'error',
      message:
        revoked.reason === 'role'
          ? refusal(member.role, 'manage_owners')
          : 'That invitation is no longer pending.',
    };
  }
  await logActivity({
    actor: member,
    action: 'member.invite_revoke',
    summary: `Withdrew the invitation of ${revoked.invitation.email}`,
    changes: { email: revoked.invitation.email, role: revoked.invitation.role },
  });
  revalidatePath('/members');
  // Its row changes with it: the page says what was done.
  redirect(
    withNotice('/members', member, 'invitationWithdrawn', { email: revoked.invitation.email }),
  );
}

/** An action on another member: the session and role, and a member of this organisation. */
async function openMember(userId: string) {
  const opened = await openAction('manage_members');
  if (!opened.ok) return opened;
  const target = z.uuid().safeParse(userId).success
    ? await findMembership({ orgId: opened.member.orgId, userId })
    : null;
  if (!target) return { ok: false as const, state: NOT_A_MEMBER };
  return { ok: true as const, member: opened.member, target };
}

/** Why a change to a membership was not made, as the form says it. */
function notChanged(reason: 'not_found' | 'last_owner'): FormState {
  return reason === 'last_owner' ? { status: 'error', message: LAST_OWNER } : NOT_A_MEMBER;
}

/** Changes a member's role (and a building manager's buildings). */
export async function changeMember(
  userId: string,
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const opened = await openMember(userId);
  if (!opened.ok) return opened.state;
  const { member, target } = opened;
  const role = await readRole(member.orgId, form);
  if (!role.ok) return { status: 'error', fieldErrors: role.fieldErrors };
  if (!canManageMember(member, target, role.role)) {
    return { status: 'error', message: refusal(member.role, 'manage_owners') };
  }
  const changed = await updateMembership({ orgId: member.orgId, userId: target.id, ...role });
  if (!changed.ok) return notChanged(changed.reason);
  await logActivity({
    actor: member,
    action: 'member.update',
    summary: `Made ${target.name} ${ROLE_NAMES[role.role].toLowerCase()}${role.buildingIds.length ? ` of ${role.buildingIds.length} building${role.buildingIds.length === 1 ? '' : 's'}` : ''}`,
    changes: {
      email: target.email,
      role: { from: changed.before.role, to: role.role },
      buildingIds: { from: changed.before.buildingIds, to: role.buildingIds },
    },
  });
  revalidatePath('/', 'layout');
  return {
    status: 'success',
    message: `${target.name} is now ${ROLE_NAMES[role.role].toLowerCase()}.`,
  };
}

/** Removes a member: their membership goes and every session of theirs ends at once. */
export async function removeMember(
  userId: string,
  _previous: FormState,
  _form: FormData,
): Promise<FormState> {
  const opened = await openAction('manage_members');
  if (!opened.ok) return opened.state;
  const { member } = opened;
  if (userId === member.userId) {
    return { status: 'error', message: 'To leave the organisation yourself, use Leave below.' };
  }
  const target = z.uuid().safeParse(userId).success
    ? await findMembership({ orgId: member.orgId, userId })
    : null;
  if (!target) return NOT_A_MEMBER;
  if (!canManageMember(member, target)) {
    return { status: 'error', message: refusal(member.role, 'manage_owners') };
  }
  const removed = await removeMembership({ orgId: member.orgId, userId: target.id });
  if (!removed.ok) return notChanged(removed.reason);
  await logActivity({
    actor: member,
    action: 'member.remove',
    summary: `Removed ${target.name} (${ROLE_NAMES[removed.before.role].toLowerCase()})`,
    changes: { email: target.email, role: removed.before.role },
  });
  revalidatePath('/members');
  // Their row goes with them: the page says what was done.
  redirect(withNotice('/members', member, 'memberRemoved', { name: target.name }));
}

/**
 * Lets a member whose account is locked by failed sign-ins (someone guessing at it) sign in
 * again at once: their earlier failures stop counting.
 */
export async function unlockMemberSignIn(
  userId: string,
  _previous: FormState,
  _form: FormData,
): Promise<FormState> {
  const opened = await openMember(userId);
  if (!opened.ok) return opened.state;
  const { member, target } = opened;
  if (!canManageMember(member, target)) {
    return { status: 'error', message: refusal(member.role, 'manage_owners') };
  }
  await unlockSignIn({ email: target.email });
  await logActivity({
    actor: member,
    action: 'member.unlock',
    summary: `Let ${target.name} sign in again after failed attempts`,
    changes: { email: target.email },
  });
  return { status: 'success', message: `${target.name} can sign in again.` };
}

/** Leaves the organisation (not the last owner): signed out at once, everywhere. */
export async function leaveOrganization(_previous: FormState, _form: FormData): Promise<FormState> {
  const member = await openOwnAction();
  const left = await removeMembership({ orgId: member.orgId, userId: member.userId });
  if (!left.ok) {
    return left.reason === 'last_owner'
      ? { status: 'error', message: LAST_OWNER }
      : { status: 'error', message: 'You are not a member any more.' };
  }
  await logActivity({
    actor: member,
    action: 'member.leave',
    summary: `${member.name} left the organisation`,
    changes: { email: member.email, role: left.before.role },
  });
  // Signed out everywhere: the sign-in page's notices are for anyone.
  redirect(withNotice('/sign-in', 'anyone', 'leftOrganization'));
}

const organizationSchema = z
  .object({
    name: organizationNameSchema,
    ssoDomain: z
      .string('Enter a domain as text.')
      .trim()
      .toLowerCase()
      .transform((value) => value.replace(/^@/, ''))
      .pipe(
        z
          .string()
          .max(253, 'Use at most 253 characters.')
          .regex(
            /^$|^([a-z0-9-]+\.)+[a-z]{2,}$/,
            'Enter a domain such as example.com, or leave it empty.',
          ),
      ),
    ssoDefaultRole: z.enum(['admin', 'building_manager', 'viewer', ''], 'Choose a role.'),
  })
  .refine((value) => !value.ssoDomain || value.ssoDefaultRole, {
    path: ['ssoDefaultRole'],
    message: 'Choose the role people from this domain get.',
  });

/** The organisation's name and its company SSO sign-up rule. */
export async function saveOrganization(_previous: FormState, form: FormData): Promise<FormState> {
  const opened = await openAction('manage_organization');
  if (!opened.ok) return opened.state;
  const { member } = opened;
  const values = formStrings(form, ['name', 'ssoDomain', 'ssoDefaultRole']);
  const parsed = organizationSchema.safeParse({
    name: form.get('name'),
    ssoDomain: form.get('ssoDomain') ?? '',
    ssoDefaultRole: form.get('ssoDefaultRole') ?? '',
  });
  if (!parsed.success) return { status: 'error', fieldErrors: fieldErrorsOf(parsed.error), values };
  const { name, ssoDomain, ssoDefaultRole } = parsed.data;
  const saved = await updateOrganization({
    orgId: member.orgId,
    name,
    ssoDomain: ssoDomain || null,
    ssoDefaultRole: ssoDomain && ssoDefaultRole ? ssoDefaultRole : null,
  });
  if (!saved) {
    return {
      status: 'error',
      fieldErrors: { ssoDomain: ['Another organisation on Setpoint already uses this domain.'] },
      values,
    };
  }
  await logActivity({
    actor: member,
    action: 'organization.update',
    summary: ssoDomain
      ? `Named the organisation ${name}; company SSO admits ${ssoDomain} as ${ROLE_NAMES[ssoDefaultRole || 'viewer'].toLowerCase()}`
      : `Named the organisation ${name}; company SSO admits invited people only`,
    changes: { name, ssoDomain: ssoDomain || null, ssoDefaultRole: ssoDefaultRole || null },
  });
  revalidatePath('/', 'layout');
  return { status: 'success', message: 'Saved.', values };
}
