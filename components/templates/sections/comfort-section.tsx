import { Field, SelectField } from '@/components/ui/field';
import { Checkbox, Fieldset } from '@/components/ui/form-parts';
import {
  COMFORT_COLUMNS,
  comfortField,
  INCLUDE_FIELDS,
  MAX_COMFORT_ROWS,
} from '@/lib/templates/form';
import { isChecked, type SectionProps } from './shared';

const FANS = [
  { value: 'auto', label: 'Auto' },
  { value: 'on', label: 'On' },
];

/** Comfort settings: `rows` rows of a name, heat and cool in `unit`, and the fans. */
export function ComfortSection({
  values,
  errors,
  unit,
  rows,
}: SectionProps & { unit: 'F' | 'C'; rows: number }) {
  const degree = `°${unit}`;
  return (
    <Fieldset
      legend="Comfort settings"
      description="Matched on each thermostat by name: a setting of the same name is changed to these values, one it lacks is created. Blank rows are ignored."
    >
      <Checkbox
        name={INCLUDE_FIELDS.comfortSettings}
        label="Include comfort settings"
        defaultChecked={isChecked(values, INCLUDE_FIELDS.comfortSettings)}
        errors={errors.comfortSettings}
      />
      <div className="grid gap-3">
        {Array.from({ length: rows }, (_, row) => (
          <fieldset
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions, posted by index
            key={row}
            className="grid gap-3 border-t border-slate-100 pt-3 sm:grid-cols-[minmax(0,2fr)_repeat(4,minmax(0,1fr))] dark:border-slate-800"
          >
            <legend className="sr-only">Comfort setting {row + 1}</legend>
            {COMFORT_COLUMNS.map((column) => {
              const name = comfortField(row, column);
              const label = {
                name: `Name of setting ${row + 1}`,
                desiredHeat: `Heat (${degree})`,
                desiredCool: `Cool (${degree})`,
                fanHeat: 'Fan heating',
                fanCool: 'Fan cooling',
              }[column];
              return column === 'fanHeat' || column === 'fanCool' ? (
                <SelectField
                  key={column}
                  label={label}
                  name={name}
                  defaultValue={values[name] || 'auto'}
                  errors={errors[name]}
                  options={FANS}
                />
              ) : (
                <Field
                  key={column}
                  label={label}
                  name={name}
                  defaultValue={values[name] ?? ''}
                  errors={errors[name]}
                  inputMode={column === 'name' ? undefined : 'decimal'}
                  maxLength={column === 'name' ? 32 : undefined}
                />
              );
            })}
          </fieldset>
        ))}
      </div>
      {rows < MAX_COMFORT_ROWS ? (
        <p className="text-xs text-muted">
          Need more rows? Save, and the form comes back with two more (up to {MAX_COMFORT_ROWS}).
        </p>
      ) : null}
    </Fieldset>
  );
}
