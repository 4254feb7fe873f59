import 'server-only';
import { serviceFailure } from '@/lib/access/actions';
import { logActivity } from '@/lib/activity/sink';
import type { Member } from '@/lib/auth/store';
import type { FormState } from '@/lib/platform/forms';
import { replaceThermostat } from '@/lib/portfolio/units';
import { storeStatus } from '@/lib/readings/read';
import { ServiceError } from '@/lib/service/errors';
import { getStatus } from '@/lib/service/resources';
import { thermostatIdSchema } from '@/lib/service/schemas';
import { STATE_WORDS } from './lifecycle';
import { hasUnfinishedRun } from '@/lib/runs/store';
import { settleArrival } from './arrivals';
import type { Unit } from './store';

/**
 * Replacing a unit's thermostat (a failed one swapped, or a first one installed in a unit left
 * empty): the new id checked with the service first, then the swap in one transaction
 * (lib/portfolio/units.ts), its first reading kept, and an activity entry. The unit's history,
 * occupancy, timeline and groups continue; the old thermostat leaves the portfolio, and the new
 * one is put in the unit's state's settings as one run (lib/units/arrivals.ts; not while a run is at
 * the old one). The action
 * opens the unit (session, scope, `manage_portfolio`) before this.
 */

export type ReplaceState = FormState<'thermostatId'>;

export async function replaceUnitThermostat(input: {
  member: Member;
  unit: Unit;
  thermostatId: unknown;
}): Promise<ReplaceState> {
  const { member, unit } = input;
  const values = { thermostatId: typeof input.thermostatId === 'string' ? input.thermostatId : '' };
  const refuse = (message: string): ReplaceState => ({
    status: 'error',
    message: 'Check the highlighted field; nothing was changed.',
    fieldErrors: { thermostatId: [message] },
    values,
  });
  const parsed = thermostatIdSchema.safeParse(values.thermostatId.trim());
  if (!parsed.success) return refuse('Enter the new thermostat’s id: 12 digits.');
  const thermostatId = parsed.data;
  if (thermostatId === unit.thermostatId) return refuse('This thermostat is already in the unit.');

  // Not while a run is putting the old one in the unit's settings: it would go on against a
  // thermostat that has left.
  if (
    await hasUnfinishedRun({
      orgId: member.orgId,
      kind: 'occupancy',
      key: 'unitId',
      subject: unit.id,
    })
  ) {
    return {
      status: 'error',
      message:
        'The thermostat in this unit is being put in its settings; replace it once that run ends (the unit’s page follows it). Nothing was changed.',
      values,
    };
  }

  let status: Awaited<ReturnType<typeof getStatus>>;
  try {
    status = await getStatus({ orgId: member.orgId, priority: 'interactive', thermostatId });
  } catch (error) {
    if (
      error instanceof ServiceError &&
      (error.kind === 'not_found' || error.kind === 'forbidden')
    ) {
      return refuse('The service does not know this thermostat, or your account may not see it.');
    }
    return serviceFailure(error, { values });
  }

  const replaced = await replaceThermostat({ orgId: member.orgId, unitId: unit.id, thermostatId });
  if (!replaced.ok) {
    switch (replaced.reason) {
      case 'taken':
        return refuse('This thermostat is already in your portfolio, in another unit.');
      case 'same':
        return refuse('This thermostat is already in the unit.');
      case 'moving':
        return {
          status: 'error',
          message:
            'The thermostat in this unit is being moved to another building; wait for the move to end. Nothing was changed.',
          values,
        };
      case 'missing':
        return { status: 'error', message: 'That unit is not in your portfolio.' };
    }
  }
  await storeStatus({ orgId: member.orgId, thermostatId, status });
  const old = replaced.replaced;
  await logActivity({
    actor: { orgId: member.orgId, userId: member.userId, name: member.name },
    action: 'unit.replace_thermostat',
    summary: old
      ? `Replaced the thermostat of ${unit.label}: ${old} by ${thermostatId}`
      : `Put thermostat ${thermostatId} in ${unit.label}`,
    thermostatId,
    buildingId: unit.buildingId,
    changes: { unitId: unit.id, thermostat: { from: old ?? 'none', to: thermostatId } },
  });
  // The new thermostat is put in the unit's state's settings, as the old one was.
  const runId = await settleArrival({ by: member, unitId: unit.id });
  const state = STATE_WORDS[unit.occupancy.state].toLowerCase();
  const settled = runId ? ` It is being put in the unit’s ${state} settings.` : '';
  return {
    status: 'success',
    message: old
      ? `Replaced: ${thermostatId} is in ${unit.label}, and ${old} has left the portfolio. Its history continues.${settled}`
      : `${thermostatId} is in ${unit.label}.${settled}`,
  };
}
