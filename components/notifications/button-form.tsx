'use client';

import { useActionState } from 'react';
import { FormMessage } from '@/components/ui/form-parts';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/forms';

const idle: FormState = { status: 'idle' };

/**
 * One button that acts at once (send a test, resume, remove), its answer above it; the button
 * stays, so a test can be sent again.
 */
export function ButtonForm({
  action: bound,
  label,
  pending,
  variant = 'secondary',
}: {
  action: FormAction;
  label: string;
  pending: string;
  variant?: 'secondary' | 'danger';
}) {
  const [state, action] = useActionState(bound, idle);
  return (
    <form action={action} className="grid gap-2" aria-label={label}>
      <FormMessage state={state} />
      <div>
        <SubmitButton pending={pending} variant={variant}>
          {label}
        </SubmitButton>
      </div>
    </form>
  );
}
