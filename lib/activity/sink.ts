import 'server-only';
import type { ActivityAction } from '@/lib/activity/actions';
import { type NewActivityEntry, recordActivity } from '@/lib/activity/store';
import { logWarning } from '@/lib/platform/log';
import { connectionEndChanges, onConnectionEnded } from '@/lib/service/connection/ended';
import { ServiceError } from '@/lib/service/errors';

/** Who an entry is by: a member acting in their organisation, or Setpoint itself (no user). */
export type Actor = { orgId: string; userId: string | null; name: string };

/**
 * Records a write made through Setpoint, or a membership or connection event, in the
 * organisation's activity log. `changes` must never carry a passcode or a token: callers pass
 * what changed in words and values (a passcode only as "changed"). A failure to record is
 * logged, never thrown over the member's result.
 */
export async function logActivity(input: {
  actor: Actor;
  action: ActivityAction;
  summary: string;
  thermostatId?: string | null;
  buildingId?: string | null;
  changes?: Record<string, unknown>;
  error?: unknown;
}): Promise<void> {
  const failed = input.error !== undefined;
  const service = input.error instanceof ServiceError ? input.error : null;
  const unconfirmed = service?.kind === 'unconfirmed';
  const entry: NewActivityEntry = {
    orgId: input.actor.orgId,
    userId: input.actor.userId,
    actorName: input.actor.name,
    action: input.action,
    summary: input.summary,
    thermostatId: input.thermostatId ?? null,
    buildingId: input.buildingId ?? null,
    changes: input.changes ?? {},
    outcome: unconfirmed ? 'unconfirmed' : failed ? 'failure' : 'success',
    serviceStatus: service?.status ?? null,
    error: failed ? (service ? service.kind : 'internal_error') : null,
  };
  try {
    await recordActivity(entry);
  } catch (error) {
    logWarning(`could not record activity ${input.action}`, String(error));
  }
}

/** Said after a write's words where its answer was lost and reading it back showed it applied. */
export const READ_BACK_NOTE =
  '(the service did not confirm it; reading the thermostat back shows it took effect)';

/**
 * Records a write to the service as it came out: done (`written`, perhaps settled by reading it
 * back), failed, or, where its answer was lost and nothing settled it, perhaps applied. `done` is
 * how a success reads ("Moved Unit 4 to Tower B"), `asked` what was asked ("move Unit 4 to
 * Tower B").
 */
export async function logWrite(
  input: Omit<Parameters<typeof logActivity>[0], 'summary' | 'error'> & {
    done: string;
    asked: string;
    result: { written: { readBack: boolean } } | { error: unknown };
  },
): Promise<void> {
  const { done, asked, result, ...entry } = input;
  if ('written' in result) {
    const summary = result.written.readBack ? `${done} ${READ_BACK_NOTE}` : done;
    await logActivity({ ...entry, summary });
    return;
  }
  const { error } = result;
  const unconfirmed = error instanceof ServiceError && error.kind === 'unconfirmed';
  const summary = unconfirmed
    ? `May have been applied: ${asked} (the service did not confirm it)`
    : `Failed to ${asked}`;
  await logActivity({ ...entry, summary, error });
}

/**
 * From now on, a connection the service ends is written in the activity log, once, by Setpoint:
 * its reason kept (the refresh's error text, the service's code, stays with the connection for
 * the server's records, never in the log members read). Called at start-up by every process
 * that calls the service (lib/jobs/start-up.ts, scripts/worker.ts).
 */
export function logConnectionEnds(): void {
  onConnectionEnded((orgId, reason) =>
    logActivity({
      actor: { orgId, userId: null, name: 'Setpoint' },
      action: 'connection.end',
      summary: 'The thermostat service ended the connection; an owner or admin must reconnect',
      changes: connectionEndChanges(reason),
      error: new ServiceError('reconnect'),
    }),
  );
}
