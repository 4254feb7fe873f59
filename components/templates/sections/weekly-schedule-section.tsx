import type { ReactNode } from 'react';
import { Checkbox, ErrorList, Fieldset } from '@/components/ui/form-parts';
import { INCLUDE_FIELDS } from '@/lib/templates/form';
import { isChecked, type SectionProps } from './shared';

/**
 * A template's weekly schedule: captured from a thermostat and shown read only (`schedule`,
 * drawn by the server page), with a box to keep it; or a word that there is none.
 */
export function WeeklyScheduleSection({
  values,
  errors,
  schedule,
  mode,
}: SectionProps & { schedule: ReactNode | null; mode: 'new' | 'edit' }) {
  return (
    <Fieldset
      legend="Weekly schedule"
      description="Captured from a thermostat, by comfort-setting name; each thermostat’s own setting of each name is used."
    >
      {schedule ? (
        <>
          <Checkbox
            name={INCLUDE_FIELDS.schedule}
            label="Include the weekly schedule"
            description="Left out, each thermostat keeps its own schedule."
            defaultChecked={isChecked(values, INCLUDE_FIELDS.schedule)}
            errors={errors.schedule}
          />
          {schedule}
        </>
      ) : (
        <>
          <p className="text-sm">
            {mode === 'new'
              ? 'No schedule: start from a thermostat above to capture its week.'
              : 'This template has no schedule: each thermostat keeps its own.'}
          </p>
          <ErrorList id="field-schedule-errors" errors={errors.schedule} />
        </>
      )}
    </Fieldset>
  );
}
