import { Checkbox, Fieldset, RadioGroup } from '@/components/ui/form-parts';
import { Notice } from '@/components/ui/notice';
import { INCLUDE_FIELDS, RESIDENT_FIELD } from '@/lib/templates/form';
import { RESIDENT_OFF_ALONE, RESIDENT_OFF_RESETS } from '@/lib/templates/schema';
import { isChecked, type SectionProps } from './shared';

/** A one-off change's resident mode: on or off, with a warning of what off resets. */
export function ResidentModeSection({ values, errors }: SectionProps) {
  return (
    <Fieldset legend="Resident mode">
      <Notice tone="warning">
        {RESIDENT_OFF_RESETS} {RESIDENT_OFF_ALONE} The plan reads everything first, so undoing the
        change puts it back (passcodes excepted: Setpoint never stores one).
      </Notice>
      <Checkbox
        name={INCLUDE_FIELDS.residentMode}
        label="Include resident mode"
        defaultChecked={isChecked(values, INCLUDE_FIELDS.residentMode)}
      />
      <RadioGroup
        name={RESIDENT_FIELD}
        legend="Resident mode"
        options={[
          { value: 'on', label: 'On' },
          { value: 'off', label: 'Off (resets the thermostat’s settings)' },
        ]}
        defaultValue={values[RESIDENT_FIELD]}
        errors={errors[RESIDENT_FIELD]}
      />
    </Fieldset>
  );
}
