'use client';

import { useActionState } from 'react';
import { ErrorList, FormMessage } from '@/components/ui/form-parts';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';

type State = FormState<'date'>;
const idle: State = { status: 'idle' };

/**
 * "Record maintenance done" in place, on a maintenance item: the day it was done (today in the
 * building's zone unless changed) and one button. A plain form: without JavaScript it posts and
 * the page comes back without the item; a refusal shows here, under the field.
 */
export function RecordMaintenanceForm({
  action: bound,
  thermostatId,
  label,
  today,
}: {
  action: FormAction<'date'>;
  thermostatId: string;
  /** The thermostat's label, for the names of the form and its button. */
  label: string;
  /** Today in the building's zone (`YYYY-MM-DD`): the default, and the latest day allowed. */
  today: string;
}) {
  const [state, action] = useActionState(bound, idle);
  const id = `maintenance-done-${thermostatId}`;
  const errors = state.fieldErrors?.date;
  return (
    <form
      action={action}
      noValidate
      aria-label={`Record maintenance done for ${label}`}
      className="grid gap-2"
    >
      <FormMessage state={state} />
      <div className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1">
          <label htmlFor={id} className="text-xs font-medium text-slate-800 dark:text-slate-200">
            Day it was done
          </label>
          <input
            id={id}
            name="date"
            type="date"
            required
            max={today}
            defaultValue={state.values?.date || today}
            aria-invalid={errors?.length ? true : undefined}
            aria-describedby={`${id}-errors`}
            className="min-h-10 rounded-lg border border-slate-300 bg-white px-2 text-base text-slate-900 aria-invalid:border-red-600 sm:text-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:aria-invalid:border-red-400"
          />
        </div>
        <SubmitButton pending="Recording…" variant="secondary">
          Record maintenance done<span className="sr-only"> for {label}</span>
        </SubmitButton>
      </div>
      <ErrorList id={`${id}-errors`} errors={errors} />
    </form>
  );
}
