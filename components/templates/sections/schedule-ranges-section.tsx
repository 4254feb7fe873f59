import { Field, SelectField } from '@/components/ui/field';
import { Checkbox, ErrorList, Fieldset } from '@/components/ui/form-parts';
import { BLOCKS_PER_DAY, blockTime, DAY_LABELS } from '@/lib/schedule/blocks';
import { DAYS } from '@/lib/service/schemas';
import { INCLUDE_FIELDS, RANGE_ROWS, rangeField } from '@/lib/templates/form';
import { isChecked, type SectionProps } from './shared';

const STARTS = [
  { value: '', label: 'Start' },
  ...Array.from({ length: BLOCKS_PER_DAY }, (_, block) => ({
    value: String(block),
    label: blockTime(block),
  })),
];
// An end is the end of a half hour: 00:30 to 24:00.
const ENDS = [
  { value: '', label: 'End' },
  ...Array.from({ length: BLOCKS_PER_DAY }, (_, block) => ({
    value: String(block + 1),
    label: blockTime(block + 1),
  })),
];

/** A one-off change's schedule ranges: days, a start and an end, and a comfort setting's name. */
export function ScheduleRangesSection({ values, errors }: SectionProps) {
  const checked = (field: string) => isChecked(values, field);
  return (
    <Fieldset
      legend="Schedule ranges"
      description="Each range sets the chosen days’ half hours to a comfort setting, by name: each thermostat’s own setting of that name, or one created above. Later ranges paint over earlier ones; a range already so is skipped. Blank rows are ignored."
    >
      <Checkbox
        name={INCLUDE_FIELDS.scheduleRanges}
        label="Include schedule ranges"
        defaultChecked={checked(INCLUDE_FIELDS.scheduleRanges)}
        errors={errors.scheduleRanges}
      />
      {Array.from({ length: RANGE_ROWS }, (_, row) => (
        <fieldset
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions, posted by index
          key={row}
          className="grid gap-3 border-t border-slate-100 pt-3 dark:border-slate-800"
          aria-describedby={`field-range-${row}-days-errors`}
        >
          <legend className="text-sm font-medium">Range {row + 1}</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-2">
            {DAYS.map((day) => (
              <Checkbox
                key={day}
                name={rangeField(row, day)}
                label={DAY_LABELS[day]}
                defaultChecked={checked(rangeField(row, day))}
              />
            ))}
          </div>
          <ErrorList
            id={`field-range-${row}-days-errors`}
            errors={errors[rangeField(row, 'days')]}
          />
          <div className="grid items-start gap-3 sm:grid-cols-[repeat(2,minmax(0,1fr))_minmax(0,2fr)]">
            <SelectField
              label={`From (range ${row + 1})`}
              name={rangeField(row, 'from')}
              defaultValue={values[rangeField(row, 'from')] ?? ''}
              errors={errors[rangeField(row, 'from')]}
              options={STARTS}
            />
            <SelectField
              label={`To (range ${row + 1})`}
              name={rangeField(row, 'to')}
              defaultValue={values[rangeField(row, 'to')] ?? ''}
              errors={errors[rangeField(row, 'to')]}
              options={ENDS}
            />
            <Field
              label={`Comfort setting (range ${row + 1})`}
              name={rangeField(row, 'name')}
              defaultValue={values[rangeField(row, 'name')] ?? ''}
              errors={errors[rangeField(row, 'name')]}
              maxLength={32}
              hint="For example “Away”."
            />
          </div>
        </fieldset>
      ))}
    </Fieldset>
  );
}
