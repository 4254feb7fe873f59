'use server';

import { redirect } from 'next/navigation';
import { formStrings } from '@/lib/access/actions';
import { hashPassword } from '@/lib/auth/password';
import { type SetupField, setupSchema } from '@/lib/auth/schemas';
import { rememberSignInEmail } from '@/lib/auth/sign-in-email';
import { countUsers, createFirstOrganization } from '@/lib/auth/store';
import { type FormState, fieldErrorsOf } from '@/lib/platform/forms';
import { withNotice } from '@/lib/platform/notice';

const FIELDS = ['orgName', 'name', 'email', 'password', 'confirm'] as const;

/** First-run setup: creates the organisation and its owner, and only while no account exists. */
export async function createFirstAccount(
  _previous: FormState<SetupField>,
  form: FormData,
): Promise<FormState<SetupField>> {
  const closed = {
    status: 'error' as const,
    message: 'Setup is closed: an account already exists. Sign in.',
  };
  // Checked before anything costly: this form needs no session, so it must be cheap once closed.
  if ((await countUsers()) > 0) return closed;
  const raw = Object.fromEntries(FIELDS.map((key) => [key, form.get(key) ?? '']));
  const parsed = await setupSchema.safeParseAsync(raw);
  const { orgName, name, email } = formStrings(form, FIELDS);
  const values = { orgName, name, email };
  if (!parsed.success) {
    return { status: 'error', fieldErrors: fieldErrorsOf(parsed.error), values };
  }
  const created = await createFirstOrganization({
    orgName: parsed.data.orgName,
    name: parsed.data.name,
    email: parsed.data.email,
    passwordHash: await hashPassword(parsed.data.password),
  });
  if (!created) return closed;
  await rememberSignInEmail(parsed.data.email);
  redirect(withNotice('/sign-in', 'anyone', 'accountReady'));
}
