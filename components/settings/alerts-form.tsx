'use client';

import { useActionState } from 'react';
import { ErrorSummary } from '@/components/ui/error-summary';
import { Field, SelectField } from '@/components/ui/field';
import { Checkbox, Fieldset } from '@/components/ui/form-parts';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';
import type { AlertField } from '@/lib/settings/alerts';
import { dateTimeFormat } from '@/lib/platform/time-format';

type State = FormState<AlertField | 'nextReminderDate' | 'form'>;
const idle: State = { status: 'idle' };

/** A calendar date (YYYY-MM-DD) in words, without shifting it through a time zone. */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return dateTimeFormat({ dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

export function AlertsForm({
  action: bound,
  initial,
  nextReminderDate,
  today,
  unit,
  gap,
  range,
}: {
  action: FormAction<AlertField | 'nextReminderDate' | 'form'>;
  initial: Record<AlertField, string>;
  nextReminderDate: string | null;
  /** Today in the building's time zone (YYYY-MM-DD): a reminder date before it is overdue. */
  today: string;
  unit: 'F' | 'C';
  gap: string;
  /** The allowed alert temperatures, in the manager's unit. */
  range: string;
}) {
  const [state, action] = useActionState(bound, idle);
  const values = { ...initial, ...state.values };
  const errors = state.fieldErrors ?? {};
  const next =
    state.status === 'success' && state.values
      ? state.values.nextReminderDate || null
      : nextReminderDate;
  const degree = `°${unit}`;

  return (
    <form
      action={action}
      noValidate
      className="grid gap-5"
      key={JSON.stringify(state.values ?? initial)}
    >
      <ErrorSummary
        state={state}
        fields={{
          maintenanceEnabled: 'Remind about HVAC maintenance',
          lastMaintenanceDate: 'Last maintenance',
          maintenanceInterval: 'Maintenance interval',
          maintenanceIntervalUnits: 'Interval unit',
          lowTemperatureValue: `Low temperature (${degree})`,
          highTemperatureValue: `High temperature (${degree})`,
          lowHumidityValue: 'Low humidity (%)',
          highHumidityValue: 'High humidity (%)',
        }}
      />
      <Fieldset
        legend="HVAC maintenance reminder"
        description="Reminds the resident and you when the heating and cooling equipment is due for service."
      >
        <Checkbox
          name="maintenanceEnabled"
          label="Remind about HVAC maintenance"
          defaultChecked={values.maintenanceEnabled === 'on'}
          errors={errors.maintenanceEnabled}
        />
        <div className="grid gap-3 sm:grid-cols-3">
          <Field
            label="Last maintenance"
            name="lastMaintenanceDate"
            type="date"
            defaultValue={values.lastMaintenanceDate}
            errors={errors.lastMaintenanceDate}
          />
          <Field
            label="Every"
            name="maintenanceInterval"
            inputMode="numeric"
            defaultValue={values.maintenanceInterval}
            errors={errors.maintenanceInterval}
            hint="1–60 months or 1–10,000 hours"
          />
          <SelectField
            label="Interval unit"
            name="maintenanceIntervalUnits"
            defaultValue={values.maintenanceIntervalUnits}
            errors={errors.maintenanceIntervalUnits}
            options={[
              { value: 'month', label: 'Months' },
              { value: 'hour', label: 'Hours of running' },
            ]}
          />
        </div>
        <p className="text-sm" role="status" aria-live="polite">
          {next && next < today ? (
            <>
              Maintenance is <strong className="text-danger">overdue</strong> since{' '}
              <strong>{formatDay(next)}</strong>. Record the date of the next service when it is
              done.
            </>
          ) : (
            <>
              Next reminder:{' '}
              <strong>
                {next ? formatDay(next) : 'none (the reminder is off or has no date)'}
              </strong>
            </>
          )}
        </p>
      </Fieldset>

      <Fieldset
        legend="Temperature alerts"
        description={`Alert when the room gets colder or warmer than these (${range}; the high one at least ${gap} above the low one).`}
      >
        <ThresholdAlerts
          measure="Temperature"
          unit={degree}
          inputMode="decimal"
          values={values}
          errors={errors}
        />
      </Fieldset>

      <Fieldset
        legend="Humidity alerts"
        description="Alert when the air gets too dry or too humid (whole percent; at least 5 % apart)."
      >
        <ThresholdAlerts
          measure="Humidity"
          unit="%"
          inputMode="numeric"
          hints={{ low: '1 to 95', high: '6 to 100' }}
          values={values}
          errors={errors}
        />
      </Fieldset>
      <div>
        <SubmitButton pending="Saving…">Save alert settings</SubmitButton>
      </div>
    </form>
  );
}

/**
 * The low and the high alert of one measure, each a switch and its threshold: the fields are
 * named alike (lowHumidityEnabled, lowHumidityValue, highHumidityEnabled ...).
 */
function ThresholdAlerts({
  measure,
  unit,
  inputMode,
  hints,
  values,
  errors,
}: {
  measure: 'Temperature' | 'Humidity';
  /** As the threshold's label shows it: °F, °C or %. */
  unit: string;
  inputMode: 'decimal' | 'numeric';
  hints?: { low: string; high: string };
  values: Partial<Record<AlertField, string>>;
  errors: Partial<Record<AlertField, string[]>>;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {(['low', 'high'] as const).map((side) => {
        const words = `${side === 'low' ? 'Low' : 'High'} ${measure.toLowerCase()}`;
        const enabled = `${side}${measure}Enabled` as const;
        const value = `${side}${measure}Value` as const;
        return (
          <div key={side} className="grid content-start gap-2">
            <Checkbox
              name={enabled}
              label={`${words} alert`}
              defaultChecked={values[enabled] === 'on'}
            />
            <Field
              label={`${words} (${unit})`}
              name={value}
              inputMode={inputMode}
              defaultValue={values[value]}
              errors={errors[value]}
              hint={hints?.[side]}
            />
          </div>
        );
      })}
    </div>
  );
}
