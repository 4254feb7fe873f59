'use client';

import { useActionState } from 'react';
import { ErrorSummary } from '@/components/ui/error-summary';
import { Field } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { PASSWORD_HINT } from '@/lib/auth/password-hint';
import type { ResetPasswordField } from '@/lib/auth/schemas';
import type { FormAction, FormState } from '@/lib/platform/forms';

const idle: FormState<ResetPasswordField> = { status: 'idle' };
const SUMMARY = { password: 'New password', confirm: 'Confirm new password' };

/** The new password, twice; the action is bound to the link's token. Nothing is refilled. */
export function ResetPasswordForm({
  action: bound,
  email,
}: {
  action: FormAction<ResetPasswordField>;
  email: string;
}) {
  const [state, action] = useActionState(bound, idle);
  return (
    <form action={action} className="grid gap-4" noValidate aria-label="Choose a new password">
      <ErrorSummary state={state} fields={SUMMARY} />
      {/* For password managers: which account the new password is for. */}
      <input type="hidden" name="username" value={email} autoComplete="username" />
      <Field
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint={PASSWORD_HINT}
        errors={state.fieldErrors?.password}
      />
      <Field
        label="Confirm new password"
        name="confirm"
        type="password"
        autoComplete="new-password"
        required
        errors={state.fieldErrors?.confirm}
      />
      <SubmitButton pending="Saving…">Save new password</SubmitButton>
    </form>
  );
}
