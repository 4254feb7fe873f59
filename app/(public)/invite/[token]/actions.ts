'use server';

import { redirect } from 'next/navigation';
import { formStrings } from '@/lib/actions';
import { logActivity } from '@/lib/activity';
import { hashPassword } from '@/lib/auth/password';
import { type AcceptInvitationField, acceptInvitationSchema } from '@/lib/auth/schemas';
import { rememberSignInEmail } from '@/lib/auth/sign-in-email';
import { acceptInvitation } from '@/lib/db/queries';
import { type FormState, fieldErrorsOf } from '@/lib/forms';
import { hashInvitationToken, INVITATION_PROBLEMS } from '@/lib/members/invitations';

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
  const parsed = acceptInvitationSchema.safeParse({
    name: form.get('name') ?? '',
    password: form.get('password') ?? '',
    confirm: form.get('confirm') ?? '',
  });
  if (!parsed.success) return { status: 'error', fieldErrors: fieldErrorsOf(parsed.error), values };
  if (typeof token !== 'string' || token.length > 100) {
    return { status: 'error', message: INVITATION_PROBLEMS.unknown, values };
  }
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
  redirect('/sign-in?joined=1');
}
