'use server';

import { headers } from 'next/headers';
import { after } from 'next/server';
import { formStrings } from '@/lib/access/actions';
import { NO_EMAIL, RESET_REQUESTED, requestPasswordReset } from '@/lib/auth/password-reset';
import { forgotPasswordSchema } from '@/lib/auth/schemas';
import { clientOf } from '@/lib/auth/throttle';
import { emailEnabled, sendEmail } from '@/lib/platform/email';
import { type FormState, fieldErrorsOf } from '@/lib/platform/forms';

/**
 * Asks for a link to choose a new password. Public (the person is signed out), so it says the
 * same for every email (lib/auth/password-reset.ts) and is throttled per email and per client;
 * the message is sent after the answer, so its time says nothing either.
 */
export async function requestPasswordResetAction(
  _previous: FormState<'email'>,
  form: FormData,
): Promise<FormState<'email'>> {
  const values = formStrings(form, ['email']);
  if (!emailEnabled()) return { status: 'error', message: NO_EMAIL, values };
  const parsed = forgotPasswordSchema.safeParse({ email: form.get('email') ?? '' });
  if (!parsed.success) return { status: 'error', fieldErrors: fieldErrorsOf(parsed.error), values };
  const requested = await requestPasswordReset({
    email: parsed.data.email,
    client: clientOf(Object.fromEntries((await headers()).entries())),
    deliver: (message) =>
      after(async () => {
        await sendEmail(message);
      }),
  });
  if (requested.outcome === 'throttled') {
    const minutes = Math.ceil(requested.retryAfterSeconds / 60);
    return {
      status: 'error',
      message: `Too many reset links were asked for from your network. Wait ${minutes} minute${minutes === 1 ? '' : 's'}, then try again.`,
      values,
    };
  }
  return { status: 'success', message: RESET_REQUESTED, values };
}
