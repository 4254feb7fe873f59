'use server';

import { revalidatePath } from 'next/cache';
import { logActivity } from '@/lib/activity';
import { requireUser } from '@/lib/auth/session';
import type { PublicUser } from '@/lib/db/queries';
import { type FormState, fieldErrorsOf } from '@/lib/forms';
import { ownedThermostat } from '@/lib/portfolio/guard';
import { describeUsage } from '@/lib/schedule/blocks';
import { loadComfortRules, loadWeek } from '@/lib/schedule/load';
import {
  COMFORT_FIELDS,
  type ComfortSettingField,
  changedFields,
  comfortSettingFormSchema,
  comfortSettingSchema,
  formValues,
} from '@/lib/schedule/schemas';
import { describeServiceError, ServiceError } from '@/lib/thermostat-api/errors';
import {
  createComfortSetting,
  deleteComfortSetting,
  listComfortSettings,
  updateComfortSetting,
} from '@/lib/thermostat-api/resources';

type ComfortFormState = FormState<ComfortSettingField>;

const NOT_YOURS = {
  status: 'error',
  message: 'That thermostat is not in your portfolio.',
} as const;

/** A failed write as the form shows it: the service's field errors under their fields. */
function failure(
  error: unknown,
  values: Partial<Record<ComfortSettingField, string>>,
): ComfortFormState {
  if (error instanceof ServiceError && error.kind === 'validation') {
    const fieldErrors: Partial<Record<ComfortSettingField, string[]>> = {};
    const other: string[] = [];
    for (const [path, message] of Object.entries(error.fieldErrors)) {
      const field = path.split('.')[0] as ComfortSettingField;
      if (COMFORT_FIELDS.includes(field))
        fieldErrors[field] = [...(fieldErrors[field] ?? []), message];
      else other.push(message);
    }
    return {
      status: 'error',
      message: ['The service did not accept these values; nothing was changed.', ...other].join(
        ' ',
      ),
      fieldErrors,
      values,
    };
  }
  return {
    status: 'error',
    message: `${describeServiceError(error)} Nothing was changed.`,
    values,
  };
}

/**
 * The checks in order: the form's own (no service call), then the thermostat's rules, read
 * from the service (ranges, minimum gap, the names of its other settings).
 */
async function validate(
  user: PublicUser,
  thermostatId: string,
  form: FormData,
  editingRef?: string,
) {
  const values = formValues(form, COMFORT_FIELDS);
  const basic = comfortSettingFormSchema.safeParse(values);
  if (!basic.success) return { ok: false as const, state: invalid(basic.error, values) };
  const { rules, settings } = await loadComfortRules({ userId: user.id, thermostatId });
  const current = editingRef
    ? settings.find((setting) => setting.comfortSettingRef === editingRef)
    : undefined;
  if (editingRef && !current)
    return {
      ok: false as const,
      state: {
        status: 'error',
        message: 'That comfort setting no longer exists.',
      } as ComfortFormState,
    };
  const full = comfortSettingSchema({
    ...rules,
    unit: user.temperatureUnit,
    others: settings,
    current,
  }).safeParse(values);
  if (!full.success) return { ok: false as const, state: invalid(full.error, values) };
  return { ok: true as const, setting: full.data, current, values };
}

function invalid(
  error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> },
  values: Partial<Record<ComfortSettingField, string>>,
): ComfortFormState {
  return {
    status: 'error',
    message: 'Check the highlighted fields. Nothing was sent.',
    fieldErrors: fieldErrorsOf<ComfortSettingField>(error),
    values,
  };
}

function revalidate(thermostatId: string) {
  revalidatePath(`/thermostats/${thermostatId}/comfort-settings`);
  revalidatePath(`/thermostats/${thermostatId}/schedule`);
}

export async function createComfortSettingAction(
  thermostatId: string,
  _previous: ComfortFormState,
  form: FormData,
): Promise<ComfortFormState> {
  const user = await requireUser();
  const thermostat = await ownedThermostat(user, thermostatId);
  if (!thermostat) return NOT_YOURS;
  const label = thermostat.unitLabel || thermostat.thermostatId;
  let checked: Awaited<ReturnType<typeof validate>>;
  try {
    checked = await validate(user, thermostat.thermostatId, form);
  } catch (error) {
    const values = formValues(form, COMFORT_FIELDS);
    // The thermostat's rules could not be read: asked for and not made, so logged as failed.
    await logActivity({
      user,
      action: 'comfort_setting.create',
      thermostatId: thermostat.thermostatId,
      buildingId: thermostat.buildingId,
      changes: { requested: values },
      summary: `Failed: create comfort setting ${values.name ?? ''} on ${label}`,
      error,
    });
    return failure(error, values);
  }
  if (!checked.ok) return checked.state;
  const what = {
    action: 'comfort_setting.create',
    thermostatId: thermostat.thermostatId,
    buildingId: thermostat.buildingId,
    changes: { ...checked.setting },
  };
  const summary = `Created comfort setting ${checked.setting.name} on ${label}`;
  try {
    const created = await createComfortSetting({
      userId: user.id,
      thermostatId: thermostat.thermostatId,
      setting: checked.setting,
    });
    await logActivity({
      user,
      ...what,
      changes: { ...what.changes, comfortSettingRef: created.comfortSettingRef },
      summary: `${summary} (${created.comfortSettingRef})`,
    });
  } catch (error) {
    await logActivity({ user, ...what, summary: `Failed: ${summary}`, error });
    return failure(error, checked.values);
  }
  revalidate(thermostat.thermostatId);
  return { status: 'success', message: `Created ${checked.setting.name}.` };
}

export async function updateComfortSettingAction(
  thermostatId: string,
  comfortSettingRef: string,
  _previous: ComfortFormState,
  form: FormData,
): Promise<ComfortFormState> {
  const user = await requireUser();
  const thermostat = await ownedThermostat(user, thermostatId);
  if (!thermostat) return NOT_YOURS;
  const label = thermostat.unitLabel || thermostat.thermostatId;
  let checked: Awaited<ReturnType<typeof validate>>;
  try {
    checked = await validate(user, thermostat.thermostatId, form, comfortSettingRef);
  } catch (error) {
    const values = formValues(form, COMFORT_FIELDS);
    // The thermostat's rules could not be read: asked for and not made, so logged as failed.
    await logActivity({
      user,
      action: 'comfort_setting.update',
      thermostatId: thermostat.thermostatId,
      buildingId: thermostat.buildingId,
      changes: { comfortSettingRef, requested: values },
      summary: `Failed: change comfort setting ${comfortSettingRef} on ${label}`,
      error,
    });
    return failure(error, values);
  }
  if (!checked.ok) return checked.state;
  const current = checked.current;
  if (!current) return { status: 'error', message: 'That comfort setting no longer exists.' };
  const changes = changedFields(current, checked.setting);
  if (Object.keys(changes).length === 0)
    return { status: 'success', message: 'No changes to save.', values: checked.values };
  const what = {
    action: 'comfort_setting.update',
    thermostatId: thermostat.thermostatId,
    buildingId: thermostat.buildingId,
    changes: { comfortSettingRef, ...changes },
  };
  const summary = `Changed comfort setting ${current.name} (${comfortSettingRef}) on ${label}`;
  try {
    await updateComfortSetting({
      userId: user.id,
      thermostatId: thermostat.thermostatId,
      comfortSettingRef,
      changes,
    });
    await logActivity({ user, ...what, summary });
  } catch (error) {
    await logActivity({ user, ...what, summary: `Failed: ${summary}`, error });
    return failure(error, checked.values);
  }
  revalidate(thermostat.thermostatId);
  return { status: 'success', message: `Saved ${checked.setting.name}.`, values: checked.values };
}

export async function deleteComfortSettingAction(
  thermostatId: string,
  comfortSettingRef: string,
  _name: string,
  _previous: FormState,
  _form: FormData,
): Promise<FormState> {
  const user = await requireUser();
  const thermostat = await ownedThermostat(user, thermostatId);
  if (!thermostat) return NOT_YOURS;
  // Only one of this thermostat's settings, by the name it has there: a forged ref or name
  // (another thermostat's, anything) never reaches the service as a delete.
  let setting: { name: string } | undefined;
  try {
    const settings = await listComfortSettings({
      userId: user.id,
      thermostatId: thermostat.thermostatId,
    });
    setting = settings.find((candidate) => candidate.comfortSettingRef === comfortSettingRef);
  } catch (error) {
    return { status: 'error', message: `${describeServiceError(error)} Nothing was changed.` };
  }
  if (!setting) return { status: 'error', message: 'That comfort setting no longer exists.' };
  const { name } = setting;
  const label = thermostat.unitLabel || thermostat.thermostatId;
  const what = {
    action: 'comfort_setting.delete',
    thermostatId: thermostat.thermostatId,
    buildingId: thermostat.buildingId,
    changes: { comfortSettingRef },
  };
  const summary = `Deleted comfort setting ${comfortSettingRef} on ${label}`;
  try {
    await deleteComfortSetting({
      userId: user.id,
      thermostatId: thermostat.thermostatId,
      comfortSettingRef,
    });
  } catch (error) {
    await logActivity({ user, ...what, summary: `Failed: ${summary}`, error });
    const refusal =
      error instanceof ServiceError && error.kind === 'validation'
        ? error.fieldErrors.comfortSettingRef
        : undefined;
    if (refusal === undefined) return { status: 'error', message: describeServiceError(error) };
    // Say where the schedule uses it, so the manager knows what to change first.
    const usage = await loadWeek({ userId: user.id, thermostatId: thermostat.thermostatId }).then(
      ({ week }) => describeUsage(week, comfortSettingRef),
      () => [],
    );
    return {
      status: 'error',
      message: usage.length
        ? `${name} cannot be deleted: the schedule uses it on ${usage.join('; ')}. Assign another comfort setting to those times first.`
        : `${name} cannot be deleted. ${refusal}`,
    };
  }
  await logActivity({ user, ...what, summary });
  revalidate(thermostat.thermostatId);
  return { status: 'success', message: `Deleted ${name}.` };
}
