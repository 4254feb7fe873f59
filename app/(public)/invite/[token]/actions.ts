'use server';

import { redirect } from 'next/navigation';
import { formStrings } from '@/lib/access/actions';
import { logActivity } from '@/lib/activity/sink';
import { hashPassword } from '@/lib/auth/password';
import { type AcceptInvitationField, acceptInvitationSchema } from '@/lib/auth/schemas';
import { rememberSignInEmail } from '@/lib/auth/sign-in-email';
import { rememberSsoInvitation } from '@/lib/auth/sso-invitation';
import { acceptInvitation } from '@/lib/members/store';
import { type FormState, fieldErrorsOf } from '@/lib/platform/forms';
import { withNotice } from '@/lib/platform/notice';
import {
  hashInvitationToken,
  INVITATION_PROBLEMS,
  readInvitation,
} from '@/lib/members/invitations';

/**
 * Accepts an invitation with a name and password: the account is the invitation's email, the
 * role and buildings are the invitation's. No session is needed: the link is the credential,
 * good once and for 7 days.
 */
export async function acceptInvitationAction(
  token: string,
  _previous: FormState<AcceptInvitationField>,
  form: FormData,
): Promise<FormState<AcceptInvitationField>> {
  const values = { name: formStrings(form, ['name']).name };
  // The invitation first: the password is checked against its email and organisation.
  const read =
    typeof token === 'string' && token.length <= 100 ? await readInvitation(token) : null;
  if (!read?.ok) {
    return { status: 'error', message: INVITATION_PROBLEMS[read?.problem ?? 'unknown'], values };
  }
  const parsed = await acceptInvitationSchema({
    email: read.invitation.email,
    orgName: read.invitation.orgName,
  }).safeParseAsync({
    name: form.get('name') ?? '',
    password: form.get('password') ?? '',
    confirm: form.get('confirm') ?? '',
  });
  if (!parsed.success) return { status: 'error', fieldErrors: fieldErrorsOf(parsed.error), values };
  const accepted = await acceptInvitation({
    tokenHash: hashInvitationToken(token),
    name: parsed.data.name,
    passwordHash: await hashPassword(parsed.data.password),
  });
  if (!accepted.ok)
    return { status: 'error', message: INVITATION_PROBLEMS[accepted.problem], values };
  await logActivity({
    actor: { orgId: accepted.orgId, userId: accepted.user.id, name: accepted.user.name },
    action: 'member.join',
    summary: `${accepted.user.name} joined with an invitation`,
    changes: { email: accepted.user.email },
  });
  await rememberSignInEmail(accepted.user.email);
  redirect(withNotice('/sign-in', 'anyone', 'joined'));
}

/**
 * Joins with company SSO instead of a password: remembers this invitation for the SSO sign-in
 * (the identity provider vouches only for the email, which more than one organisation may have
 * invited), then sends the person to sign in. Nothing is accepted until they have.
 */
export async function joinWithSsoAction(
  token: string,
  _previous: FormState,
  _form: FormData,
): Promise<FormState> {
  const read = typeof token === 'string' ? await readInvitation(token) : null;
  if (!read?.ok)
    return { status: 'error', message: INVITATION_PROBLEMS[read?.problem ?? 'unknown'] };
  await rememberSsoInvitation(hashInvitationToken(token));
  await rememberSignInEmail(read.invitation.email);
  redirect(withNotice('/sign-in', 'anyone', 'ssoInvitation'));
}
