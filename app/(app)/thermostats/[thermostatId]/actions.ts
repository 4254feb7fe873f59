'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { logActivity } from '@/lib/activity';
import { requireUser } from '@/lib/auth/session';
import {
  findBuilding,
  removeThermostat,
  setTemperatureUnit,
  updateThermostat,
} from '@/lib/db/queries';
import { type FormState, fieldErrorsOf } from '@/lib/forms';
import { ownedThermostat } from '@/lib/portfolio/guard';
import { forgetStatuses, rememberStatus } from '@/lib/portfolio/status-cache';
import { describeServiceError } from '@/lib/thermostat-api/errors';
import { moveThermostat, setResidentMode } from '@/lib/thermostat-api/resources';
import { buildingIdSchema } from '@/lib/thermostat-api/schemas';

const NOT_YOURS: FormState = {
  status: 'error',
  message: 'That thermostat is not in your portfolio.',
};

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
  const user = await requireUser();
  const thermostat = await ownedThermostat(user, thermostatId);
  if (!thermostat) return NOT_YOURS;
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
  const what = {
    action: 'resident_mode',
    thermostatId: thermostat.thermostatId,
    buildingId: thermostat.buildingId,
  };
  const summary = `Turned resident mode ${on ? 'on' : 'off'} for ${thermostat.unitLabel || thermostat.thermostatId}`;
  try {
    const status = await setResidentMode({
      userId: user.id,
      thermostatId: thermostat.thermostatId,
      isResidentMode: on,
    });
    rememberStatus({ userId: user.id, status });
    await logActivity({ user, ...what, summary, changes: { isResidentMode: on } });
  } catch (error) {
    await logActivity({
      user,
      ...what,
      summary: `Failed: ${summary.toLowerCase()}`,
      changes: { isResidentMode: on },
      error,
    });
    return { status: 'error', message: describeServiceError(error) };
  }
  revalidatePath(`/thermostats/${thermostat.thermostatId}`);
  return {
    status: 'success',
    message: on
      ? 'Resident mode is on.'
      : 'Resident mode is off; the thermostat’s settings were reset to their defaults.',
  };
}

/** Moves the thermostat to another building of the portfolio, at the service and here. */
export async function moveToBuilding(
  thermostatId: string,
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const user = await requireUser();
  const thermostat = await ownedThermostat(user, thermostatId);
  if (!thermostat) return NOT_YOURS;
  const target = buildingIdSchema.safeParse(form.get('buildingId'));
  const building = target.success
    ? await findBuilding({ userId: user.id, buildingId: target.data })
    : null;
  if (!building)
    return { status: 'error', fieldErrors: { buildingId: ['Choose one of your buildings.'] } };
  if (building.buildingId === thermostat.buildingId) {
    return { status: 'error', fieldErrors: { buildingId: ['It is already in that building.'] } };
  }
  const label = thermostat.unitLabel || thermostat.thermostatId;
  const what = {
    action: 'move',
    thermostatId: thermostat.thermostatId,
    buildingId: building.buildingId,
    changes: { buildingId: { from: thermostat.buildingId, to: building.buildingId } },
  };
  try {
    const status = await moveThermostat({
      userId: user.id,
      thermostatId: thermostat.thermostatId,
      buildingId: building.buildingId,
    });
    await updateThermostat({
      userId: user.id,
      thermostatId: thermostat.thermostatId,
      buildingId: building.buildingId,
    });
    rememberStatus({ userId: user.id, status });
    await logActivity({ user, ...what, summary: `Moved ${label} to ${building.name}` });
  } catch (error) {
    await logActivity({
      user,
      ...what,
      summary: `Failed to move ${label} to ${building.name}`,
      error,
    });
    return { status: 'error', message: describeServiceError(error) };
  }
  revalidatePath('/', 'layout');
  return { status: 'success', message: `Moved to ${building.name}.` };
}

const labelSchema = z.string().trim().max(64, 'Use at most 64 characters.');

/** Renames the thermostat in Setpoint (the label is the manager's, not the service's). */
export async function renameThermostat(
  thermostatId: string,
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const user = await requireUser();
  const thermostat = await ownedThermostat(user, thermostatId);
  if (!thermostat) return NOT_YOURS;
  const label = labelSchema.safeParse(form.get('unitLabel') ?? '');
  if (!label.success)
    return {
      status: 'error',
      fieldErrors: { unitLabel: label.error.issues.map((i) => i.message) },
    };
  await updateThermostat({
    userId: user.id,
    thermostatId: thermostat.thermostatId,
    unitLabel: label.data,
  });
  revalidatePath('/', 'layout');
  return { status: 'success', message: 'Saved.', values: { unitLabel: label.data } };
}

/** Takes the thermostat out of the portfolio; the device itself is untouched. */
export async function removeFromPortfolio(thermostatId: string): Promise<void> {
  const user = await requireUser();
  const thermostat = await ownedThermostat(user, thermostatId);
  if (!thermostat) redirect('/');
  await removeThermostat({ userId: user.id, thermostatId: thermostat.thermostatId });
  forgetStatuses({ userId: user.id, thermostatIds: [thermostat.thermostatId] });
  await logActivity({
    user,
    action: 'portfolio.remove',
    thermostatId: thermostat.thermostatId,
    buildingId: thermostat.buildingId,
    summary: `Removed ${thermostat.unitLabel || thermostat.thermostatId} from the portfolio`,
  });
  revalidatePath('/', 'layout');
  redirect(`/buildings/${thermostat.buildingId}`);
}

/** The manager's temperature unit. */
export async function chooseTemperatureUnit(
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const user = await requireUser();
  const unit = z.enum(['F', 'C']).safeParse(form.get('unit'));
  if (!unit.success) return { status: 'error', message: 'Choose °F or °C.' };
  await setTemperatureUnit({ userId: user.id, unit: unit.data });
  revalidatePath('/', 'layout');
  return { status: 'success' };
}
