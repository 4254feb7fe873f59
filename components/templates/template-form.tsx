'use client';

import { type ReactNode, useActionState, useState } from 'react';
import type { BulkBuilding, PickerGroup } from '@/components/bulk/thermostat-picker';
import {
  fanOnTimeField,
  RANGE_FIELDS,
  rangeField,
} from '@/components/settings/configuration-fields';
import { ErrorSummary, type SummaryFields } from '@/components/ui/error-summary';
import { Field } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';
import { LOCK_AREAS } from '@/lib/service/schemas';
import { LOCK_AREA_TEXT } from '@/lib/settings/access-control';
import {
  ACCESS_FIELD,
  COMFORT_COLUMNS,
  comfortField,
  INCLUDE_FIELDS,
  lockField,
  MAX_COMFORT_ROWS,
  ORIGINALS_FIELD,
  RANGE_ROWS,
  RESIDENT_FIELD,
  SCHEDULE_FIELD,
  rangeField as scheduleRangeField,
  type TemplateFormValues,
} from '@/lib/templates/form';
import { AccessControlSection } from './sections/access-control-section';
import { AlertsSection } from './sections/alerts-section';
import { ComfortSection } from './sections/comfort-section';
import { ConfigurationSection } from './sections/configuration-section';
import { ResidentModeSection } from './sections/resident-mode-section';
import { ScheduleRangesSection } from './sections/schedule-ranges-section';
import { ThermostatsSection } from './sections/thermostats-section';
import { WeeklyScheduleSection } from './sections/weekly-schedule-section';

const idle: FormState = { status: 'idle' };
const COMFORT_LABELS: Record<(typeof COMFORT_COLUMNS)[number], (degree: string) => string> = {
  name: () => 'name',
  desiredHeat: (degree) => `heat (${degree})`,
  desiredCool: (degree) => `cool (${degree})`,
  fanHeat: () => 'fan heating',
  fanCool: () => 'fan cooling',
};

/**
 * The fields a refused save's summary links to, in the form's order (ids as Field, Checkbox and
 * RadioGroup give them). A section's own error (nothing set in it) links to its box.
 */
function summaryFields(unit: 'F' | 'C', rows: number, captured: boolean): SummaryFields {
  const degree = `°${unit}`;
  const fields: Record<string, SummaryFields[string]> = { name: 'Template name' };
  fields.comfortSettings = {
    label: 'Comfort settings',
    id: `field-${INCLUDE_FIELDS.comfortSettings}`,
  };
  for (let row = 0; row < rows; row++) {
    for (const column of COMFORT_COLUMNS) {
      fields[comfortField(row, column)] =
        `Comfort setting ${row + 1}: ${COMFORT_LABELS[column](degree)}`;
    }
  }
  fields.scheduleRanges = {
    label: 'Schedule ranges',
    id: `field-${INCLUDE_FIELDS.scheduleRanges}`,
  };
  for (let row = 0; row < RANGE_ROWS; row++) {
    fields[scheduleRangeField(row, 'days')] = {
      label: `Range ${row + 1}: days`,
      id: `field-range-${row}-days-errors`,
    };
    fields[scheduleRangeField(row, 'from')] = `Range ${row + 1}: from`;
    fields[scheduleRangeField(row, 'to')] = `Range ${row + 1}: to`;
    fields[scheduleRangeField(row, 'name')] = `Range ${row + 1}: comfort setting`;
  }
  fields.schedule = {
    label: 'Weekly schedule',
    id: captured ? `field-${INCLUDE_FIELDS.schedule}` : 'field-schedule-errors',
  };
  fields.configuration = { label: 'Configuration', id: `field-${INCLUDE_FIELDS.configuration}` };
  for (const field of RANGE_FIELDS) fields[field] = rangeField(field, unit).label;
  fields.holdAction = 'Hold action';
  fields.fanMinimumOnTime = fanOnTimeField.label;
  fields.alerts = { label: 'Alert settings', id: `field-${INCLUDE_FIELDS.alerts}` };
  fields.maintenanceEnabled = 'Remind about HVAC maintenance';
  fields.lastMaintenanceDate = 'Last maintenance';
  fields.maintenanceInterval = 'Maintenance interval';
  fields.maintenanceIntervalUnits = 'Interval unit';
  fields.lowTemperatureValue = `Low temperature (${degree})`;
  fields.highTemperatureValue = `High temperature (${degree})`;
  fields.lowHumidityValue = 'Low humidity (%)';
  fields.highHumidityValue = 'High humidity (%)';
  fields[ACCESS_FIELD] = { label: 'Access control', id: `field-${ACCESS_FIELD}-errors` };
  for (const area of LOCK_AREAS) {
    fields[lockField(area)] = `Lock ${LOCK_AREA_TEXT[area].label.toLowerCase()}`;
  }
  fields[RESIDENT_FIELD] = { label: 'Resident mode', id: `field-${RESIDENT_FIELD}-errors` };
  return fields;
}

/** Rows shown: every filled row and two blank ones (at least four), up to what a thermostat holds. */
function rowCount(values: Partial<TemplateFormValues>): number {
  let filled = 0;
  for (let row = 0; row < MAX_COMFORT_ROWS; row++) {
    const typed = ['name', 'desiredHeat', 'desiredCool'].some(
      (column) => (values[comfortField(row, column as 'name')] ?? '').trim() !== '',
    );
    if (typed) filled = row + 1;
  }
  return Math.min(MAX_COMFORT_ROWS, Math.max(4, filled + 2));
}

/**
 * A template's name and sections, each section kept only when its box is ticked. The schedule
 * is not edited here: it is captured from a thermostat and shown read only (`schedule`, drawn by
 * the server page), with a box to remove it. Posts without JavaScript.
 *
 * A one-off change (`mode="oneoff"`, /bulk/change) is the same sections without a name or a
 * captured week, and the thermostats to plan it on (`picker`) in the same form: its submit plans
 * it, nothing is saved as a template.
 */
export function TemplateForm({
  action: bound,
  initial,
  unit,
  mode,
  schedule,
  picker,
}: {
  action: FormAction;
  initial: TemplateFormValues;
  unit: 'F' | 'C';
  mode: 'new' | 'edit' | 'oneoff';
  /** The week, drawn by the server page; null when the template has none. */
  schedule: ReactNode | null;
  /** A one-off change's thermostats to choose from (the member's scope). */
  picker?: { buildings: BulkBuilding[]; groups: PickerGroup[]; initialSelected: string[] };
}) {
  const [state, action] = useActionState(bound, idle);
  // Held outside the form element, which is remounted after each post: the ticks survive it.
  const [selected, setSelected] = useState(() => new Set(picker?.initialSelected ?? []));
  const oneOff = mode === 'oneoff';
  // After a post the form shows what was posted (or saved), checkboxes included.
  const values = state.values ?? initial;
  const errors = state.fieldErrors ?? {};
  const rows = rowCount(values);

  return (
    <form
      action={action}
      noValidate
      className="grid gap-6"
      aria-label={oneOff ? 'One-off change' : mode === 'new' ? 'New template' : 'Edit template'}
      key={JSON.stringify(values)}
    >
      <ErrorSummary state={state} fields={summaryFields(unit, rows, Boolean(schedule))} />
      {mode === 'new' ? (
        <>
          {values[SCHEDULE_FIELD] ? (
            <input type="hidden" name={SCHEDULE_FIELD} value={values[SCHEDULE_FIELD]} />
          ) : null}
          {values[ORIGINALS_FIELD] ? (
            <input type="hidden" name={ORIGINALS_FIELD} value={values[ORIGINALS_FIELD]} />
          ) : null}
        </>
      ) : null}

      {oneOff ? null : (
        <div className="max-w-md">
          <Field
            label="Template name"
            name="name"
            defaultValue={values.name}
            errors={errors.name}
            maxLength={64}
            hint="For example “Vacant unit”. Names are unique in your organisation, ignoring case."
          />
        </div>
      )}

      <ComfortSection values={values} errors={errors} unit={unit} rows={rows} />
      {oneOff ? (
        <ScheduleRangesSection values={values} errors={errors} />
      ) : (
        <WeeklyScheduleSection values={values} errors={errors} schedule={schedule} mode={mode} />
      )}
      <ConfigurationSection values={values} errors={errors} unit={unit} />
      <AlertsSection values={values} errors={errors} unit={unit} />
      <AccessControlSection values={values} errors={errors} oneOff={oneOff} />
      {oneOff ? <ResidentModeSection values={values} errors={errors} /> : null}
      {picker ? (
        <ThermostatsSection
          buildings={picker.buildings}
          groups={picker.groups}
          selected={selected}
          onChange={setSelected}
        />
      ) : null}

      <div>
        {oneOff ? (
          <SubmitButton pending="Starting the plan…">Plan on the selected thermostats</SubmitButton>
        ) : (
          <SubmitButton pending="Saving…">
            {mode === 'new' ? 'Save template' : 'Save changes'}
          </SubmitButton>
        )}
      </div>
    </form>
  );
}
