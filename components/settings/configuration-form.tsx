'use client';

import { useActionState } from 'react';
import type { saveConfiguration } from '@/app/(app)/thermostats/[thermostatId]/configuration/actions';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import type { FormState } from '@/lib/forms';
import { type ConfigurationField, HOLD_ACTION_TEXT } from '@/lib/settings/configuration';
import { HOLD_ACTIONS } from '@/lib/thermostat-api/schemas';
import { ErrorList, Fieldset, FormMessage } from '@/components/ui/form-parts';

type State = FormState<ConfigurationField | 'form'>;
const idle: State = { status: 'idle' };

export type LimitsText = { heat: string; cool: string; gap: string; unit: 'F' | 'C' };

/** One thermostat's configuration settings; every field is checked on the server before sending. */
export function ConfigurationForm({
  action: bound,
  initial,
  limits,
}: {
  /** Bound to its thermostat in the server page, so the form posts without JavaScript too. */
  action: (
    previous: Parameters<typeof saveConfiguration>[1],
    form: FormData,
  ) => ReturnType<typeof saveConfiguration>;
  initial: Record<ConfigurationField, string>;
  limits: LimitsText;
}) {
  const [state, action, pending] = useActionState(bound, idle);
  const values = { ...initial, ...state.values };
  const errors = state.fieldErrors ?? {};
  // Remount the inputs after a save so that they show what the service now holds.
  const key = JSON.stringify(state.values ?? initial);
  const holdChoices: string[] = [...HOLD_ACTIONS];
  if (!holdChoices.includes(initial.holdAction)) holdChoices.push(initial.holdAction);
  const degree = `°${limits.unit}`;

  return (
    <form action={action} noValidate className="grid gap-5" key={key}>
      <FormMessage state={state} />
      <ErrorList id="configuration-form-errors" errors={errors.form} />
      <div className="grid gap-4 md:grid-cols-2">
        <Fieldset
          legend="Heat range"
          description={`Lowest and highest heat setpoint allowed. Device limits: ${limits.heat}.`}
        >
          <div className="grid grid-cols-2 items-start gap-3 [&>div]:min-w-0 [&_input]:w-full">
            <Field
              label={`Heat minimum (${degree})`}
              name="heatMin"
              inputMode="decimal"
              defaultValue={values.heatMin}
              errors={errors.heatMin}
            />
            <Field
              label={`Heat maximum (${degree})`}
              name="heatMax"
              inputMode="decimal"
              defaultValue={values.heatMax}
              errors={errors.heatMax}
            />
          </div>
        </Fieldset>
        <Fieldset
          legend="Cool range"
          description={`Lowest and highest cool setpoint allowed. Device limits: ${limits.cool}.`}
        >
          <div className="grid grid-cols-2 items-start gap-3 [&>div]:min-w-0 [&_input]:w-full">
            <Field
              label={`Cool minimum (${degree})`}
              name="coolMin"
              inputMode="decimal"
              defaultValue={values.coolMin}
              errors={errors.coolMin}
            />
            <Field
              label={`Cool maximum (${degree})`}
              name="coolMax"
              inputMode="decimal"
              defaultValue={values.coolMax}
              errors={errors.coolMax}
            />
          </div>
        </Fieldset>
      </div>
      <p className="text-sm text-muted">
        This thermostat keeps heat and cool setpoints at least <strong>{limits.gap}</strong> apart,
        so each cool limit must sit at least that far above the matching heat limit.
      </p>

      <Fieldset
        legend="Hold action"
        description="What happens when someone changes the temperature at the thermostat."
      >
        <div className="grid gap-2">
          {holdChoices.map((choice) => {
            const text = HOLD_ACTION_TEXT[choice] ?? { label: choice, description: '' };
            const id = `holdAction-${choice}`;
            return (
              <div key={choice} className="flex items-start gap-2">
                <input
                  id={id}
                  type="radio"
                  name="holdAction"
                  value={choice}
                  defaultChecked={values.holdAction === choice}
                  aria-describedby={`${id}-hint holdAction-errors`}
                  aria-invalid={errors.holdAction ? true : undefined}
                  className="mt-0.5 size-4 shrink-0 accent-brand-600"
                />
                <div className="grid gap-0.5">
                  <label htmlFor={id} className="text-sm font-medium">
                    {text.label}
                  </label>
                  <p id={`${id}-hint`} className="text-xs text-muted">
                    {text.description}
                  </p>
                </div>
              </div>
            );
          })}
        </div>
        <ErrorList id="holdAction-errors" errors={errors.holdAction} />
      </Fieldset>

      <div className="max-w-xs">
        <Field
          label="Fan minimum on-time (minutes per hour)"
          name="fanMinimumOnTime"
          inputMode="numeric"
          defaultValue={values.fanMinimumOnTime}
          errors={errors.fanMinimumOnTime}
          hint="0 to 55. The fan runs at least this long every hour, even when idle."
        />
      </div>
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : 'Save configuration'}
        </Button>
      </div>
    </form>
  );
}
