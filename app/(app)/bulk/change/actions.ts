'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { openAction } from '@/lib/access/actions';
import { selectionFromForm } from '@/lib/groups/selection';
import { runPath } from '@/lib/runs/requests';
import type { FormState } from '@/lib/platform/forms';
import { readTemplateForm } from '@/lib/templates/form';
import { planOneOffRun } from '@/lib/templates/runs';

const CHECK = 'Check the highlighted fields; nothing was planned.';

/**
 * Plans a one-off change (the template form's sections, not saved as a template) on the
 * thermostats ticked: every check in lib/templates/runs.ts, then the run's page, where the plan
 * appears once each thermostat has been read. Nothing is sent until a member applies it there.
 */
export async function planOneOffChange(_previous: FormState, form: FormData): Promise<FormState> {
  const opened = await openAction('change_thermostat');
  if (!opened.ok) return opened.state;
  const { member } = opened;
  const read = readTemplateForm(
    form,
    { unit: member.temperatureUnit, source: { kind: 'new' }, name: 'One-off change' },
    CHECK,
  );
  if (!read.ok) return read.state;
  const { values } = read;
  const selection = await selectionFromForm(member, form);
  if (!selection.ok) return { status: 'error', message: selection.message, values };
  if (selection.ids.length === 0) {
    return { status: 'error', message: 'Select at least one thermostat to plan on.', values };
  }
  const { name: _placeholder, ...change } = read.template;
  const planned = await planOneOffRun({ member, template: change, thermostatIds: selection.ids });
  if (!planned.ok) return { status: 'error', message: planned.message, values };
  revalidatePath('/bulk');
  redirect(runPath(planned.run));
}
