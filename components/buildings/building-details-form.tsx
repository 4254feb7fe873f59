'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { ErrorSummary } from '@/components/ui/error-summary';
import type { FormState } from '@/lib/platform/forms';

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
  // Folded away until it has an answer to show: a refused save (with or without JavaScript)
  // opens on its summary.
  return (
    <details
      open={state.status !== 'idle' || undefined}
      className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <summary className="cursor-pointer text-sm font-medium">
        Edit building name and address
      </summary>
      <form action={submit} className="mt-4 grid gap-3 sm:max-w-md">
        <ErrorSummary state={state} fields={{ name: 'Building name', address: 'Address' }} />
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
    </details>
  );
}
