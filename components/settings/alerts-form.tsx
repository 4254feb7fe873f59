'use client';

import { useActionState } from 'react';
import type { saveAlerts } from '@/app/(app)/thermostats/[thermostatId]/alerts/actions';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import type { FormState } from '@/lib/forms';
import type { AlertField } from '@/lib/settings/alerts';
import { dateTimeFormat } from '@/lib/time-format';
import {
  Checkbox,
  ErrorList,
  Fieldset,
  FormMessage,
  selectClass,
} from '@/components/ui/form-parts';

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
  /** Bound to its thermostat in the server page, so the form posts without JavaScript too. */
  action: (
    previous: Parameters<typeof saveAlerts>[1],
    form: FormData,
  ) => ReturnType<typeof saveAlerts>;
  initial: Record<AlertField, string>;
  nextReminderDate: string | null;
  /** Today in the building's time zone (YYYY-MM-DD): a reminder date before it is overdue. */
  today: string;
  unit: 'F' | 'C';
  gap: string;
  /** The allowed alert temperatures, in the manager's unit. */
  range: string;
}) {
  const [state, action, pending] = useActionState(bound, idle);
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
      <FormMessage state={state} />
      <ErrorList id="alerts-form-errors" errors={errors.form} />
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
          <div className="grid content-start gap-1.5">
            <label htmlFor="field-maintenanceIntervalUnits" className="text-sm font-medium">
              Interval unit
            </label>
            <select
              id="field-maintenanceIntervalUnits"
              name="maintenanceIntervalUnits"
              defaultValue={values.maintenanceIntervalUnits}
              aria-describedby="field-maintenanceIntervalUnits-errors"
              aria-invalid={errors.maintenanceIntervalUnits ? true : undefined}
              className={selectClass}
            >
              <option value="month">Months</option>
              <option value="hour">Hours of running</option>
            </select>
            <ErrorList
              id="field-maintenanceIntervalUnits-errors"
              errors={errors.maintenanceIntervalUnits}
            />
          </div>
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
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid content-start gap-2">
            <Checkbox
              name="lowTemperatureEnabled"
              label="Low temperature alert"
              defaultChecked={values.lowTemperatureEnabled === 'on'}
            />
            <Field
              label={`Low temperature (${degree})`}
              name="lowTemperatureValue"
              inputMode="decimal"
              defaultValue={values.lowTemperatureValue}
              errors={errors.lowTemperatureValue}
            />
          </div>
          <div className="grid content-start gap-2">
            <Checkbox
              name="highTemperatureEnabled"
              label="High temperature alert"
              defaultChecked={values.highTemperatureEnabled === 'on'}
            />
            <Field
              label={`High temperature (${degree})`}
              name="highTemperatureValue"
              inputMode="decimal"
              defaultValue={values.highTemperatureValue}
              errors={errors.highTemperatureValue}
            />
          </div>
        </div>
      </Fieldset>

      <Fieldset
        legend="Humidity alerts"
        description="Alert when the air gets too dry or too humid (whole percent; at least 5 % apart)."
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid content-start gap-2">
            <Checkbox
              name="lowHumidityEnabled"
              label="Low humidity alert"
              defaultChecked={values.lowHumidityEnabled === 'on'}
            />
            <Field
              label="Low humidity (%)"
              name="lowHumidityValue"
              inputMode="numeric"
              defaultValue={values.lowHumidityValue}
              errors={errors.lowHumidityValue}
              hint="1 to 95"
            />
          </div>
          <div className="grid content-start gap-2">
            <Checkbox
              name="highHumidityEnabled"
              label="High humidity alert"
              defaultChecked={values.highHumidityEnabled === 'on'}
            />
            <Field
              label="High humidity (%)"
              name="highHumidityValue"
              inputMode="numeric"
              defaultValue={values.highHumidityValue}
              errors={errors.highHumidityValue}
              hint="6 to 100"
            />
          </div>
        </div>
      </Fieldset>
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : 'Save alert settings'}
        </Button>
      </div>
    </form>
  );
}
