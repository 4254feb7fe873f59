import 'server-only';
import { notYours } from '@/lib/access/not-yours';
import { can, type Permission, refusal } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import type { Member } from '@/lib/auth/store';
import type { Building, ScopedThermostat } from '@/lib/portfolio/store';
import type { ThermostatKey } from '@/lib/db/scope';
import type { FormState } from '@/lib/platform/forms';
import { withNotice } from '@/lib/platform/notice';
import { scopedBuilding, scopedThermostat } from '@/lib/portfolio/guard';
import { changedNothing, describeServiceError, ServiceError } from '@/lib/service/errors';

/**
 * How every server action opens, in one place: the session (actions are public endpoints), the
 * record it names (bound by the server page, so it can be forged, never trusted), the member's
 * role and buildings, and the one answer for each refusal. All of it before any service call or
 * write. Action bodies stay explicit: these are helpers, not a framework.
 *
 *   const opened = await openThermostat(thermostatId);
 *   if (!opened.ok) return opened.state;
 *   const { member, thermostat, on } = opened; // `on`: the key the service calls take
 */

export type Refused = { ok: false; state: FormState<never> & { message: string } };
const refused = (message: string): Refused => ({ ok: false, state: { status: 'error', message } });

/**
 * Where an action that answers with a redirect (a delete behind a confirmation, posted without
 * JavaScript too) sends a member it refused: `path`, saying why in the one "not allowed" notice.
 */
export async function refusedTo(path: string, why: Refused | { message: string }): Promise<string> {
  const refusal = 'state' in why ? why.state.message : why.message;
  return withNotice(path, await requireMember(), 'notAllowed', { refusal });
}

/** An action that needs a permission but no particular record. */
export async function openAction(
  permission: Permission,
): Promise<{ ok: true; member: Member } | Refused> {
  const member = await requireMember();
  if (!can(member, permission)) return refused(refusal(member.role, permission));
  return { ok: true, member };
}

/**
 * An action on the member's own account (their email settings, leaving the organisation): every
 * member may, whatever their role, even a building manager with no buildings yet.
 */
export async function openOwnAction(): Promise<Member> {
  return requireMember();
}

/** An action on one thermostat in the member's scope, which they may change. */
export async function openThermostat(
  thermostatId: unknown,
  permission: Permission = 'change_thermostat',
): Promise<
  { ok: true; member: Member; thermostat: ScopedThermostat; on: ThermostatKey } | Refused
> {
  const opened = await openRecord(
    thermostatId,
    permission,
    scopedThermostat,
    notYours('thermostat'),
  );
  if (!opened.ok) return opened;
  const { member, record: thermostat } = opened;
  // `on`: the key the service calls take.
  return {
    ok: true,
    member,
    thermostat,
    on: { orgId: member.orgId, thermostatId: thermostat.thermostatId },
  };
}

/** An action on one building in the member's scope. */
export async function openBuilding(
  buildingId: unknown,
  permission: Permission = 'manage_building',
): Promise<{ ok: true; member: Member; building: Building } | Refused> {
  const opened = await openRecord(buildingId, permission, scopedBuilding, notYours('building'));
  return opened.ok ? { ok: true, member: opened.member, building: opened.record } : opened;
}

/** The session, the record in the member's scope ("not yours" otherwise), then the role. */
export async function openRecord<Found extends { buildingId: string }>(
  id: unknown,
  permission: Permission,
  find: (member: Member, id: unknown) => Promise<Found | null>,
  notYours: string,
): Promise<{ ok: true; member: Member; record: Found } | Refused> {
  const member = await requireMember();
  const record = await find(member, id);
  if (!record) return refused(notYours);
  if (!can(member, permission, record)) return refused(refusal(member.role, permission));
  return { ok: true, member, record };
}

/**
 * A failed service call as a form shows it: the service's field errors under the form's fields
 * (`fieldOf` names the form field for a service field path, or null to say it above the form),
 * anything else as the one sentence for its kind, saying that nothing was changed only when that
 * is known (not after a timeout, when the write may have landed).
 */
export function serviceFailure<Field extends string>(
  error: unknown,
  options: {
    values?: Partial<Record<Field, string>>;
    fieldOf?: (servicePath: string) => Field | null;
  } = {},
): FormState<Field> {
  const { values } = options;
  if (!(error instanceof ServiceError) || error.kind !== 'validation') {
    const unchanged = changedNothing(error) ? ' Nothing was changed.' : '';
    return { status: 'error', message: `${describeServiceError(error)}${unchanged}`, values };
  }
  const fieldErrors: Partial<Record<Field, string[]>> = {};
  const unplaced: string[] = [];
  for (const [path, message] of Object.entries(error.fieldErrors)) {
    const field = options.fieldOf?.(path) ?? null;
    if (field) fieldErrors[field] = [...(fieldErrors[field] ?? []), message];
    else unplaced.push(message);
  }
  return {
    status: 'error',
    message: ['The service did not accept these values; nothing was changed.', ...unplaced].join(
      ' ',
    ),
    fieldErrors,
    values,
  };
}

/**
 * The named fields of a submitted form as strings ('' when absent or not text), for refilling
 * the form. Validate the raw `form.get` values, not these: a file where text belongs must fail
 * validation rather than read as "".
 */
export function formStrings<Field extends string>(
  form: FormData,
  fields: readonly Field[],
): Record<Field, string> {
  return Object.fromEntries(
    fields.map((field) => {
      const value = form.get(field);
      return [field, typeof value === 'string' ? value : ''];
    }),
  ) as Record<Field, string>;
}
