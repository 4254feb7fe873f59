import {
  type BulkBuilding,
  type PickerGroup,
  ThermostatPicker,
} from '@/components/bulk/thermostat-picker';
import { Fieldset } from '@/components/ui/form-parts';

/**
 * A one-off change's thermostats to plan it on. The ticks (`selected`) are held by the form's
 * component, outside the form element, so they survive its remount after each post.
 */
export function ThermostatsSection({
  buildings,
  groups,
  selected,
  onChange,
}: {
  buildings: BulkBuilding[];
  groups: PickerGroup[];
  selected: Set<string>;
  onChange: (next: Set<string>) => void;
}) {
  return (
    <Fieldset
      legend="Thermostats"
      description="Setpoint reads each one first and shows what would change. Nothing is sent until you apply the plan."
    >
      <ThermostatPicker
        buildings={buildings}
        groups={groups}
        selected={selected}
        onChange={onChange}
      />
    </Fieldset>
  );
}
