'use client';

import { useActionState } from 'react';
import { ErrorSummary } from '@/components/ui/error-summary';
import { EmailField } from '@/components/auth/account-fields';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';

const idle: FormState<'email'> = { status: 'idle' };

/** The email to send a reset link to; the answer is the same for every email. */
export function ForgotPasswordForm({
  action: requestLink,
  email,
}: {
  action: FormAction<'email'>;
  email: string;
}) {
  const [state, action] = useActionState(requestLink, idle);
  return (
    <form action={action} className="grid gap-4" noValidate aria-label="Ask for a reset link">
      <ErrorSummary state={state} fields={{ email: 'Email' }} />
      <EmailField defaultValue={state.values?.email ?? email} errors={state.fieldErrors?.email} />
      <SubmitButton pending="Sending…">Send me a reset link</SubmitButton>
    </form>
  );
}
