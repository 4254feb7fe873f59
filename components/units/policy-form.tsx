'use client';

import { useActionState } from 'react';
import { ErrorSummary } from '@/components/ui/error-summary';
import { SelectField } from '@/components/ui/field';
import { Checkbox } from '@/components/ui/form-parts';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';

const idle: FormState = { status: 'idle' };

type StateRow = {
  state: string;
  /** The state's name ("Vacant"). */
  name: string;
  templateId: string | null;
  residentMode: string;
  /** Whether this policy follows the one above it for the state (the organisation's, or the defaults). */
  inherited: boolean;
};

/**
 * An occupancy policy, state by state: a template (or none) and resident mode. Each state may
 * follow the policy above it (`follows`: "the organisation's" on a building's form, "Setpoint's
 * default" on the organisation's). Every field is usable without JavaScript; where a state
 * follows, the server ignores its other fields.
 */
export function PolicyForm({
  action: bound,
  whose,
  follows,
  states,
  templates,
}: {
  action: FormAction;
  /** Whose policy it is, for the form's name. */
  whose: string;
  follows: string;
  states: readonly StateRow[];
  templates: readonly { id: string; name: string }[];
}) {
  const [state, action] = useActionState(bound, idle);
  const errors = state.fieldErrors ?? {};
  // After a refusal, what the member chose; otherwise the policy in force.
  const posted = state.status === 'error' ? state.values : undefined;
  const templateOptions = [
    { value: '', label: 'No template' },
    ...templates.map((template) => ({ value: template.id, label: template.name })),
  ];
  const modeOptions = [
    { value: 'unchanged', label: 'As it is' },
    { value: 'on', label: 'On' },
    { value: 'off', label: 'Off (resets the thermostat)' },
  ];
  const summaryFields = Object.fromEntries(
    states.flatMap((row) => [
      [`${row.state}.templateId`, `${row.name}: template`],
      [`${row.state}.residentMode`, `${row.name}: resident mode`],
    ]),
  );
  return (
    <form
      action={action}
      noValidate
      aria-label={`Occupancy policy of ${whose}`}
      className="grid gap-4"
    >
      <ErrorSummary state={state} fields={summaryFields} />
      {states.map((row) => (
        <fieldset
          key={row.state}
          className="grid gap-3 border-t border-slate-200 pt-3 sm:grid-cols-[10rem_1fr_1fr] dark:border-slate-800"
        >
          <legend className="sr-only">{row.name}</legend>
          <div className="grid content-start gap-2">
            <p className="text-sm font-semibold" aria-hidden="true">
              {row.name}
            </p>
            <Checkbox
              name={`${row.state}.inherit`}
              label={`Follow ${follows}`}
              defaultChecked={posted ? posted[`${row.state}.inherit`] === 'on' : row.inherited}
            />
          </div>
          <SelectField
            label={`Template when ${row.name.toLowerCase()}`}
            name={`${row.state}.templateId`}
            options={templateOptions}
            defaultValue={posted?.[`${row.state}.templateId`] ?? row.templateId ?? ''}
            errors={errors[`${row.state}.templateId`]}
          />
          <SelectField
            label={`Resident mode when ${row.name.toLowerCase()}`}
            name={`${row.state}.residentMode`}
            options={modeOptions}
            defaultValue={posted?.[`${row.state}.residentMode`] ?? row.residentMode}
            errors={errors[`${row.state}.residentMode`]}
          />
        </fieldset>
      ))}
      <div>
        <SubmitButton pending="Saving…">Save policy</SubmitButton>
      </div>
    </form>
  );
}
