'use server';

import { redirect } from 'next/navigation';
import { notYours } from '@/lib/access/not-yours';
import { openAction } from '@/lib/access/actions';
import type { FormState } from '@/lib/platform/forms';
import { planUndoOfEntry } from '@/lib/templates/runs';

/**
 * Plans the undo of one activity entry (bound by the page): only reads, then the plan's page,
 * where the member sees what would be put back (and any change since) before applying it.
 */
export async function undoEntry(
  entryId: number,
  _previous: FormState,
  _form: FormData,
): Promise<FormState> {
  const opened = await openAction('change_thermostat');
  if (!opened.ok) return opened.state;
  if (!Number.isSafeInteger(entryId) || entryId < 1) {
    return { status: 'error', message: notYours('entry') };
  }
  const undo = await planUndoOfEntry({ member: opened.member, entryId });
  if (!undo.ok) return { status: 'error', message: undo.message };
  redirect(`/bulk/runs/${undo.run.id}`);
}
