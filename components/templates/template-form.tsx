'use client';

import { type ReactNode, useActionState, useState } from 'react';
import {
  type BulkBuilding,
  type PickerGroup,
  ThermostatPicker,
} from '@/components/bulk/thermostat-picker';
import {
  fanOnTimeField,
  RANGE_FIELDS,
  rangeField,
} from '@/components/settings/configuration-fields';
import { ErrorSummary, type SummaryFields } from '@/components/ui/error-summary';
import { Field, SelectField } from '@/components/ui/field';
import { Checkbox, ErrorList, Fieldset, RadioGroup } from '@/components/ui/form-parts';
import { Notice } from '@/components/ui/notice';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';
import { BLOCKS_PER_DAY, blockTime, DAY_LABELS } from '@/lib/schedule/blocks';
import { LOCK_AREA_TEXT } from '@/lib/settings/access-control';
import { HOLD_ACTION_TEXT } from '@/lib/settings/configuration';
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
import { RESIDENT_OFF_ALONE, RESIDENT_OFF_RESETS } from '@/lib/templates/schema';
import { DAYS, HOLD_ACTIONS, LOCK_AREAS } from '@/lib/service/schemas';

const idle: FormState = { status: 'idle' };
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
const FANS = [
  { value: 'auto', label: 'Auto' },
  { value: 'on', label: 'On' },
];

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
  const degree = `°${unit}`;
  const rows = rowCount(values);
  const checked = (field: string) => values[field] === 'on';

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

      <Fieldset
        legend="Comfort settings"
        description="Matched on each thermostat by name: a setting of the same name is changed to these values, one it lacks is created. Blank rows are ignored."
      >
        <Checkbox
          name={INCLUDE_FIELDS.comfortSettings}
          label="Include comfort settings"
          defaultChecked={checked(INCLUDE_FIELDS.comfortSettings)}
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

      {oneOff ? (
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
                    name={scheduleRangeField(row, day)}
                    label={DAY_LABELS[day]}
                    defaultChecked={checked(scheduleRangeField(row, day))}
                  />
                ))}
              </div>
              <ErrorList
                id={`field-range-${row}-days-errors`}
                errors={errors[scheduleRangeField(row, 'days')]}
              />
              <div className="grid items-start gap-3 sm:grid-cols-[repeat(2,minmax(0,1fr))_minmax(0,2fr)]">
                <SelectField
                  label={`From (range ${row + 1})`}
                  name={scheduleRangeField(row, 'from')}
                  defaultValue={values[scheduleRangeField(row, 'from')] ?? ''}
                  errors={errors[scheduleRangeField(row, 'from')]}
                  options={STARTS}
                />
                <SelectField
                  label={`To (range ${row + 1})`}
                  name={scheduleRangeField(row, 'to')}
                  defaultValue={values[scheduleRangeField(row, 'to')] ?? ''}
                  errors={errors[scheduleRangeField(row, 'to')]}
                  options={ENDS}
                />
                <Field
                  label={`Comfort setting (range ${row + 1})`}
                  name={scheduleRangeField(row, 'name')}
                  defaultValue={values[scheduleRangeField(row, 'name')] ?? ''}
                  errors={errors[scheduleRangeField(row, 'name')]}
                  maxLength={32}
                  hint="For example “Away”."
                />
              </div>
            </fieldset>
          ))}
        </Fieldset>
      ) : (
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
                defaultChecked={checked(INCLUDE_FIELDS.schedule)}
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
      )}

      <Fieldset
        legend="Configuration"
        description="A blank field is left as each thermostat has it."
      >
        <Checkbox
          name={INCLUDE_FIELDS.configuration}
          label="Include configuration"
          defaultChecked={checked(INCLUDE_FIELDS.configuration)}
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
          defaultChecked={checked(INCLUDE_FIELDS.accessControl)}
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
              defaultChecked={checked(lockField(area))}
              errors={errors[lockField(area)]}
            />
          ))}
        </div>
      </Fieldset>

      {oneOff ? (
        <Fieldset legend="Resident mode">
          <Notice tone="warning">
            {RESIDENT_OFF_RESETS} {RESIDENT_OFF_ALONE} The plan reads everything first, so undoing
            the change puts it back (passcodes excepted: Setpoint never stores one).
          </Notice>
          <Checkbox
            name={INCLUDE_FIELDS.residentMode}
            label="Include resident mode"
            defaultChecked={checked(INCLUDE_FIELDS.residentMode)}
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
      ) : null}

      {picker ? (
        <Fieldset
          legend="Thermostats"
          description="Setpoint reads each one first and shows what would change. Nothing is sent until you apply the plan."
        >
          <ThermostatPicker
            buildings={picker.buildings}
            groups={picker.groups}
            selected={selected}
            onChange={setSelected}
          />
        </Fieldset>
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
