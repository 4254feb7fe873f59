import { z } from 'zod';
import { thermostatIdSchema } from '@/lib/service/schemas';
import { groupFilterSchema } from './filter';

/**
 * What the group forms post, validated: a new group (hand-picked or a saved filter) and a change
 * to one (its kind stays). Pure, so the actions and the tests use the same schemas.
 */

/**
 * At most this many hand-picked thermostats in one group: as many as one selection may post
 * (lib/bulk/form.ts), twice what one bulk run takes.
 */
export const MAX_GROUP_SIZE = 4000;
export const MAX_NAME_LENGTH = 80;

export const GROUP_KINDS = ['picked', 'filter'] as const;
export type GroupKind = (typeof GROUP_KINDS)[number];

export const groupNameSchema = z
  .string({ error: 'Give the group a name.' })
  .trim()
  .min(1, 'Give the group a name.')
  .max(MAX_NAME_LENGTH, `At most ${MAX_NAME_LENGTH} characters.`);

const pickedSchema = z
  .array(thermostatIdSchema, { error: 'Tick the thermostats to put in the group.' })
  .min(1, 'Tick at least one thermostat.')
  .max(MAX_GROUP_SIZE, `At most ${MAX_GROUP_SIZE.toLocaleString('en-US')} thermostats.`)
  .transform((ids) => [...new Set(ids)]);

export const newGroupSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('picked'), name: groupNameSchema, thermostatIds: pickedSchema }),
    z.object({ kind: z.literal('filter'), name: groupNameSchema, filter: groupFilterSchema }),
  ],
  { error: 'Choose hand-picked thermostats or a saved filter.' },
);
export type NewGroup = z.infer<typeof newGroupSchema>;

export const pickedChangeSchema = z.object({ name: groupNameSchema, thermostatIds: pickedSchema });
export const filterChangeSchema = z.object({ name: groupNameSchema, filter: groupFilterSchema });

/** The fields of the group forms, as their errors are keyed. */
export type GroupField =
  | 'name'
  | 'kind'
  | 'thermostatIds'
  | 'filter'
  | 'buildingIds'
  | 'label'
  | 'connection'
  | 'resident'
  | 'attention';

/** zod's issues keyed by form field: a filter's own fields by their names, the rest by theirs. */
export function groupFieldErrors(error: {
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>;
}): Partial<Record<GroupField, string[]>> {
  const errors: Partial<Record<GroupField, string[]>> = {};
  for (const issue of error.issues) {
    const [first, second] = issue.path;
    const field = (
      first === 'filter' && typeof second === 'string' ? second : String(first ?? 'kind')
    ) as GroupField;
    const messages = errors[field] ?? [];
    if (!messages.includes(issue.message)) errors[field] = [...messages, issue.message];
  }
  return errors;
}
