import { Notice } from '@/components/ui/notice';
import { ROLE_NAMES } from '@/lib/auth/permissions';
import type { Role } from '@/lib/auth/permissions';

/** Said once on a thermostat's page to a member whose role may look but not change it. */
export function ReadOnlyNotice({ role }: { role: Role }) {
  return (
    <Notice tone="info">
      You can see this thermostat but not change it: your role is {ROLE_NAMES[role].toLowerCase()}.
      An owner or admin can change your role on the Members page.
    </Notice>
  );
}
