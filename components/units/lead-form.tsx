'use client';

import { useActionState } from 'react';
import { ErrorSummary } from '@/components/ui/error-summary';
import { Field } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';

const idle: FormState<'hours'> = { status: 'idle' };

/** How long before a scheduled move-in the unit's thermostat is put in its occupied comfort. */
export function LeadForm({ action: bound, hours }: { action: FormAction<'hours'>; hours: number }) {
  const [state, action] = useActionState(bound, idle);
  return (
    <form
      action={action}
      noValidate
      aria-label="Move-ins prepared ahead"
      className="grid gap-3 sm:max-w-md"
    >
      <ErrorSummary state={state} level={3} fields={{ hours: 'Hours ahead' }} />
      <Field
        label="Hours ahead"
        name="hours"
        inputMode="decimal"
        autoComplete="off"
        hint="0 to 48. The occupied comfort is applied this long before a scheduled move-in; resident mode is turned on at the move-in. Move-ins already scheduled follow the new time."
        defaultValue={state.values?.hours ?? String(hours)}
        errors={state.fieldErrors?.hours}
      />
      <div>
        <SubmitButton pending="Saving…">Save</SubmitButton>
      </div>
    </form>
  );
}
