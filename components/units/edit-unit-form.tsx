'use client';

import { useActionState } from 'react';
import { ErrorSummary } from '@/components/ui/error-summary';
import { Field } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';

type FieldName = 'label' | 'externalId';
const idle: FormState<FieldName> = { status: 'idle' };

/**
 * A unit's label (its thermostat is called the same) and its property-management system's id;
 * with no `label`, a new unit's (`adding`), emptied once added.
 */
export function EditUnitForm({
  action: bound,
  label,
  externalId,
}: {
  action: FormAction<FieldName>;
  /** The unit's label; null for a unit to add. */
  label: string | null;
  externalId: string | null;
}) {
  const [state, action] = useActionState(bound, idle);
  const adding = label === null;
  const values = adding && state.status === 'success' ? undefined : state.values;
  return (
    <form
      key={adding && state.status === 'success' ? state.message : 'form'}
      action={action}
      noValidate
      aria-label={adding ? 'Add a unit' : `Label and external id of ${label}`}
      className="grid gap-3 sm:max-w-md"
    >
      {adding && state.status === 'success' ? (
        <Notice tone="success">{state.message}</Notice>
      ) : null}
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
        defaultValue={values?.label ?? label ?? ''}
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
        <SubmitButton pending="Saving…">{adding ? 'Add unit' : 'Save unit'}</SubmitButton>
      </div>
    </form>
  );
}
