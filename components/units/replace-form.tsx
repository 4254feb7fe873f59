'use client';

import { useActionState } from 'react';
import { ConfirmSummary } from '@/components/ui/confirm-disclosure';
import { ErrorSummary } from '@/components/ui/error-summary';
import { Field } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';

const idle: FormState<'thermostatId'> = { status: 'idle' };

/**
 * Replacing a unit's thermostat, behind a second step: the summary only opens the form, which
 * says what will happen (the old thermostat leaves the portfolio; the unit's history, occupancy
 * and groups continue) before the one button that does it. Open again after an answer, with or
 * without JavaScript.
 */
export function ReplaceThermostatForm({
  action: bound,
  label,
  current,
}: {
  action: FormAction<'thermostatId'>;
  label: string;
  /** The thermostat in the unit now, or null for a unit left empty. */
  current: string | null;
}) {
  const [state, action] = useActionState(bound, idle);
  const values = state.status === 'error' ? state.values : undefined;
  return (
    <details className="group" open={state.status !== 'idle' || undefined}>
      <ConfirmSummary>
        {current ? 'Replace the thermostat…' : 'Put a thermostat in this unit…'}
      </ConfirmSummary>
      <form
        action={action}
        noValidate
        aria-label={`Replace the thermostat of ${label}`}
        className="mt-3 grid gap-3 rounded-lg border border-red-200 p-4 sm:max-w-md dark:border-red-900"
      >
        <ErrorSummary state={state} fields={{ thermostatId: 'New thermostat id' }} />
        <Field
          label="New thermostat id"
          name="thermostatId"
          inputMode="numeric"
          autoComplete="off"
          hint="12 digits, as the service knows it. Setpoint checks it with the service first."
          defaultValue={values?.thermostatId}
          errors={state.fieldErrors?.thermostatId}
        />
        {current ? (
          <p className="text-sm">
            Thermostat {current} leaves the portfolio. The unit keeps its history, occupancy,
            timeline and groups; the new thermostat keeps its own settings until you change them.
          </p>
        ) : null}
        <div>
          <SubmitButton pending="Checking with the service…" variant="danger">
            {current ? 'Replace thermostat' : 'Put it in the unit'}
          </SubmitButton>
        </div>
      </form>
    </details>
  );
}
