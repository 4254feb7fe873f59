'use client';

import { useActionState } from 'react';
import { createFirstAccount } from '@/app/(public)/setup/actions';
import { FormMessage } from '@/components/ui/form-parts';
import { SubmitButton } from '@/components/ui/submit-button';
import type { SetupField } from '@/lib/auth/schemas';
import type { FormState } from '@/lib/forms';
import { AccountFields } from './account-fields';

const idle: FormState<SetupField> = { status: 'idle' };

export function SetupForm() {
  const [state, action] = useActionState(createFirstAccount, idle);
  return (
    <form action={action} className="grid gap-4" noValidate>
      <FormMessage state={state} />
      <AccountFields fields={['orgName', 'name', 'email', 'password', 'confirm']} state={state} />
      <SubmitButton pending="Creating…">Create organisation and account</SubmitButton>
    </form>
  );
}
