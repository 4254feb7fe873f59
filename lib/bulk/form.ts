import 'server-only';
import type { FormState } from '@/lib/platform/forms';
import { CONFIGURATION_FIELDS, type ConfigurationField } from '@/lib/settings/configuration';
import type { BulkReview } from './runs';

/**
 * The bulk form as it is posted, with or without JavaScript: the selection (read by
 * `selectionFromForm`, lib/groups/selection.ts) and the settings fields.
 */

export type BulkField = ConfigurationField | 'thermostatIds' | 'form';

/** The bulk form's state: the one form state, plus the review to confirm and the selection. */
export type BulkFormState = FormState<BulkField> & {
  review?: BulkReview & { selection: string };
  /** The selection to tick again (after a round trip without JavaScript). */
  selected?: string[];
};

export const MALFORMED =
  'The form was not sent as expected; nothing was sent. Reload the page and try again.';

/** The settings fields as posted ('' for a blank one); null when one is not text at all. */
export function valuesFromForm(form: FormData): Record<ConfigurationField, string> | null {
  const values = {} as Record<ConfigurationField, string>;
  for (const field of CONFIGURATION_FIELDS) {
    const value = form.get(field) ?? '';
    if (typeof value !== 'string') return null;
    values[field] = value;
  }
  return values;
}
