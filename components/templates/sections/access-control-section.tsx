import { Checkbox, Fieldset, RadioGroup } from '@/components/ui/form-parts';
import { LOCK_AREAS } from '@/lib/service/schemas';
import { LOCK_AREA_TEXT } from '@/lib/settings/access-control';
import { ACCESS_FIELD, INCLUDE_FIELDS, lockField } from '@/lib/templates/form';
import { isChecked, type SectionProps } from './shared';

/**
 * Access control: on or off, and the locks. Never a passcode field: a one-off change's passcode
 * is entered when its plan is applied.
 */
export function AccessControlSection({
  values,
  errors,
  oneOff,
}: SectionProps & { oneOff: boolean }) {
  return (
    <Fieldset
      legend="Access control"
      description={
        oneOff
          ? 'The locks. A new passcode for the thermostats it locks can be entered when you apply the plan: it is used for that run only and never stored. Left blank, turning access control on keeps each thermostat’s own passcode; turning it off clears it.'
          : 'The locks only. A template never holds a passcode: turning access control on keeps each thermostat’s own; turning it off clears it.'
      }
    >
      <Checkbox
        name={INCLUDE_FIELDS.accessControl}
        label="Include access control"
        defaultChecked={isChecked(values, INCLUDE_FIELDS.accessControl)}
      />
      <RadioGroup
        name={ACCESS_FIELD}
        legend="Access control"
        options={[
          { value: 'on', label: 'On' },
          { value: 'off', label: 'Off' },
        ]}
        defaultValue={values[ACCESS_FIELD]}
        errors={errors[ACCESS_FIELD]}
      />
      <div className="grid gap-2 sm:grid-cols-2">
        {LOCK_AREAS.map((area) => (
          <Checkbox
            key={area}
            name={lockField(area)}
            label={`Lock ${LOCK_AREA_TEXT[area].label.toLowerCase()}`}
            description={LOCK_AREA_TEXT[area].description}
            defaultChecked={isChecked(values, lockField(area))}
            errors={errors[lockField(area)]}
          />
        ))}
      </div>
    </Fieldset>
  );
}
