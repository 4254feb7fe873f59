import type { ReactNode } from 'react';
import { Notice } from '@/components/ui/notice';
import { type Role, refusal } from '@/lib/auth/permissions';

/**
 * A form that changes many thermostats (a bulk change, a template's plan), or what a page shows
 * instead: why this member may not change thermostats, or that there are none to change yet.
 */
export function WhenMayChange({
  mayChange,
  role,
  thermostatCount,
  children,
}: {
  /** `can(member, 'change_thermostat')` */
  mayChange: boolean;
  role: Role;
  thermostatCount: number;
  children: ReactNode;
}) {
  if (!mayChange) {
    return (
      <Notice tone="info">
        {refusal(role, 'change_thermostat').replace(' Nothing was changed.', '')}
      </Notice>
    );
  }
  if (thermostatCount === 0) {
    return <p className="text-sm">Add thermostats to your portfolio first.</p>;
  }
  return children;
}
