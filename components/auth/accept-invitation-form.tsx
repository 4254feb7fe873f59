'use client';

import { useActionState } from 'react';
import { ErrorSummary } from '@/components/ui/error-summary';
import { SubmitButton } from '@/components/ui/submit-button';
import type { AcceptInvitationField } from '@/lib/auth/schemas';
import type { FormAction, FormState } from '@/lib/platform/forms';
import { AccountFields, accountSummaryFields } from './account-fields';

const idle: FormState<AcceptInvitationField> = { status: 'idle' };
const FIELDS = ['name', 'password', 'confirm'] as const;
const SUMMARY = accountSummaryFields(FIELDS);

/** A name and password for the invited email; the action is bound to the invitation's token. */
export function AcceptInvitationForm({
  action: bound,
  email,
}: {
  action: FormAction<AcceptInvitationField>;
  email: string;
}) {
  const [state, action] = useActionState(bound, idle);
  return (
    <form action={action} className="grid gap-4" noValidate aria-label="Accept the invitation">
      <ErrorSummary state={state} fields={SUMMARY} />
      <input type="hidden" name="username" value={email} autoComplete="username" />
      <AccountFields fields={FIELDS} state={state} />
      <SubmitButton pending="Joining…">Join</SubmitButton>
    </form>
  );
}
