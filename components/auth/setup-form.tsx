'use client';

import { useActionState } from 'react';
import { createFirstAccount } from '@/app/(public)/setup/actions';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import type { SetupField } from '@/lib/auth/schemas';
import type { FormState } from '@/lib/forms';

export function SetupForm() {
  const [state, action, pending] = useActionState(createFirstAccount, {
    status: 'idle',
  } as FormState<SetupField>);
  const errors = state.fieldErrors ?? {};
  return (
    <form action={action} className="grid gap-4" noValidate>
      {state.message ? <Notice tone="error">{state.message}</Notice> : null}
      <Field
        label="Organisation"
        name="orgName"
        autoComplete="organization"
        required
        hint="Your property-management company, as your team knows it."
        defaultValue={state.values?.orgName}
        errors={errors.orgName}
      />
      <Field
        label="Your name"
        name="name"
        autoComplete="name"
        required
        defaultValue={state.values?.name}
        errors={errors.name}
      />
      <Field
        label="Email"
        name="email"
        type="email"
        autoComplete="username"
        required
        defaultValue={state.values?.email}
        errors={errors.email}
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
      <Button type="submit" disabled={pending}>
        {pending ? 'Creating…' : 'Create organisation and account'}
      </Button>
    </form>
  );
}
