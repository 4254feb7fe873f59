import 'server-only';
import { serviceFailure } from '@/lib/access/actions';
import { logActivity } from '@/lib/activity/sink';
import type { ActivityAction } from '@/lib/activity/actions';
import type { Member } from '@/lib/auth/store';
import type { ScopedThermostat } from '@/lib/portfolio/store';
import type { ThermostatKey } from '@/lib/db/scope';
import { CHECK_FIELDS, type FormState } from '@/lib/platform/forms';
import { getStatus } from '@/lib/service/resources';
import type { TemperatureUnit } from '@/lib/platform/units';

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
      changes: { requested: requestedOf(values, member.temperatureUnit) },
      error,
    });
    return { ok: false, state: serviceFailure(error, { values }) };
  }
}

/**
 * A settings form's checks before it writes, in their order: the thermostat's current settings
 * read (`readBeforeSave`), the form validated against them (`validate`), and nothing sent when
 * nothing changed. Answers with the current settings and the changes to send, or with the state
 * the form shows now (a failed read, its highlighted fields, or "Nothing changed").
 */
export async function checkBeforeSave<T, Changes extends object, Field extends string>(
  input: Parameters<typeof readBeforeSave<T, Field>>[0] & {
    validate: (read: {
      current: T;
      heatCoolMinDelta: number;
    }) =>
      | { ok: true; changes: Changes }
      | { ok: false; fieldErrors: Partial<Record<Field, string[]>> };
  },
): Promise<{ ok: true; current: T; changes: Changes } | { ok: false; state: FormState<Field> }> {
  const { values } = input;
  const read = await readBeforeSave(input);
  if (!read.ok) return read;
  const result = input.validate(read);
  if (!result.ok) {
    const fieldErrors = result.fieldErrors;
    return { ok: false, state: { status: 'error', message: CHECK_FIELDS, fieldErrors, values } };
  }
  if (Object.keys(result.changes).length === 0) {
    const message = 'Nothing changed, so nothing was sent.';
    return { ok: false, state: { status: 'success', message, values } };
  }
  return { ok: true, current: read.current, changes: result.changes };
}

/** Longer than any value these forms accept (a comfort setting's name takes 32); longer is cut. */
const LONGEST_VALUE = 64;

/**
 * What a member asked for and could not be checked (its thermostat could not be read), as the
 * activity log keeps it: each value as typed, cut to a length no field accepts beyond, and the
 * unit its temperatures were typed in, so that a reader in the other unit reads them right.
 */
export function requestedOf(
  values: Partial<Record<string, string>>,
  unit: TemperatureUnit,
): Record<string, string> {
  const kept = Object.entries(values).flatMap(([field, value]) => {
    const typed = value?.trim() ?? '';
    if (typed === '') return [];
    return [[field, typed.length > LONGEST_VALUE ? `${typed.slice(0, LONGEST_VALUE)}…` : typed]];
  });
  return { ...Object.fromEntries(kept), unit: `°${unit}` };
}

/** How a thermostat is named in messages and the activity log. */
export const labelOf = (thermostat: { unitLabel: string; thermostatId: string }) =>
  thermostat.unitLabel || thermostat.thermostatId;
