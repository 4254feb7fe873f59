import 'server-only';
import { notYours } from '@/lib/access/not-yours';
import { CHECK_FIELDS } from '@/lib/platform/forms';
import { logActivity } from '@/lib/activity/sink';
import { can, refusal } from '@/lib/auth/permissions';
import type { Member } from '@/lib/auth/store';
import { selectionFromForm } from './selection';
import {
  createGroup,
  deleteGroup,
  findGroup,
  type Group,
  isGroupNameTaken,
  resolveGroup,
  updateGroup,
} from '@/lib/groups/store';
import { listBuildings, listThermostats } from '@/lib/portfolio/store';
import type { FormState } from '@/lib/platform/forms';
import { describeFilter, filterInputFromForm, type GroupFilter, parseStoredFilter } from './filter';
import {
  filterChangeSchema,
  type GroupField,
  groupFieldErrors,
  newGroupSchema,
  pickedChangeSchema,
} from './schema';

/**
 * Creating, changing and deleting groups, with every check in one place before any write: the
 * role (`manage_groups`: owners and admins), the input (lib/groups/schema.ts), a name no other
 * group of the organisation has (ignoring case), hand-picked thermostats all in the member's
 * scope, a filter's buildings too; then the write and its activity entry. The server actions
 * open the session and call these; the pages only decide what to offer.
 */

export const NAME_TAKEN = 'Another group has this name; choose another.';

export type GroupOutcome =
  | { ok: true; group: Group; count: number }
  | { ok: false; state: FormState<GroupField> };

const refused = (state: FormState<GroupField>): GroupOutcome => ({ ok: false, state });
const checkFields = (fieldErrors: Partial<Record<GroupField, string[]>>) =>
  refused({ status: 'error', message: CHECK_FIELDS.replace('sent', 'saved'), fieldErrors });

/**
 * A group form as posted, as the input the schemas read. The ticked thermostats come as the
 * thermostat picker posts them (single ticks, whole buildings, other groups), expanded within the
 * member's scope; the filter's fields as filterInputFromForm reads them.
 */
export async function groupInputFromForm(
  member: Member,
  form: FormData,
): Promise<{ ok: true; input: Record<string, unknown> } | { ok: false; message: string }> {
  const selection = await selectionFromForm(member, form);
  if (!selection.ok) return selection;
  return {
    ok: true,
    input: {
      kind: form.get('kind') ?? undefined,
      name: form.get('name') ?? undefined,
      thermostatIds: selection.ids,
      filter: filterInputFromForm(form),
    },
  };
}

/** Why these ids cannot be a group's, or null: each must be a thermostat of the member's scope. */
async function outsideScope(member: Member, ids: readonly string[]): Promise<string | null> {
  const found = await listThermostats({ scope: member, thermostatIds: [...ids] });
  const missing = ids.length - found.length;
  if (missing === 0) return null;
  return missing === 1
    ? 'One of these thermostats is not in your portfolio; nothing was saved.'
    : `${missing} of these thermostats are not in your portfolio; nothing was saved.`;
}

/** Why a filter's buildings cannot be used, or null. */
async function buildingsOutsideScope(member: Member, filter: GroupFilter): Promise<string | null> {
  if (!filter.buildingIds) return null;
  const mine = new Set((await listBuildings({ scope: member })).map((b) => b.buildingId));
  return filter.buildingIds.every((id) => mine.has(id))
    ? null
    : 'Choose buildings of your portfolio.';
}

/** A filter in words, with the member's building names. */
export async function filterInWords(member: Member, stored: unknown): Promise<string> {
  const filter = parseStoredFilter(stored);
  if (!filter) return 'A saved filter this version of Setpoint cannot read: it matches nothing.';
  const names = new Map(
    (await listBuildings({ scope: member })).map((b) => [b.buildingId, b.name]),
  );
  return describeFilter(filter, (id) => names.get(id));
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Creates a group (hand-picked or a saved filter) and records it. */
export async function saveNewGroup(input: {
  member: Member;
  input: unknown;
}): Promise<GroupOutcome> {
  const { member } = input;
  if (!can(member, 'manage_groups')) {
    return refused({ status: 'error', message: refusal(member.role, 'manage_groups') });
  }
  const parsed = newGroupSchema.safeParse(input.input);
  if (!parsed.success) return checkFields(groupFieldErrors(parsed.error));
  const group = parsed.data;
  if (await isGroupNameTaken({ scope: member, name: group.name })) {
    return checkFields({ name: [NAME_TAKEN] });
  }
  if (group.kind === 'picked') {
    const outside = await outsideScope(member, group.thermostatIds);
    if (outside) return checkFields({ thermostatIds: [outside] });
  } else {
    const outside = await buildingsOutsideScope(member, group.filter);
    if (outside) return checkFields({ buildingIds: [outside] });
  }
  const created = await createGroup({
    scope: member,
    name: group.name,
    filter: group.kind === 'filter' ? group.filter : null,
    thermostatIds: group.kind === 'picked' ? group.thermostatIds : [],
    updatedByName: member.name,
  });
  // Another request took the name between the check and the write.
  if (!created) return checkFields({ name: [NAME_TAKEN] });
  const count = (await resolveGroup({ scope: member, groupId: created.id }))?.length ?? 0;
  const what =
    group.kind === 'picked'
      ? `hand-picked, ${plural(count, 'thermostat')}`
      : await filterInWords(member, created.filter);
  await logActivity({
    actor: member,
    action: 'group.create',
    summary: `Created the group “${created.name}” (${what})`,
    changes:
      group.kind === 'picked'
        ? { name: created.name, kind: 'hand-picked', thermostats: count }
        : { name: created.name, kind: 'filter', filter: what, matching: count },
  });
  return { ok: true, group: created, count };
}

/**
 * Changes a group: its name and, by its kind, its hand-picked thermostats or its filter. A
 * hand-picked group's members outside the member's scope stay (an owner or admin sees them all).
 */
export async function saveGroupChange(input: {
  member: Member;
  groupId: unknown;
  input: unknown;
}): Promise<GroupOutcome> {
  const { member } = input;
  if (!can(member, 'manage_groups')) {
    return refused({ status: 'error', message: refusal(member.role, 'manage_groups') });
  }
  const current = await findGroup({ scope: member, groupId: input.groupId });
  if (!current) return refused({ status: 'error', message: notYours('group') });
  const handPicked = current.filter === null;
  const raw = (input.input ?? {}) as Record<string, unknown>;
  const parsed = handPicked
    ? pickedChangeSchema.safeParse({ name: raw.name, thermostatIds: raw.thermostatIds })
    : filterChangeSchema.safeParse({ name: raw.name, filter: raw.filter });
  if (!parsed.success) return checkFields(groupFieldErrors(parsed.error));
  const change = parsed.data;
  if (await isGroupNameTaken({ scope: member, name: change.name, exceptGroupId: current.id })) {
    return checkFields({ name: [NAME_TAKEN] });
  }
  if ('thermostatIds' in change) {
    const outside = await outsideScope(member, change.thermostatIds);
    if (outside) return checkFields({ thermostatIds: [outside] });
  } else {
    const outside = await buildingsOutsideScope(member, change.filter);
    if (outside) return checkFields({ buildingIds: [outside] });
  }
  const before = handPicked
    ? new Set((await resolveGroup({ scope: member, groupId: current.id })) ?? [])
    : null;
  const beforeWords = handPicked ? null : await filterInWords(member, current.filter);
  const updated = await updateGroup({
    scope: member,
    groupId: current.id,
    name: change.name,
    filter: 'filter' in change ? change.filter : undefined,
    thermostatIds: 'thermostatIds' in change ? change.thermostatIds : undefined,
    updatedByName: member.name,
  });
  if (!updated.ok) {
    return updated.reason === 'name_taken'
      ? checkFields({ name: [NAME_TAKEN] })
      : refused({ status: 'error', message: notYours('group') });
  }
  const { group } = updated;
  const count = (await resolveGroup({ scope: member, groupId: group.id }))?.length ?? 0;
  const changes: Record<string, unknown> = {};
  if (group.name !== current.name) changes.name = { before: current.name, after: group.name };
  if (before && 'thermostatIds' in change) {
    const after = new Set(change.thermostatIds);
    const added = [...after].filter((id) => !before.has(id));
    const removed = [...before].filter((id) => !after.has(id));
    if (added.length > 0) changes.added = added.length;
    if (removed.length > 0) changes.removed = removed.length;
    changes.thermostats = count;
  } else {
    const afterWords = await filterInWords(member, group.filter);
    if (afterWords !== beforeWords) changes.filter = { before: beforeWords, after: afterWords };
    changes.matching = count;
  }
  await logActivity({
    actor: member,
    action: 'group.update',
    summary:
      group.name === current.name
        ? `Changed the group “${group.name}”`
        : `Changed the group “${current.name}”, now “${group.name}”`,
    changes,
  });
  return { ok: true, group, count };
}

/** Deletes a group (its members go with it; the thermostats stay) and records it. */
export async function removeGroup(input: {
  member: Member;
  groupId: unknown;
}): Promise<
  { ok: true; group: Group } | { ok: false; reason: 'forbidden' | 'not_found'; message: string }
> {
  const { member } = input;
  if (!can(member, 'manage_groups')) {
    return { ok: false, reason: 'forbidden', message: refusal(member.role, 'manage_groups') };
  }
  const group = await deleteGroup({ scope: member, groupId: input.groupId });
  if (!group) return { ok: false, reason: 'not_found', message: notYours('group') };
  await logActivity({
    actor: member,
    action: 'group.delete',
    summary: `Deleted the group “${group.name}”`,
    changes: { name: group.name, kind: group.filter === null ? 'hand-picked' : 'filter' },
  });
  return { ok: true, group };
}
