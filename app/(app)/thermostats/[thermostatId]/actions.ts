'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { openThermostat, serviceFailure } from '@/lib/access/actions';
import { logActivity, logWrite, READ_BACK_NOTE } from '@/lib/activity/sink';
import { can, refusal } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { setTemperatureUnit, type Member } from '@/lib/auth/store';
import {
  finishMove,
  removeThermostat,
  startMove,
  updateThermostatLabel,
} from '@/lib/portfolio/store';
import { type FormState, fieldErrorsOf } from '@/lib/platform/forms';
import { withNotice } from '@/lib/platform/notice';
import { scopedBuilding } from '@/lib/portfolio/guard';
import { loadWeek } from '@/lib/schedule/load';
import { labelOf } from '@/lib/settings/current';
import { findLastAccessControl } from '@/lib/templates/last-access-control';
import { ServiceError } from '@/lib/service/errors';
import {
  getAlertSettings,
  getSettings,
  listComfortSettings,
  moveThermostat,
  setResidentMode,
  type Written,
} from '@/lib/service/resources';
import { residentModeUndo, type StateBeforeReset } from '@/lib/templates/undo/entries';

const residentModeSchema = z
  .object({
    isResidentMode: z.enum(['on', 'off'], 'Choose to turn resident mode on or off.'),
    confirmReset: z.literal('yes').optional(),
  })
  .refine((values) => values.isResidentMode === 'on' || values.confirmReset === 'yes', {
    path: ['confirmReset'],
    message: 'Confirm that turning resident mode off resets most of the thermostat’s settings.',
  });

/** Turns resident mode on or off; off only with the reset confirmed. */
export async function changeResidentMode(
  thermostatId: string,
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const opened = await openThermostat(thermostatId);
  if (!opened.ok) return opened.state;
  const { member, thermostat } = opened;
  const parsed = residentModeSchema.safeParse({
    isResidentMode: form.get('isResidentMode'),
    confirmReset: form.get('confirmReset') ?? undefined,
  });
  if (!parsed.success) {
    const fieldErrors = fieldErrorsOf(parsed.error);
    // The on/off value is a hidden field with no place of its own for an error: say it above.
    return {
      status: 'error',
      fieldErrors,
      message: fieldErrors.isResidentMode
        ? 'Choose to turn resident mode on or off; nothing was changed.'
        : 'Nothing was changed.',
    };
  }

  const on = parsed.data.isResidentMode === 'on';
  // Turning it off resets the thermostat's settings: they are read first, so the reset can be
  // undone. A part that cannot be read is only left out of the undo; the member asked for this.
  const before = on ? undefined : await readBeforeReset(opened.on, member);
  const undo = residentModeUndo({ label: labelOf(thermostat), on, before });
  const what = {
    actor: member,
    action: 'resident_mode.update',
    thermostatId: thermostat.thermostatId,
    buildingId: thermostat.buildingId,
    changes: { isResidentMode: on, ...undo },
  } as const;
  const label = thermostat.unitLabel || thermostat.thermostatId;
  const words = {
    done: `Turned resident mode ${on ? 'on' : 'off'} for ${label}`,
    asked: `turn resident mode ${on ? 'on' : 'off'} for ${label}`,
  };
  let readBack: boolean;
  try {
    ({ readBack } = await setResidentMode({ ...opened.on, isResidentMode: on }));
    await logWrite({ ...what, ...words, result: { written: { readBack } } });
  } catch (error) {
    await logWrite({ ...what, ...words, result: { error } });
    return serviceFailure(error);
  }
  // The service answers without the new status: the page reads it again as it is drawn.
  revalidatePath(`/thermostats/${thermostat.thermostatId}`);
  const note = readBack ? ` ${READ_BACK_NOTE.replace(/^\(the/, '(The')}` : '';
  return {
    status: 'success',
    message: on
      ? `Resident mode is on.${note}`
      : `Resident mode is off; the thermostat’s settings were reset to their defaults.${
          undo.undo ? '' : ' Setpoint could not read them first, so the reset cannot be undone.'
        }${note}`,
  };
}

/** Everything turning resident mode off resets, read at once; what fails is left undefined. */
async function readBeforeReset(
  on: { orgId: string; thermostatId: string },
  member: Member,
): Promise<StateBeforeReset> {
  const value = <T>(read: PromiseSettledResult<T>) =>
    read.status === 'fulfilled' ? read.value : undefined;
  const [comfortSettings, week, configuration, alerts, accessControl] = await Promise.allSettled([
    listComfortSettings(on),
    loadWeek(on),
    getSettings(on),
    getAlertSettings(on),
    findLastAccessControl({ scope: member, thermostatId: on.thermostatId }),
  ]);
  return {
    comfortSettings: value(comfortSettings),
    week: value(week)?.week,
    configuration: value(configuration),
    alerts: value(alerts),
    accessControl: value(accessControl) ?? null,
  };
}

/**
 * Moves the thermostat to another building of the portfolio, at the service and here. The member
 * must be allowed to manage both buildings. The move is claimed first, so a second move of the
 * same thermostat made at the same moment sees the first instead of racing it.
 */
export async function moveToBuilding(
  thermostatId: string,
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const opened = await openThermostat(thermostatId, 'manage_building');
  if (!opened.ok) return opened.state;
  const { member, thermostat } = opened;
  const building = await scopedBuilding(member, form.get('buildingId'));
  if (!building)
    return { status: 'error', fieldErrors: { buildingId: ['Choose one of your buildings.'] } };
  if (!can(member, 'manage_building', building))
    return { status: 'error', message: refusal(member.role, 'manage_building') };
  if (building.buildingId === thermostat.buildingId) {
    return { status: 'error', fieldErrors: { buildingId: ['It is already in that building.'] } };
  }
  const claim = {
    orgId: member.orgId,
    thermostatId: thermostat.thermostatId,
    from: thermostat.buildingId,
    to: building.buildingId,
  };
  if (!(await startMove(claim))) {
    return {
      status: 'error',
      message:
        'Someone moved this thermostat (or is moving it) just now; nothing was changed. Reload to see where it is.',
    };
  }
  const label = thermostat.unitLabel || thermostat.thermostatId;
  const what = {
    actor: member,
    action: 'thermostat.move',
    thermostatId: thermostat.thermostatId,
    buildingId: building.buildingId,
    changes: { buildingId: { from: thermostat.buildingId, to: building.buildingId } },
  } as const;
  const words = {
    done: `Moved ${label} to ${building.name}`,
    asked: `move ${label} to ${building.name}`,
  };
  let written: Written<unknown>;
  try {
    written = await moveThermostat({ ...opened.on, buildingId: building.buildingId });
  } catch (error) {
    await finishMove({ ...claim, movedTo: null });
    await logWrite({ ...what, ...words, result: { error } });
    if (error instanceof ServiceError && error.kind === 'unconfirmed') {
      // No read shows a thermostat's building: the move cannot be checked, only made again.
      return {
        status: 'error',
        message: `The service did not confirm the move, and no read shows which building a thermostat is in: it may have moved to ${building.name}. Setpoint still shows it in its old building; moving it again is safe and settles it.`,
      };
    }
    return serviceFailure(error);
  }
  // Moved at the service: recorded here (a failure to record is Setpoint's, not the move's).
  await logWrite({ ...what, ...words, result: { written } });
  await finishMove({ ...claim, movedTo: building.buildingId });
  revalidatePath('/', 'layout');
  return { status: 'success', message: `Moved to ${building.name}.` };
}

const labelSchema = z
  .string('Enter the label as text.')
  .trim()
  .max(64, 'Use at most 64 characters.');

/** Relabels the thermostat in Setpoint (the label is the organisation's, not the service's). */
export async function renameThermostat(
  thermostatId: string,
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const opened = await openThermostat(thermostatId, 'manage_building');
  if (!opened.ok) return opened.state;
  const { member, thermostat } = opened;
  const label = labelSchema.safeParse(form.get('unitLabel') ?? '');
  if (!label.success)
    return {
      status: 'error',
      fieldErrors: { unitLabel: label.error.issues.map((issue) => issue.message) },
    };
  if (label.data !== thermostat.unitLabel) {
    await updateThermostatLabel({
      orgId: member.orgId,
      thermostatId: thermostat.thermostatId,
      unitLabel: label.data,
    });
    await logActivity({
      actor: member,
      action: 'thermostat.rename',
      thermostatId: thermostat.thermostatId,
      buildingId: thermostat.buildingId,
      summary: `Relabelled ${thermostat.unitLabel || thermostat.thermostatId} as ${label.data || 'no label'}`,
      changes: { unitLabel: { from: thermostat.unitLabel, to: label.data } },
    });
  }
  revalidatePath('/', 'layout');
  return { status: 'success', message: 'Saved.', values: { unitLabel: label.data } };
}

/** Takes the thermostat out of the portfolio; the device itself is untouched. */
export async function removeFromPortfolio(thermostatId: string): Promise<void> {
  const opened = await openThermostat(thermostatId, 'manage_portfolio');
  if (!opened.ok) redirect('/');
  const { member, thermostat } = opened;
  await removeThermostat({ orgId: member.orgId, thermostatId: thermostat.thermostatId });
  await logActivity({
    actor: member,
    action: 'portfolio.remove',
    thermostatId: thermostat.thermostatId,
    buildingId: thermostat.buildingId,
    summary: `Removed ${thermostat.unitLabel || thermostat.thermostatId} from the portfolio`,
  });
  revalidatePath('/', 'layout');
  redirect(
    withNotice(`/buildings/${thermostat.buildingId}`, member, 'thermostatRemoved', {
      label: labelOf(thermostat),
    }),
  );
}

/** The member's own temperature unit (a preference: every role may set it). */
export async function chooseTemperatureUnit(
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const member = await requireMember();
  const unit = z.enum(['F', 'C']).safeParse(form.get('unit'));
  if (!unit.success) return { status: 'error', message: 'Choose °F or °C.' };
  await setTemperatureUnit({ userId: member.userId, unit: unit.data });
  revalidatePath('/', 'layout');
  return { status: 'success' };
}
