'use client';

import { useActionState } from 'react';
import { ErrorSummary } from '@/components/ui/error-summary';
import { SubmitButton } from '@/components/ui/submit-button';
import type { SetupField } from '@/lib/auth/schemas';
import type { FormAction, FormState } from '@/lib/platform/forms';
import { AccountFields, accountSummaryFields } from './account-fields';

const idle: FormState<SetupField> = { status: 'idle' };
const FIELDS = ['orgName', 'name', 'email', 'password', 'confirm'] as const;
const SUMMARY = accountSummaryFields(FIELDS);

/** The organisation and its owner; `action` is the setup action, passed by the server page. */
export function SetupForm({ action: createFirstAccount }: { action: FormAction<SetupField> }) {
  const [state, action] = useActionState(createFirstAccount, idle);
  return (
    <form action={action} className="grid gap-4" noValidate>
      <ErrorSummary state={state} fields={SUMMARY} />
      <AccountFields fields={FIELDS} state={state} />
      <SubmitButton pending="Creating…">Create organisation and account</SubmitButton>
    </form>
  );
}
