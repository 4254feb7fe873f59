import 'server-only';
import { z } from 'zod';
import { savePreferences } from '@/lib/auth/preferences-store';
import { logActivity } from '@/lib/activity/sink';
import type { Member } from '@/lib/auth/store';
import { type FormState, fieldErrorsOf } from '@/lib/platform/forms';
import { knownZone } from '@/lib/platform/time-format';
import { timeZoneName } from '@/lib/platform/words';

export const PREFERENCE_FIELDS = ['timeZone', 'temperatureUnit'] as const;
export type PreferenceField = (typeof PREFERENCE_FIELDS)[number];

/** Every zone the runtime knows, UTC first. */
export function zoneChoices(): string[] {
  return ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];
}

const preferencesSchema = z.object({
  timeZone: z
    .string('Choose your time zone.')
    .max(100, 'Choose a time zone from the list.')
    .refine((zone) => zone !== '' && knownZone(zone) === zone, 'Choose a time zone from the list.'),
  temperatureUnit: z.enum(['F', 'C'], 'Choose °F or °C.'),
});

/** Checks and saves what the member chose for themselves; only their own account changes. */
export async function saveOwnPreferences(
  member: Member,
  form: FormData,
): Promise<FormState<PreferenceField>> {
  const posted = {
    timeZone: form.get('timeZone'),
    temperatureUnit: form.get('temperatureUnit'),
  };
  const parsed = preferencesSchema.safeParse(posted);
  if (!parsed.success) {
    return {
      status: 'error',
      message: 'Check the highlighted fields; nothing was saved.',
      fieldErrors: fieldErrorsOf<PreferenceField>(parsed.error),
      values: Object.fromEntries(
        Object.entries(posted).map(([key, value]) => [key, typeof value === 'string' ? value : '']),
      ),
    };
  }
  await savePreferences({ userId: member.userId, ...parsed.data });
  const zone = timeZoneName(parsed.data.timeZone);
  await logActivity({
    actor: member,
    action: 'member.preferences_update',
    summary: `${member.name} reads times in ${zone} and temperatures in °${parsed.data.temperatureUnit}`,
    changes: { 'Time zone': zone, 'Temperatures in': `°${parsed.data.temperatureUnit}` },
  });
  return {
    status: 'success',
    message: `Saved. Times are shown in ${timeZoneName(parsed.data.timeZone)} and temperatures in °${parsed.data.temperatureUnit}.`,
  };
}
