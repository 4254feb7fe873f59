import { INCLUDE_FIELDS, SCHEDULE_FIELD } from './fields';
import { type FormReader, MALFORMED, MAX_HIDDEN_LENGTH } from './reader';
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

/** The schedule: captured from a thermostat (new) or kept from the stored template (edit). */
export function parseSchedule({ add, text, checked }: FormReader, source: TemplateFormSource) {
  let schedule: unknown;
  if (checked(INCLUDE_FIELDS.schedule)) {
    if (source.kind === 'edit') {
      if (source.current.schedule) schedule = source.current.schedule;
    } else {
      const posted = text(SCHEDULE_FIELD);
      if (posted.length > MAX_HIDDEN_LENGTH) add('schedule', MALFORMED);
      else if (posted !== '') {
        try {
          schedule = JSON.parse(posted);
        } catch {
          add('schedule', MALFORMED);
        }
      }
    }
  }
  return schedule;
}
