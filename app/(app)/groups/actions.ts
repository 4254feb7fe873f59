'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { formStrings, openAction, refusedTo } from '@/lib/access/actions';
import type { FormState } from '@/lib/platform/forms';
import { withNotice } from '@/lib/platform/notice';
import {
  groupInputFromForm,
  removeGroup,
  saveGroupChange,
  saveNewGroup,
} from '@/lib/groups/manage';
import type { GroupField } from '@/lib/groups/schema';

const PAGE = '/groups';

/** What the form posted, to refill it (lists comma-joined; nothing secret is posted). */
function refill(form: FormData): Partial<Record<GroupField, string>> {
  const joined = (name: string) =>
    form
      .getAll(name)
      .filter((value): value is string => typeof value === 'string')
      .join(',');
  return {
    ...formStrings(form, ['name', 'kind', 'label', 'connection', 'resident']),
    thermostatIds: joined('thermostatIds'),
    buildingIds: joined('buildingIds'),
    attention: joined('attention'),
  };
}

/** A new group, hand-picked or a saved filter; its page follows. Owners and admins only. */
export async function createGroupAction(
  _previous: FormState<GroupField>,
  form: FormData,
): Promise<FormState<GroupField>> {
  const opened = await openAction('manage_groups');
  if (!opened.ok) return opened.state;
  const { member } = opened;
  const values = refill(form);
  const read = await groupInputFromForm(member, form);
  if (!read.ok) return { status: 'error', message: read.message, values };
  const saved = await saveNewGroup({ member, input: read.input });
  if (!saved.ok) {
    const selected = read.input.thermostatIds;
    // Whole buildings ticked without JavaScript come back as their thermostats.
    const thermostatIds = Array.isArray(selected) ? selected.join(',') : values.thermostatIds;
    return { ...saved.state, values: { ...values, thermostatIds } };
  }
  revalidatePath(PAGE);
  redirect(
    withNotice(`${PAGE}/${saved.group.id}`, member, 'groupCreated', { name: saved.group.name }),
  );
}

/** Renames a group and changes its thermostats or its filter (bound to its id by the page). */
export async function changeGroupAction(
  groupId: string,
  _previous: FormState<GroupField>,
  form: FormData,
): Promise<FormState<GroupField>> {
  const opened = await openAction('manage_groups');
  if (!opened.ok) return opened.state;
  const { member } = opened;
  const values = refill(form);
  const read = await groupInputFromForm(member, form);
  if (!read.ok) return { status: 'error', message: read.message, values };
  const saved = await saveGroupChange({ member, groupId, input: read.input });
  if (!saved.ok) return { ...saved.state, values };
  revalidatePath(PAGE);
  revalidatePath(`${PAGE}/${saved.group.id}`);
  const count = `${saved.count} thermostat${saved.count === 1 ? '' : 's'}`;
  return { status: 'success', message: `Saved “${saved.group.name}”: ${count} now.`, values };
}

/** Deletes a group (confirmed on its page); the list says so. */
export async function deleteGroupAction(groupId: string): Promise<void> {
  const opened = await openAction('manage_groups');
  const here = `${PAGE}/${encodeURIComponent(groupId)}`;
  if (!opened.ok) redirect(await refusedTo(here, opened));
  const { member } = opened;
  const removed = await removeGroup({ member, groupId });
  if (!removed.ok) {
    redirect(removed.reason === 'not_found' ? PAGE : await refusedTo(here, removed));
  }
  revalidatePath(PAGE);
  redirect(withNotice(PAGE, member, 'groupDeleted', { name: removed.group.name }));
}
