'use client';

import { useActionState } from 'react';
import { ErrorSummary } from '@/components/ui/error-summary';
import { Field } from '@/components/ui/field';
import { ErrorList, Fieldset, Radio } from '@/components/ui/form-parts';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';
import { type ConfigurationField, HOLD_ACTION_TEXT } from '@/lib/settings/configuration';
import { HOLD_ACTIONS } from '@/lib/service/schemas';
import { fanOnTimeField, RANGE_FIELDS, rangeField } from './configuration-fields';

type State = FormState<ConfigurationField | 'form'>;
const idle: State = { status: 'idle' };

export type LimitsText = { heat: string; cool: string; gap: string; unit: 'F' | 'C' };

/** One thermostat's configuration settings; every field is checked on the server before sending. */
export function ConfigurationForm({
  action: bound,
  initial,
  limits,
}: {
  action: FormAction<ConfigurationField | 'form'>;
  initial: Record<ConfigurationField, string>;
  limits: LimitsText;
}) {
  const [state, action] = useActionState(bound, idle);
  const values = { ...initial, ...state.values };
  const errors = state.fieldErrors ?? {};
  // Remount the inputs after a save so that they show what the service now holds.
  const key = JSON.stringify(state.values ?? initial);
  const holdChoices: string[] = [...HOLD_ACTIONS];
  if (!holdChoices.includes(initial.holdAction)) holdChoices.push(initial.holdAction);

  return (
    <form action={action} noValidate className="grid gap-5" key={key}>
      <ErrorSummary
        state={state}
        fields={{
          ...Object.fromEntries(
            RANGE_FIELDS.map((field) => [field, rangeField(field, limits.unit).label]),
          ),
          holdAction: { label: 'Hold action', id: 'holdAction-errors' },
          fanMinimumOnTime: fanOnTimeField.label,
        }}
      />
      <div className="grid gap-4 md:grid-cols-2">
        {(['heat', 'cool'] as const).map((kind) => (
          <Fieldset
            key={kind}
            legend={kind === 'heat' ? 'Heat range' : 'Cool range'}
            description={`Lowest and highest ${kind} setpoint allowed. Device limits: ${limits[kind]}.`}
          >
            <div className="grid grid-cols-2 items-start gap-3 [&>div]:min-w-0 [&_input]:w-full">
              {([`${kind}Min`, `${kind}Max`] as const).map((field) => (
                <Field
                  key={field}
                  {...rangeField(field, limits.unit)}
                  defaultValue={values[field]}
                  errors={errors[field]}
                />
              ))}
            </div>
          </Fieldset>
        ))}
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
            return (
              <Radio
                key={choice}
                id={`holdAction-${choice}`}
                name="holdAction"
                value={choice}
                label={text.label}
                description={text.description}
                errorsId="holdAction-errors"
                defaultChecked={values.holdAction === choice}
                aria-invalid={errors.holdAction ? true : undefined}
              />
            );
          })}
        </div>
        <ErrorList id="holdAction-errors" errors={errors.holdAction} />
      </Fieldset>

      <div className="max-w-xs">
        <Field
          {...fanOnTimeField}
          defaultValue={values.fanMinimumOnTime}
          errors={errors.fanMinimumOnTime}
          hint="0 to 55. The fan runs at least this long every hour, even when idle."
        />
      </div>
      <div>
        <SubmitButton pending="Saving…">Save configuration</SubmitButton>
      </div>
    </form>
  );
}
