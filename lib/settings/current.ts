import 'server-only';
import { serviceFailure } from '@/lib/actions';
import { logActivity } from '@/lib/activity';
import type { ActivityAction } from '@/lib/activity-actions';
import type { Member } from '@/lib/auth/session';
import type { ScopedThermostat, ThermostatKey } from '@/lib/db/queries';
import type { FormState } from '@/lib/forms';
import { getStatus } from '@/lib/thermostat-api/resources';

/**
 * What checking a change needs from the service before anything is written: the thermostat's
 * current settings (`read`), so only changes are sent, and its heat–cool gap. When they cannot be
 * read, the change was asked for and not made: the activity log records that failure like any
 * other, and the form gets the failure's state.
 */
export async function readBeforeSave<T, Field extends string>(input: {
  member: Member;
  thermostat: ScopedThermostat;
  read: (who: ThermostatKey) => Promise<T>;
  action: ActivityAction;
  /** What the member changes, as the log names it ("alert settings", "configuration"). */
  subject: string;
  values: Partial<Record<Field, string>>;
}): Promise<
  { ok: true; current: T; heatCoolMinDelta: number } | { ok: false; state: FormState<Field> }
> {
  const { member, thermostat, values } = input;
  const who = { orgId: member.orgId, thermostatId: thermostat.thermostatId };
  try {
    const [current, status] = await Promise.all([input.read(who), getStatus(who)]);
    return { ok: true, current, heatCoolMinDelta: status.heatCoolMinDelta };
  } catch (error) {
    await logActivity({
      actor: member,
      action: input.action,
      thermostatId: thermostat.thermostatId,
      buildingId: thermostat.buildingId,
      summary: `Failed to change ${input.subject} of ${labelOf(thermostat)} (its current settings could not be read)`,
      changes: { requested: values },
      error,
    });
    return { ok: false, state: serviceFailure(error, { values }) };
  }
}

/** How a thermostat is named in messages and the activity log. */
export const labelOf = (thermostat: { unitLabel: string; thermostatId: string }) =>
  thermostat.unitLabel || thermostat.thermostatId;
