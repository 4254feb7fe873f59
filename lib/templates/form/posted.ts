import { TEMPLATE_FORM_FIELDS } from './fields';
import type { Originals } from './types';

/** The posted template form as its sections' schemas read it: text by field name. */

export const MALFORMED =
  'The form was not sent as expected; nothing was saved. Reload the page and try again.';
/** Far more than a week of names or a full form's numbers; anything longer is not ours. */
export const MAX_HIDDEN_LENGTH = 64_000;

/**
 * Each posted field's text (the first, where a name is posted twice), once every value is known
 * to be text.
 */
export function postedText(form: FormData): Record<string, string> {
  return Object.fromEntries(
    [...form.keys()].map((field) => {
      const value = form.get(field);
      return [field, typeof value === 'string' ? value : ''];
    }),
  );
}

/** The posted °F of pre-filled values: finite numbers by field name, anything else dropped. */
export function postedOriginals(raw: string): Originals {
  if (raw === '' || raw.length > MAX_HIDDEN_LENGTH) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  return Object.fromEntries(
    Object.entries(parsed).filter(
      (entry): entry is [string, number] =>
        TEMPLATE_FORM_FIELDS.includes(entry[0]) &&
        typeof entry[1] === 'number' &&
        Number.isFinite(entry[1]),
    ),
  );
}
