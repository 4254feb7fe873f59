'use server';

import { revalidatePath } from 'next/cache';
import { openAction } from '@/lib/access/actions';
import { createKeyFromForm, type KeyFormState, revokeKey } from '@/lib/api/manage-keys';
import type { FormState } from '@/lib/platform/forms';

/** Makes an API key (owners and admins); it is shown once. */
export async function createKeyAction(
  _previous: KeyFormState,
  form: FormData,
): Promise<KeyFormState> {
  const opened = await openAction('manage_api_keys');
  if (!opened.ok) return opened.state;
  const state = await createKeyFromForm({ member: opened.member, form });
  revalidatePath('/api-keys');
  return state;
}

/** Revokes an API key (its id bound by the page, so checked again here). */
export async function revokeKeyAction(
  keyId: string,
  _previous: FormState,
  _form: FormData,
): Promise<FormState> {
  const opened = await openAction('manage_api_keys');
  if (!opened.ok) return opened.state;
  const state = await revokeKey({ member: opened.member, keyId });
  revalidatePath('/api-keys');
  return state;
}
