import 'server-only';
import { z } from 'zod';
import { logActivity } from '@/lib/activity/sink';
import type { Member } from '@/lib/auth/store';
import { fieldErrorsOf, type FormState } from '@/lib/platform/forms';
import { listBuildings } from '@/lib/portfolio/store';
import { API_SCOPES, type ApiScope, createApiKey, revokeApiKey } from './keys';

/**
 * API keys as owners and admins make and revoke them on the API keys page: the form checked
 * (a name, at least one scope, every building or some of the organisation's), the key made and
 * shown once, and each an activity entry (never the key). The action checks `manage_api_keys`
 * first.
 */

export const SCOPE_WORDS: Record<ApiScope, string> = {
  read: 'Read units and buildings',
  write_units: 'Record units’ occupancy (move-outs, move-ins, notice)',
  write_thermostats: 'Change thermostats (plan and apply templates)',
};

export type KeyField = 'name' | 'scopes' | 'buildings';
/** The form's state; `secret` once, on the answer that made the key. */
export type KeyFormState = FormState<KeyField>;

const keyFormSchema = (buildingIds: readonly string[]) =>
  z.object({
    name: z
      .string('Name the key.')
      .trim()
      .min(1, 'Name the key, such as the system that will use it.')
      .max(64, 'Use at most 64 characters.'),
    scopes: z
      .array(z.enum(API_SCOPES, 'Choose from the scopes listed.'))
      .min(1, 'Choose at least one scope.'),
    buildings: z.union([
      z.literal('all'),
      z
        .array(
          z
            .string()
            .refine((id) => buildingIds.includes(id), 'Choose buildings of your organisation.'),
        )
        .min(1, 'Choose at least one building, or every building.'),
    ]),
  });

export async function createKeyFromForm(input: {
  member: Member;
  form: FormData;
}): Promise<KeyFormState> {
  const { member, form } = input;
  const buildings = await listBuildings({ scope: member });
  const every = form.get('every') === 'on';
  const chosen = form.getAll('buildingIds');
  const parsed = keyFormSchema(buildings.map((building) => building.buildingId))
    .superRefine((_, ctx) => {
      // Never widened silently: every building, or the ones chosen, said one way.
      if (every && chosen.length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['buildings'],
          message: 'Untick “Every building” to limit the key to the buildings chosen.',
        });
      }
    })
    .safeParse({
      name: form.get('name') ?? undefined,
      scopes: form.getAll('scopes'),
      buildings: every ? 'all' : chosen,
    });
  if (!parsed.success) {
    return {
      status: 'error',
      message: 'Check the highlighted fields; no key was made.',
      fieldErrors: fieldErrorsOf<KeyField>(parsed.error),
      values: { name: String(form.get('name') ?? '').slice(0, 64) },
    };
  }
  const { name, scopes } = parsed.data;
  const buildingIds = parsed.data.buildings === 'all' ? null : [...new Set(parsed.data.buildings)];
  const { key, secret } = await createApiKey({
    orgId: member.orgId,
    name,
    scopes: [...new Set(scopes)],
    buildingIds,
    byName: member.name,
  });
  const where = buildingIds
    ? buildings
        .filter((building) => buildingIds.includes(building.buildingId))
        .map((building) => building.name)
    : ['every building'];
  await logActivity({
    actor: { orgId: member.orgId, userId: member.userId, name: member.name },
    action: 'api_key.create',
    summary: `Made the API key “${name}” (${key.prefix}…) for ${where.join(', ')}`,
    changes: { keyId: key.id, scopes: key.scopes, buildings: where },
  });
  return {
    status: 'success',
    message: 'Key made. Copy it now: Setpoint keeps only a hash, and cannot show it again.',
    secret,
  };
}

export async function revokeKey(input: { member: Member; keyId: unknown }): Promise<FormState> {
  const { member } = input;
  const keyId = z.uuid().safeParse(input.keyId);
  const revoked = keyId.success
    ? await revokeApiKey({ orgId: member.orgId, keyId: keyId.data, byName: member.name })
    : null;
  if (revoked === null) return { status: 'error', message: 'No such key.' };
  if (revoked === false) return { status: 'success', message: 'That key was already revoked.' };
  await logActivity({
    actor: { orgId: member.orgId, userId: member.userId, name: member.name },
    action: 'api_key.revoke',
    summary: `Revoked the API key “${revoked.name}”`,
    changes: { keyId: keyId.data },
  });
  return {
    status: 'success',
    message: `Revoked “${revoked.name}”: it is refused from now on.`,
  };
}
