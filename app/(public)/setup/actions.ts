'use server';

import { redirect } from 'next/navigation';
import { hashPassword } from '@/lib/auth/password';
import { type SetupField, setupSchema } from '@/lib/auth/schemas';
import { countUsers, createFirstUser } from '@/lib/db/queries';
import { type FormState, fieldErrorsOf } from '@/lib/forms';

/** First-run setup: creates the first account, and only while no account exists. */
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
  const raw = Object.fromEntries(
    (['name', 'email', 'password', 'confirm'] as const).map((key) => [key, form.get(key) ?? '']),
  );
  const parsed = setupSchema.safeParse(raw);
  const values = { name: String(raw.name ?? ''), email: String(raw.email ?? '') };
  if (!parsed.success) {
    return { status: 'error', fieldErrors: fieldErrorsOf(parsed.error), values };
  }
  const { name, email, password } = parsed.data;
  const created = await createFirstUser({
    name,
    email,
    passwordHash: await hashPassword(password),
  });
  if (!created) return closed;
  redirect(`/sign-in?setup=done&email=${encodeURIComponent(email)}`);
}
