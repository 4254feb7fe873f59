import 'server-only';
import type { Member } from '@/lib/auth/session';
import { listThermostats } from '@/lib/db/queries';
import type { FormState } from '@/lib/forms';
import { CONFIGURATION_FIELDS, type ConfigurationField } from '@/lib/settings/configuration';
import { buildingIdSchema } from '@/lib/thermostat-api/schemas';
import { MAX_PER_RUN } from './plan';
import type { BulkReview } from './runs';

/**
 * The bulk form as it is posted, with or without JavaScript: the ticked thermostats
 * (`thermostatIds`, one field each), whole buildings ticked (`allIn`, for a browser without
 * JavaScript, whose "select all" cannot tick the boxes itself), the reviewed selection carried
 * to the confirmation (`selection`, comma-separated), and the settings fields.
 */

export type BulkField = ConfigurationField | 'thermostatIds' | 'form';

/** The bulk form's state: the one form state, plus the review to confirm and the selection. */
export type BulkFormState = FormState<BulkField> & {
  review?: BulkReview & { selection: string };
  /** The selection to tick again (after a round trip without JavaScript). */
  selected?: string[];
};

/** At most this many whole buildings per post (a portfolio has fewer). */
const MAX_BUILDINGS = 500;

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

/**
 * The selected thermostat ids in the order posted, each once, whole buildings expanded to their
 * thermostats in the member's scope; null when the post is malformed (not text, or far too many).
 */
export async function selectionFromForm(member: Member, form: FormData): Promise<string[] | null> {
  const raw = [...form.getAll('thermostatIds'), ...form.getAll('selection')];
  const wholeBuildings = form.getAll('allIn');
  if ([...raw, ...wholeBuildings].some((value) => typeof value !== 'string')) return null;
  const ids = (raw as string[]).flatMap((value) => value.split(',')).map((id) => id.trim());
  if (ids.length > MAX_PER_RUN * 2 || wholeBuildings.length > MAX_BUILDINGS) return null;
  const selection = new Set(ids.filter(Boolean));
  for (const value of new Set(wholeBuildings as string[])) {
    const buildingId = buildingIdSchema.safeParse(value);
    if (!buildingId.success) return null;
    for (const t of await listThermostats({ scope: member, buildingId: buildingId.data })) {
      selection.add(t.thermostatId);
    }
  }
  return [...selection];
}
