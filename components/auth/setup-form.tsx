'use client';

import { useActionState } from 'react';
import { createFirstAccount } from '@/app/(public)/setup/actions';
import { ErrorSummary } from '@/components/ui/error-summary';
import { SubmitButton } from '@/components/ui/submit-button';
import type { SetupField } from '@/lib/auth/schemas';
import type { FormState } from '@/lib/platform/forms';
import { AccountFields, accountSummaryFields } from './account-fields';

const idle: FormState<SetupField> = { status: 'idle' };
const FIELDS = ['orgName', 'name', 'email', 'password', 'confirm'] as const;
const SUMMARY = accountSummaryFields(FIELDS);

export function SetupForm() {
  const [state, action] = useActionState(createFirstAccount, idle);
  return (
    <form action={action} className="grid gap-4" noValidate>
      <ErrorSummary state={state} fields={SUMMARY} />
      <AccountFields fields={FIELDS} state={state} />
      <SubmitButton pending="Creating…">Create organisation and account</SubmitButton>
    </form>
  );
}
