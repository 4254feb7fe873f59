import {
  fanOnTimeField,
  RANGE_FIELDS,
  rangeField,
} from '@/components/settings/configuration-fields';
import { Field, SelectField } from '@/components/ui/field';
import { Checkbox, Fieldset } from '@/components/ui/form-parts';
import { HOLD_ACTIONS } from '@/lib/service/schemas';
import { HOLD_ACTION_TEXT } from '@/lib/settings/configuration';
import { INCLUDE_FIELDS } from '@/lib/templates/form';
import { isChecked, type SectionProps } from './shared';

/** Configuration: the ranges in `unit`, the hold action and the fan's minimum on-time. */
export function ConfigurationSection({ values, errors, unit }: SectionProps & { unit: 'F' | 'C' }) {
  return (
    <Fieldset legend="Configuration" description="A blank field is left as each thermostat has it.">
      <Checkbox
        name={INCLUDE_FIELDS.configuration}
        label="Include configuration"
        defaultChecked={isChecked(values, INCLUDE_FIELDS.configuration)}
        errors={errors.configuration}
      />
      <div className="grid grid-cols-2 items-start gap-3 md:grid-cols-4 [&>div]:min-w-0">
        {RANGE_FIELDS.map((field) => (
          <Field
            key={field}
            {...rangeField(field, unit)}
            defaultValue={values[field] ?? ''}
            errors={errors[field]}
          />
        ))}
      </div>
      <div className="grid items-start gap-3 sm:grid-cols-2">
        <SelectField
          label="Hold action"
          name="holdAction"
          defaultValue={values.holdAction ?? ''}
          errors={errors.holdAction}
          hint="What happens when someone changes the temperature at the thermostat."
          options={[
            { value: '', label: 'Leave as each thermostat has it' },
            ...HOLD_ACTIONS.map((choice) => ({
              value: choice,
              label: HOLD_ACTION_TEXT[choice]?.label ?? choice,
            })),
          ]}
        />
        <Field
          {...fanOnTimeField}
          defaultValue={values.fanMinimumOnTime ?? ''}
          errors={errors.fanMinimumOnTime}
          hint="0 to 55."
        />
      </div>
    </Fieldset>
  );
}
