'use server';

import { revalidatePath } from 'next/cache';
import { type PreferenceField, saveOwnPreferences } from '@/lib/auth/preferences';
import { openOwnAction } from '@/lib/access/actions';
import type { FormState } from '@/lib/platform/forms';

/** A member's own time zone and temperature unit. Every member may change their own. */
export async function savePreferencesAction(
  _previous: FormState<PreferenceField>,
  form: FormData,
): Promise<FormState<PreferenceField>> {
  const member = await openOwnAction();
  const state = await saveOwnPreferences(member, form);
  // Every page reads the member's zone and unit.
  if (state.status === 'success') revalidatePath('/', 'layout');
  return state;
}
