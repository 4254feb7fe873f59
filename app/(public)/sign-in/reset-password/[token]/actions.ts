'use server';

import { redirect } from 'next/navigation';
import {
  completePasswordReset,
  RESET_PROBLEMS,
  readPasswordReset,
} from '@/lib/auth/password-reset';
import { type ResetPasswordField, resetPasswordSchema } from '@/lib/auth/schemas';
import { rememberSignInEmail } from '@/lib/auth/sign-in-email';
import { type FormState, fieldErrorsOf } from '@/lib/platform/forms';
import { withNotice } from '@/lib/platform/notice';

/**
 * Chooses a new password through a reset link. No session is needed: the link is the
 * credential, good once, for 30 minutes. Using it ends every session of the account; the person
 * then signs in with the new password.
 */
export async function resetPasswordAction(
  token: string,
  _previous: FormState<ResetPasswordField>,
  form: FormData,
): Promise<FormState<ResetPasswordField>> {
  // The link first: the password is checked against its account's email and organisation.
  const read = await readPasswordReset(token);
  if (!read.ok) return { status: 'error', message: RESET_PROBLEMS[read.problem] };
  const parsed = await resetPasswordSchema({
    email: read.account.email,
    orgName: read.account.orgName,
  }).safeParseAsync({ password: form.get('password') ?? '', confirm: form.get('confirm') ?? '' });
  if (!parsed.success) return { status: 'error', fieldErrors: fieldErrorsOf(parsed.error) };
  const done = await completePasswordReset({ token, password: parsed.data.password });
  if (!done.ok) return { status: 'error', message: RESET_PROBLEMS[done.problem] };
  await rememberSignInEmail(done.account.email);
  redirect(withNotice('/sign-in', 'anyone', 'passwordChanged'));
}
