'use client';

import { useActionState } from 'react';
import type { NewThermostatField } from '@/app/(app)/buildings/[buildingId]/new-thermostat/actions';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import type { FormState } from '@/lib/forms';
import { modeName } from '@/lib/words';
import { selectClass } from '@/components/ui/form-parts';

const MODES = ['auto', 'heat', 'cool', 'auxHeatOnly', 'off'] as const;
/** `action` comes bound to its building from the server page, so the form works without JavaScript. */
export function NewThermostatForm({
  action: bound,
}: {
  action: (
    previous: FormState<NewThermostatField>,
    form: FormData,
  ) => Promise<FormState<NewThermostatField>>;
}) {
  const [state, action, pending] = useActionState(bound, {
    status: 'idle',
  } as FormState<NewThermostatField>);
  const errors = state.fieldErrors ?? {};
  return (
    <form action={action} className="grid gap-4" noValidate>
      {state.message ? <Notice tone="error">{state.message}</Notice> : null}
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
      <div className="grid gap-1.5">
        <label htmlFor="hvacMode" className="text-sm font-medium">
          HVAC mode
        </label>
        <select
          id="hvacMode"
          name="hvacMode"
          defaultValue={state.values?.hvacMode ?? 'auto'}
          className={selectClass}
        >
          {MODES.map((mode) => (
            <option key={mode} value={mode}>
              {modeName(mode)}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">Resident mode</legend>
        {(['on', 'off'] as const).map((value) => (
          <label key={value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="isResidentMode"
              value={value}
              defaultChecked={(state.values?.isResidentMode ?? 'on') === value}
            />
            {value === 'on' ? 'On (a resident lives here)' : 'Off'}
          </label>
        ))}
      </fieldset>
      <div className="grid gap-1">
        <label className="flex items-start gap-2 text-sm">
          <input
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
        <div id="field-confirm-errors" aria-live="polite" className="text-sm text-danger">
          {errors.confirm?.map((error) => (
            <p key={error}>{error}</p>
          ))}
        </div>
      </div>
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? 'Creating…' : 'Create thermostat'}
        </Button>
      </div>
    </form>
  );
}
