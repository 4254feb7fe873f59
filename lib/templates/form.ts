import type { z } from 'zod';
import { type FormState, fieldErrorsOf } from '@/lib/platform/forms';
import type { TemperatureUnit } from '@/lib/platform/units';
import { accessControlSchema, accessControlValues } from './form/access-control';
import { alertsSchema, alertValues } from './form/alerts';
import { comfortRowsPosted, comfortSettingsSchema, comfortValues } from './form/comfort';
import { configurationSectionSchema, configurationValues } from './form/configuration';
import { INCLUDE_FIELDS, ORIGINALS_FIELD, TEMPLATE_FORM_FIELDS } from './form/fields';
import { fieldOfPath } from './form/paths';
import { MALFORMED, postedOriginals, postedText } from './form/posted';
import { residentModeSchema, residentModeValues } from './form/resident-mode';
import { scheduleSchema, scheduleValues } from './form/schedule';
import { scheduleRangeValues, scheduleRangesSchema } from './form/schedule-ranges';
import type {
  Originals,
  TemplateDraft,
  TemplateFormErrors,
  TemplateFormResult,
  TemplateFormSource,
  TemplateFormValues,
} from './form/types';
import { formWriter } from './form/writer';
import { NO_SECTION, PASSCODE_REFUSED, type Template, templateSchema } from './schema';

/**
 * The template form, both ways: what a member posts (their unit, blank rows, a checkbox per
 * section) into a `Template` (°F to two decimals, through `templateSchema`), and a template back
 * into the form's values. Pure, so the unit tests and the client form share it. Each section is
 * read (one zod schema, built from the member's unit and the °F shown) and written by its own
 * module in lib/templates/form/; this one puts them together.
 *
 * Field names: `name`; `include<Section>` per section; comfort rows `comfort.<row>.<field>`;
 * the configuration and alert fields named as on a thermostat's own forms (so their checks and
 * error placement are reused); `accessControl` (on/off) and `lock.<area>`. A new template also
 * posts the schedule it captured (`schedule`, JSON of names; kept when `includeSchedule` is
 * ticked, like every section) and the exact °F of the values it was pre-filled with
 * (`fahrenheit`), so a value left as shown in °C keeps its °F exactly; an edit takes both from the
 * stored template instead. There is no passcode field, and a posted one is refused.
 */

export {
  ACCESS_FIELD,
  COMFORT_COLUMNS,
  type ComfortColumn,
  comfortField,
  INCLUDE_FIELDS,
  lockField,
  MAX_COMFORT_ROWS,
  ORIGINALS_FIELD,
  RANGE_ROWS,
  type RangeColumn,
  RESIDENT_FIELD,
  rangeField,
  SCHEDULE_FIELD,
  TEMPLATE_FORM_FIELDS,
} from './form/fields';
export type {
  Originals,
  TemplateDraft,
  TemplateFormErrors,
  TemplateFormResult,
  TemplateFormSource,
  TemplateFormValues,
} from './form/types';

const BROKEN_SCHEDULE =
  'The captured schedule is not a week of 7 days of 48 half-hour blocks. Start from the thermostat again.';

/**
 * The form's values for a template (or a draft read from a thermostat), in the member's unit,
 * and the exact °F behind each temperature shown. Each section the draft has is ticked, unless
 * `tick: 'none'`: a draft read from a thermostat fills in every section the member may tick, but
 * ticks none, so that a template meant to change one thing changes only that.
 */
export function templateFormValues(
  draft: TemplateDraft,
  unit: TemperatureUnit,
  options: { tick?: 'present' | 'none' } = {},
): { values: TemplateFormValues; originals: Originals } {
  const writer = formWriter({ name: draft.name ?? '' }, unit, options);
  comfortValues(draft, writer);
  scheduleValues(draft, writer);
  configurationValues(draft, writer);
  alertValues(draft, writer);
  accessControlValues(draft, writer);
  scheduleRangeValues(draft, writer);
  residentModeValues(draft, writer);

  const { values, originals } = writer;
  values[ORIGINALS_FIELD] = JSON.stringify(originals);
  return { values, originals };
}

/** The posted form's values, to refill it: every field ('' when absent), never a passcode. */
export function templateFormStrings(form: FormData): TemplateFormValues {
  return Object.fromEntries(
    TEMPLATE_FORM_FIELDS.map((field) => {
      const value = form.get(field);
      return [field, typeof value === 'string' ? value : ''];
    }),
  );
}

/**
 * The posted template form as an action reads it: the values to refill it with, and the template
 * (`parseTemplateForm`), or the state that shows its errors under their fields, `check` above
 * them saying what was not done.
 */
export function readTemplateForm(
  form: FormData,
  options: Parameters<typeof parseTemplateForm>[1],
  check: string,
): { ok: true; template: Template; values: TemplateFormValues } | { ok: false; state: FormState } {
  const values = templateFormStrings(form);
  const parsed = parseTemplateForm(form, options);
  if (!parsed.ok) {
    return {
      ok: false,
      state: { status: 'error', message: check, fieldErrors: parsed.fieldErrors, values },
    };
  }
  return { ok: true, template: parsed.template, values };
}

/**
 * The posted template form as a `Template`, or the errors by field (`form` for the whole form,
 * a section's include field's section name for the section as a whole). Temperatures are read
 * in `unit` and stored as °F with at most two decimals; one left as it was shown keeps its
 * exact °F.
 */
export function parseTemplateForm(
  form: FormData,
  options: {
    unit: TemperatureUnit;
    source: TemplateFormSource;
    /** A one-off change has no name field: the name is given (its title comes later). */
    name?: string;
  },
): TemplateFormResult {
  const { unit, source } = options;

  for (const [key, value] of form.entries()) {
    // Never a passcode: not in a template, not in the database, not echoed back.
    if (/passcode/i.test(key)) return { ok: false, fieldErrors: { form: [PASSCODE_REFUSED] } };
    // Only our own fields are text; a file where text belongs is not read as blank.
    if (typeof value !== 'string') return { ok: false, fieldErrors: { form: [MALFORMED] } };
  }

  const posted = postedText(form);
  const originals =
    source.kind === 'edit'
      ? templateFormValues(source.current, unit).originals
      : postedOriginals(posted[ORIGINALS_FIELD] ?? '');
  const context = { unit, originals };
  const errors: TemplateFormErrors = {};
  const checked = (field: string) => posted[field] === 'on';

  // Each section, when its box is ticked, by its own schema (lib/templates/form/): what it
  // gives, or its refusals under their fields (one of the section as a whole, under its name).
  const read = <Out>(section: keyof typeof INCLUDE_FIELDS, schema: z.ZodType<Out>) => {
    if (!checked(INCLUDE_FIELDS[section])) return undefined;
    const parsed = schema.safeParse(posted);
    if (parsed.success) return parsed.data;
    for (const [field, messages] of Object.entries(fieldErrorsOf(parsed.error))) {
      const at = field === 'form' ? section : field;
      errors[at] = [...(errors[at] ?? []), ...(messages ?? [])];
    }
    return undefined;
  };
  // The configuration first: the comfort settings are checked inside its ranges.
  const configuration = read('configuration', configurationSectionSchema(context));
  const comfort = read(
    'comfortSettings',
    comfortSettingsSchema({
      ...context,
      rows: comfortRowsPosted(Object.keys(posted)),
      configuration,
    }),
  );
  const ranges = read('scheduleRanges', scheduleRangesSchema);
  const sections: Partial<Record<keyof Template, unknown>> = {
    comfortSettings: comfort?.settings,
    schedule: read('schedule', scheduleSchema(source)),
    configuration,
    alerts: read('alerts', alertsSchema(context)),
    accessControl: read('accessControl', accessControlSchema),
    scheduleRanges: ranges?.ranges,
    residentMode: read('residentMode', residentModeSchema),
  };
  const input: Record<string, unknown> = { name: options.name ?? posted.name ?? '' };
  for (const [section, value] of Object.entries(sections)) {
    if (value !== undefined) input[section] = value;
  }

  // The schema has the last word; what was said above in the member's unit comes first.
  const parsed = templateSchema.safeParse(input);
  const ticked = Object.values(INCLUDE_FIELDS).some(checked);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      // A ticked section that was refused is why there is none: its own errors say so.
      if (issue.message === NO_SECTION && ticked) continue;
      const field = fieldOfPath(issue.path, comfort?.rowOf ?? [], ranges?.rowOf);
      // The schedule is captured, never typed: any fault in it means the capture went wrong.
      const message = field === 'schedule' ? BROKEN_SCHEDULE : issue.message;
      if (!errors[field]?.includes(message) && (!errors[field] || field === 'form'))
        errors[field] = [...(errors[field] ?? []), message];
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, fieldErrors: errors };
  return { ok: true, template: parsed.data };
}
