'use client';

import { useActionState } from 'react';
import { Field } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { SubmitButton } from '@/components/ui/submit-button';
import type { AcceptInvitationField } from '@/lib/auth/schemas';
import type { FormAction, FormState } from '@/lib/forms';

const idle: FormState<AcceptInvitationField> = { status: 'idle' };

/** A name and password for the invited email; the action is bound to the invitation's token. */
export function AcceptInvitationForm({
  action: bound,
  email,
}: {
  action: FormAction<AcceptInvitationField>;
  email: string;
}) {
  const [state, action] = useActionState(bound, idle);
  const errors = state.fieldErrors ?? {};
  return (
    <form action={action} className="grid gap-4" noValidate aria-label="Accept the invitation">
      {state.message ? <Notice tone="error">{state.message}</Notice> : null}
      <input type="hidden" name="username" value={email} autoComplete="username" />
      <Field
        label="Your name"
        name="name"
        autoComplete="name"
        required
        defaultValue={state.values?.name}
        errors={errors.name}
      />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint="At least 12 characters."
        errors={errors.password}
      />
      <Field
        label="Confirm password"
        name="confirm"
        type="password"
        autoComplete="new-password"
        required
        errors={errors.confirm}
      />
      <SubmitButton pending="Joining…">Join</SubmitButton>
    </form>
  );
}
