'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { openAction, refusedTo } from '@/lib/access/actions';
import { notYours } from '@/lib/access/not-yours';
import { logActivity } from '@/lib/activity/sink';
import {
  createTemplate,
  deleteTemplate,
  findTemplate,
  updateTemplate,
} from '@/lib/templates/store';
import type { FormState } from '@/lib/platform/forms';
import { withNotice } from '@/lib/platform/notice';
import { readTemplateForm, templateFormValues } from '@/lib/templates/form';

const LIST = '/templates';
const CHECK = 'Check the highlighted fields; nothing was saved.';

/** A new template from the posted form (its schedule, if any, captured from a thermostat). */
export async function createTemplateAction(
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const opened = await openAction('manage_templates');
  if (!opened.ok) return opened.state;
  const { member } = opened;
  const read = readTemplateForm(
    form,
    { unit: member.temperatureUnit, source: { kind: 'new' } },
    CHECK,
  );
  if (!read.ok) return read.state;
  const { values } = read;
  const created = await createTemplate({ member, template: read.template });
  if (!created.ok) {
    return { status: 'error', message: created.message, fieldErrors: created.fieldErrors, values };
  }
  await logActivity({
    actor: member,
    action: 'template.create',
    summary: `Created the template “${created.template.name}”`,
    changes: { before: null, after: created.template.template },
  });
  revalidatePath(LIST);
  redirect(withNotice(`${LIST}/${created.template.id}`, member, 'templateCreated'));
}

/** Replaces a template's name and sections (bound to its id by the page). */
export async function updateTemplateAction(
  templateId: string,
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const opened = await openAction('manage_templates');
  if (!opened.ok) return opened.state;
  const { member } = opened;
  const current = await findTemplate({ orgId: member.orgId, templateId });
  if (!current) return { status: 'error', message: notYours('template') };
  const read = readTemplateForm(
    form,
    { unit: member.temperatureUnit, source: { kind: 'edit', current: current.template } },
    CHECK,
  );
  if (!read.ok) return read.state;
  const { values } = read;
  const updated = await updateTemplate({ member, templateId, template: read.template });
  if (!updated.ok) {
    return { status: 'error', message: updated.message, fieldErrors: updated.fieldErrors, values };
  }
  await logActivity({
    actor: member,
    action: 'template.update',
    summary: `Changed the template “${updated.template.name}”`,
    changes: { before: updated.before.template, after: updated.template.template },
  });
  revalidatePath(LIST);
  revalidatePath(`${LIST}/${updated.template.id}`);
  return {
    status: 'success',
    message: `Saved “${updated.template.name}”. Plan it on thermostats to see what it would change.`,
    values: templateFormValues(updated.template.template, member.temperatureUnit).values,
  };
}

/** Deletes a template (bound to its id; behind a confirmation on the page). */
export async function deleteTemplateAction(templateId: string, _form: FormData): Promise<void> {
  const opened = await openAction('manage_templates');
  if (!opened.ok)
    redirect(await refusedTo(`${LIST}/${encodeURIComponent(String(templateId))}`, opened));
  const { member } = opened;
  const deleted = await deleteTemplate({ member, templateId });
  if (!deleted.ok) redirect(await refusedTo(LIST, deleted));
  await logActivity({
    actor: member,
    action: 'template.delete',
    summary: `Deleted the template “${deleted.template.name}”`,
    changes: { before: deleted.template.template, after: null },
  });
  revalidatePath(LIST);
  redirect(withNotice(LIST, member, 'templateDeleted', { name: deleted.template.name }));
}
