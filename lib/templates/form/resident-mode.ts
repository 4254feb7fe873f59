import { z } from 'zod';
import { INCLUDE_FIELDS, RESIDENT_FIELD } from './fields';
import type { TemplateDraft } from './types';
import type { FormWriter } from './writer';

/** The resident mode section (a one-off change's): on or off (`residentMode`). */

export function residentModeValues(draft: TemplateDraft, { values, tick }: FormWriter) {
  values[INCLUDE_FIELDS.residentMode] = tick(draft.residentMode !== undefined);
  values[RESIDENT_FIELD] =
    draft.residentMode === undefined ? '' : draft.residentMode ? 'on' : 'off';
}

/** Resident mode: on or off (off resets the rest, so the schema refuses it with other sections). */
export const residentModeSchema = z
  .object({
    [RESIDENT_FIELD]: z.enum(['on', 'off'], 'Choose whether resident mode is on or off.'),
  })
  .transform((values) => values[RESIDENT_FIELD] === 'on');
