import 'server-only';
import { findLastRunLocks } from './run-store';
import { listActivity } from '@/lib/activity/store';
import type { Scope } from '@/lib/db/scope';
import { LOCK_AREAS } from '@/lib/service/schemas';
import type { LockArea } from '@/lib/settings/access-control';

export type LastAccessControl = {
  at: Date;
  actorName: string;
  enabled: boolean;
  settings: Record<LockArea, boolean>;
  /** Why this is the state: a save through Setpoint, a template or undo run, or a reset. */
  source: 'saved' | 'run' | 'reset';
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
  const [saved, run] = await Promise.all([
    fromActivity(input),
    findLastRunLocks({ orgId: input.scope.orgId, thermostatId: input.thermostatId }),
  ]);
  if (!run || (saved && saved.at >= run.at)) return saved;
  const enabled = run.changes.enabled === true;
  const settings = (run.changes.settings ?? {}) as Partial<Record<LockArea, unknown>>;
  return {
    at: run.at,
    actorName: run.actorName,
    enabled,
    settings: Object.fromEntries(
      LOCK_AREAS.map((a) => [a, enabled && settings[a] === true]),
    ) as Record<LockArea, boolean>,
    source: 'run',
  };
}

/** What the activity log says: the last save through Setpoint, or a resident-mode reset. */
async function fromActivity(input: {
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
