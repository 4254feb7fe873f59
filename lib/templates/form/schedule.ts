import { z } from 'zod';
import { INCLUDE_FIELDS, SCHEDULE_FIELD } from './fields';
import { MALFORMED, MAX_HIDDEN_LENGTH } from './posted';
import { postedField } from './section';
import type { TemplateDraft, TemplateFormSource } from './types';
import type { FormWriter } from './writer';

/**
 * The weekly schedule section: captured from a thermostat, never typed. A new template posts it
 * (`schedule`, JSON of names); an edit keeps the stored template's.
 */

export function scheduleValues(draft: TemplateDraft, { values, tick }: FormWriter) {
  values[INCLUDE_FIELDS.schedule] = tick(draft.schedule !== undefined);
  if (draft.schedule) values[SCHEDULE_FIELD] = JSON.stringify(draft.schedule);
}

/** A captured week as posted: JSON, or nothing (blank); the template schema says if it is a week. */
const capturedWeek = postedField.pipe(
  z
    .string()
    .max(MAX_HIDDEN_LENGTH, MALFORMED)
    .transform((posted, ctx): unknown => {
      if (posted === '') return undefined;
      try {
        return JSON.parse(posted);
      } catch {
        ctx.addIssue({ code: 'custom', message: MALFORMED });
        return z.NEVER;
      }
    }),
);

/** The schedule: captured from a thermostat (new) or kept from the stored template (edit). */
export function scheduleSchema(source: TemplateFormSource) {
  if (source.kind === 'edit') return z.object({}).transform(() => source.current.schedule);
  return z.object({ [SCHEDULE_FIELD]: capturedWeek }).transform((values) => values[SCHEDULE_FIELD]);
}
