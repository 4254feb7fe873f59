'use client';

import { useActionState } from 'react';
import { Field, SelectField } from '@/components/ui/field';
import { ErrorSummary } from '@/components/ui/error-summary';
import { ErrorList, RadioGroup } from '@/components/ui/form-parts';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';
import { modeName } from '@/lib/platform/words';
import type { NewThermostatField } from '@/lib/portfolio/new-thermostat';

const MODES = ['auto', 'heat', 'cool', 'auxHeatOnly', 'off'].map((mode) => ({
  value: mode,
  label: modeName(mode),
}));
const RESIDENT_MODES = [
  { value: 'on', label: 'On (a resident lives here)' },
  { value: 'off', label: 'Off' },
];
const idle: FormState<NewThermostatField> = { status: 'idle' };

/** `action` comes bound to its building from the server page, so the form works without JavaScript. */
export function NewThermostatForm({ action: bound }: { action: FormAction<NewThermostatField> }) {
  const [state, action] = useActionState(bound, idle);
  const errors = state.fieldErrors ?? {};
  return (
    <form action={action} className="grid gap-4" noValidate>
      <ErrorSummary
        state={state}
        fields={{
          name: 'Unit label',
          thermostatId: 'Device serial (optional)',
          hvacMode: { label: 'HVAC mode', id: 'hvacMode' },
          isResidentMode: 'Resident mode',
          confirm: 'Register this new thermostat with the thermostat service',
        }}
      />
      <Field
        label="Unit label"
        name="name"
        required
        defaultValue={state.values?.name}
        errors={errors.name}
        hint="Also the thermostat’s name at the service (at most 64 characters)."
      />
      <Field
        label="Device serial (optional)"
        name="thermostatId"
        inputMode="numeric"
        defaultValue={state.values?.thermostatId}
        errors={errors.thermostatId}
        hint="The 12-digit serial on the device. Leave empty to let the service assign one."
      />
      <SelectField
        id="hvacMode"
        label="HVAC mode"
        name="hvacMode"
        defaultValue={state.values?.hvacMode ?? 'auto'}
        errors={errors.hvacMode}
        options={MODES}
      />
      <RadioGroup
        legend="Resident mode"
        name="isResidentMode"
        options={RESIDENT_MODES}
        defaultValue={state.values?.isResidentMode ?? 'on'}
        errors={errors.isResidentMode}
      />
      <div className="grid gap-1">
        <label className="flex items-start gap-2 text-sm">
          <input
            id="field-confirm"
            type="checkbox"
            name="confirm"
            value="yes"
            aria-describedby="field-confirm-errors"
            aria-invalid={errors.confirm?.length ? true : undefined}
            className="mt-0.5 size-4 accent-brand-600"
          />
          <span>
            Register this new thermostat with the thermostat service in this building. It becomes
            part of your service account.
          </span>
        </label>
        <ErrorList id="field-confirm-errors" errors={errors.confirm} />
      </div>
      <div>
        <SubmitButton pending="Creating…">Create thermostat</SubmitButton>
      </div>
    </form>
  );
}
