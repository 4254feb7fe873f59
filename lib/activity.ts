import 'server-only';
import { type NewActivityEntry, type PublicUser, recordActivity } from '@/lib/db/queries';
import { logWarning } from '@/lib/log';
import { ServiceError } from '@/lib/thermostat-api/errors';

/**
 * Records a write made through Setpoint in the activity log. `changes` must never carry a
 * passcode or a token: callers pass what changed in words and values (a passcode only as
 * "changed"). A failure to record is logged, never thrown over the manager's result.
 */
export async function logActivity(input: {
  user: PublicUser;
  action: string;
  summary: string;
  thermostatId?: string | null;
  buildingId?: string | null;
  changes?: Record<string, unknown>;
  error?: unknown;
}): Promise<void> {
  const failed = input.error !== undefined;
  const service = input.error instanceof ServiceError ? input.error : null;
  const entry: NewActivityEntry = {
    userId: input.user.id,
    actorName: input.user.name,
    action: input.action,
    summary: input.summary,
    thermostatId: input.thermostatId ?? null,
    buildingId: input.buildingId ?? null,
    changes: input.changes ?? {},
    outcome: failed ? 'failure' : 'success',
    serviceStatus: service?.status ?? null,
    error: failed ? (service ? service.kind : 'internal_error') : null,
  };
  try {
    await recordActivity(entry);
  } catch (error) {
    logWarning(`could not record activity ${input.action}`, String(error));
  }
}
