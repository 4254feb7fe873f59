'use client';

import { useActionState } from 'react';
import { Notice } from '@/components/ui/notice';
import { SubmitButton } from '@/components/ui/submit-button';
import { type FormAction, type FormState, initialFormState } from '@/lib/platform/forms';

/** One button that acts on a run (cancel, retry), bound to the run by the server page. */
export function RunActionForm({
  action,
  label,
  pending,
  variant = 'primary',
}: {
  action: FormAction;
  label: string;
  pending: string;
  variant?: 'primary' | 'danger' | 'secondary';
}) {
  const [state, formAction] = useActionState<FormState, FormData>(action, initialFormState);
  return (
    <form action={formAction} className="grid gap-2">
      {state.status === 'error' && state.message ? (
        <Notice tone="error">{state.message}</Notice>
      ) : null}
      <div>
        <SubmitButton variant={variant} pending={pending}>
          {label}
        </SubmitButton>
      </div>
    </form>
  );
}
