'use client';

import { useActionState } from 'react';
import { ErrorSummary } from '@/components/ui/error-summary';
import { Field } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';

type FieldName = 'label' | 'externalId';
const idle: FormState<FieldName> = { status: 'idle' };

/** A unit's label (its thermostat is called the same) and its property-management system's id. */
export function EditUnitForm({
  action: bound,
  label,
  externalId,
}: {
  action: FormAction<FieldName>;
  label: string;
  externalId: string | null;
}) {
  const [state, action] = useActionState(bound, idle);
  const values = state.values;
  return (
    <form
      action={action}
      noValidate
      aria-label={`Label and external id of ${label}`}
      className="grid gap-3 sm:max-w-md"
    >
      <ErrorSummary
        state={state}
        level={3}
        fields={{ label: 'Label', externalId: 'External id' }}
      />
      <Field
        label="Label"
        name="label"
        autoComplete="off"
        hint="As your team calls the unit; its thermostat takes the same label."
        defaultValue={values?.label ?? label}
        errors={state.fieldErrors?.label}
      />
      <Field
        label="External id"
        name="externalId"
        autoComplete="off"
        hint="Optional: the unit’s id in your property-management system, unique in your organisation."
        defaultValue={values?.externalId ?? externalId ?? ''}
        errors={state.fieldErrors?.externalId}
      />
      <div>
        <SubmitButton pending="Saving…">Save unit</SubmitButton>
      </div>
    </form>
  );
}
