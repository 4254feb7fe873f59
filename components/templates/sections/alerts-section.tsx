import { Field, SelectField } from '@/components/ui/field';
import { Checkbox, Fieldset } from '@/components/ui/form-parts';
import { INCLUDE_FIELDS } from '@/lib/templates/form';
import { isChecked, type SectionProps } from './shared';

/** Alert settings: the maintenance reminder and the four thresholds (temperatures in `unit`). */
export function AlertsSection({ values, errors, unit }: SectionProps & { unit: 'F' | 'C' }) {
  const degree = `°${unit}`;
  const checked = (field: string) => isChecked(values, field);
  return (
    <Fieldset
      legend="Alert settings"
      description="Each alert is set on or off as ticked; a blank value or interval is left as each thermostat has it."
    >
      <Checkbox
        name={INCLUDE_FIELDS.alerts}
        label="Include alert settings"
        defaultChecked={checked(INCLUDE_FIELDS.alerts)}
        errors={errors.alerts}
      />
      <Checkbox
        name="maintenanceEnabled"
        label="Remind about HVAC maintenance"
        defaultChecked={checked('maintenanceEnabled')}
        errors={errors.maintenanceEnabled}
      />
      <div className="grid items-start gap-3 sm:grid-cols-3">
        <Field
          label="Last maintenance"
          name="lastMaintenanceDate"
          type="date"
          defaultValue={values.lastMaintenanceDate ?? ''}
          errors={errors.lastMaintenanceDate}
          hint="Usually blank: each thermostat keeps its own date."
        />
        <Field
          label="Every"
          name="maintenanceInterval"
          inputMode="numeric"
          defaultValue={values.maintenanceInterval ?? ''}
          errors={errors.maintenanceInterval}
          hint="1–60 months or 1–10,000 hours"
        />
        <SelectField
          label="Interval unit"
          name="maintenanceIntervalUnits"
          defaultValue={values.maintenanceIntervalUnits || 'month'}
          errors={errors.maintenanceIntervalUnits}
          options={[
            { value: 'month', label: 'Months' },
            { value: 'hour', label: 'Hours of running' },
          ]}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        {(
          [
            ['lowTemperature', 'Low temperature', degree],
            ['highTemperature', 'High temperature', degree],
            ['lowHumidity', 'Low humidity', '%'],
            ['highHumidity', 'High humidity', '%'],
          ] as const
        ).map(([prefix, words, sign]) => (
          <div key={prefix} className="grid content-start gap-2">
            <Checkbox
              name={`${prefix}Enabled`}
              label={`${words} alert`}
              defaultChecked={checked(`${prefix}Enabled`)}
            />
            <Field
              label={`${words} (${sign})`}
              name={`${prefix}Value`}
              inputMode={sign === '%' ? 'numeric' : 'decimal'}
              defaultValue={values[`${prefix}Value`] ?? ''}
              errors={errors[`${prefix}Value`]}
            />
          </div>
        ))}
      </div>
    </Fieldset>
  );
}
