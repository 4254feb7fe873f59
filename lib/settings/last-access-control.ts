import 'server-only';
import { listActivity, type Scope } from '@/lib/db/queries';
import { LOCK_AREAS } from '@/lib/thermostat-api/schemas';
import type { LockArea } from './access-control';

export type LastAccessControl = {
  at: Date;
  actorName: string;
  enabled: boolean;
  settings: Record<LockArea, boolean>;
  /** Why this is the state: a save through Setpoint, or a resident-mode reset. */
  source: 'saved' | 'reset';
};

/**
 * The service has no read for access control, so the best Setpoint can say is what it last set
 * itself (from the activity log), or that turning resident mode off reset it. Changes made at
 * the device or by another client are invisible to it.
 */
export async function findLastAccessControl(input: {
  scope: Scope;
  thermostatId: string;
}): Promise<LastAccessControl | null> {
  const entries = await listActivity({
    scope: input.scope,
    filter: { thermostatIds: [input.thermostatId] },
    limit: 200,
  });
  for (const entry of entries) {
    if (entry.outcome !== 'success') continue;
    if (entry.action === 'resident_mode.update' && entry.changes.isResidentMode === false) {
      return {
        at: entry.at,
        actorName: entry.actorName,
        enabled: false,
        settings: Object.fromEntries(LOCK_AREAS.map((a) => [a, false])) as Record<
          LockArea,
          boolean
        >,
        source: 'reset',
      };
    }
    if (entry.action === 'access_control.update') {
      const settings = (entry.changes.settings ?? {}) as Partial<Record<LockArea, unknown>>;
      return {
        at: entry.at,
        actorName: entry.actorName,
        enabled: entry.changes.enabled === true,
        settings: Object.fromEntries(
          LOCK_AREAS.map((a) => [a, entry.changes.enabled === true && settings[a] === true]),
        ) as Record<LockArea, boolean>,
        source: 'saved',
      };
    }
  }
  return null;
}
