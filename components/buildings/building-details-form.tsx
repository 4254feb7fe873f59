'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import type { FormState } from '@/lib/forms';

type Action = (
  previous: FormState<'name' | 'address'>,
  form: FormData,
) => Promise<FormState<'name' | 'address'>>;

/** The building's name and address in Setpoint. The action comes bound from the server page. */
export function BuildingDetailsForm({
  action,
  name,
  address,
}: {
  action: Action;
  name: string;
  address: string;
}) {
  const [state, submit, pending] = useActionState(action, { status: 'idle' });
  return (
    <form action={submit} className="grid gap-3 sm:max-w-md">
      {state.message ? (
        <Notice tone={state.status === 'success' ? 'success' : 'error'}>{state.message}</Notice>
      ) : null}
      <Field
        label="Building name"
        name="name"
        defaultValue={state.values?.name ?? name}
        errors={state.fieldErrors?.name}
      />
      <Field
        label="Address"
        name="address"
        defaultValue={state.values?.address ?? address}
        errors={state.fieldErrors?.address}
      />
      <div>
        <Button type="submit" variant="secondary" disabled={pending}>
          {pending ? 'Saving…' : 'Save building'}
        </Button>
      </div>
    </form>
  );
}
