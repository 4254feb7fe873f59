import 'server-only';
import { notYours } from '@/lib/access/not-yours';
import { openRecord, type Refused } from '@/lib/access/actions';
import type { Permission } from '@/lib/auth/permissions';
import type { Member } from '@/lib/auth/store';
import { unitIdSchema } from './paths';
import { findUnit, type Unit } from './store';

/**
 * An action on one unit, opened as every action is (lib/access/actions.ts): the session, the
 * unit in the member's scope ("not yours" otherwise, a forged id too), then the role.
 */
export async function openUnit(
  unitId: unknown,
  permission: Permission,
): Promise<{ ok: true; member: Member; unit: Unit } | Refused> {
  const opened = await openRecord(
    unitId,
    permission,
    async (member, id) => {
      const parsed = unitIdSchema.safeParse(id);
      return parsed.success ? findUnit({ scope: member, unitId: parsed.data }) : null;
    },
    notYours('unit'),
  );
  return opened.ok ? { ok: true, member: opened.member, unit: opened.record } : opened;
}
