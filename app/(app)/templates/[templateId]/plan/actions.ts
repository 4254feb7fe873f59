'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { openAction } from '@/lib/access/actions';
import { selectionFromForm } from '@/lib/groups/selection';
import type { FormState } from '@/lib/platform/forms';
import { planTemplateRun } from '@/lib/templates/runs';

/**
 * Plans a template on the thermostats ticked (or whole buildings, without JavaScript): every
 * check in lib/templates/runs.ts, then the run's page, where the plan appears once read.
 */
export async function planTemplate(
  templateId: string,
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const opened = await openAction('change_thermostat');
  if (!opened.ok) return opened.state;
  const selection = await selectionFromForm(opened.member, form);
  if (!selection.ok) return { status: 'error', message: selection.message };
  if (selection.ids.length === 0) {
    return { status: 'error', message: 'Select at least one thermostat to plan on.' };
  }
  const planned = await planTemplateRun({
    member: opened.member,
    templateId,
    thermostatIds: selection.ids,
  });
  if (!planned.ok) return { status: 'error', message: planned.message };
  revalidatePath('/bulk');
  redirect(`/bulk/runs/${planned.run.id}`);
}
