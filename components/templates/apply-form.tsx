'use client';

import { useActionState } from 'react';
import { ErrorSummary } from '@/components/ui/error-summary';
import { Field } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';

const idle: FormState = { status: 'idle' };

/**
 * The confirmation that applies a plan. When the plan turns locks on, a passcode may be entered
 * for this run: it is held in the memory of the process that applies it, never stored, and never
 * shown back (a refused one comes back blank).
 */
export function ApplyForm({ action, askPasscode }: { action: FormAction; askPasscode: boolean }) {
  const [state, formAction] = useActionState(action, idle);
  return (
    <form action={formAction} className="grid gap-3" aria-label="Apply the plan">
      <ErrorSummary
        state={state}
        fields={{ passcode: 'New passcode for the thermostats it locks' }}
        level={3}
      />
      {askPasscode ? (
        <div className="max-w-sm">
          <Field
            label="New passcode for the thermostats it locks (optional)"
            name="passcode"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={4}
            hint="Four digits. Blank keeps each thermostat’s own. It is used for this run only and never stored."
          />
        </div>
      ) : null}
      <div>
        <SubmitButton pending="Starting…">Yes, apply it</SubmitButton>
      </div>
    </form>
  );
}
