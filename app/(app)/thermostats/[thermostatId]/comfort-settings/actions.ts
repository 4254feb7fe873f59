'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { formStrings, openThermostat, serviceFailure } from '@/lib/access/actions';
import { CHECK_FIELDS } from '@/lib/platform/forms';
import { logActivity, logWrite, READ_BACK_NOTE } from '@/lib/activity/sink';
import type { Member } from '@/lib/auth/store';
import { loadComfortRules } from '@/lib/comfort/load';
import {
  COMFORT_FIELDS,
  type ComfortSettingField,
  changedFields,
  comfortSettingFormSchema,
  comfortSettingRulesSchema,
} from '@/lib/comfort/schemas';
import type { ScopedThermostat } from '@/lib/portfolio/store';
import { type FormState, fieldErrorsOf } from '@/lib/platform/forms';
import { withNotice } from '@/lib/platform/notice';
import { describeUsage } from '@/lib/schedule/blocks';
import { loadWeek } from '@/lib/schedule/load';
import { labelOf, requestedOf } from '@/lib/settings/current';
import { ServiceError } from '@/lib/service/errors';
import {
  createComfortSetting,
  deleteComfortSetting,
  findComfortSetting,
  updateComfortSetting,
  type Written,
} from '@/lib/service/resources';
import type { ComfortSetting } from '@/lib/service/schemas';
import {
  comfortDeleteUndo,
  comfortUpdateUndo,
  REASONS,
  unavailable,
} from '@/lib/templates/undo/entries';

/** A comfort setting asked for by a ref the thermostat no longer has. */
const GONE = 'That comfort setting no longer exists.';

type ComfortFormState = FormState<ComfortSettingField>;

/** A failed write as the form shows it: the service's field errors under their fields. */
function failure(
  error: unknown,
  values: Partial<Record<ComfortSettingField, string>>,
): ComfortFormState {
  return serviceFailure(error, {
    values,
    fieldOf: (path) => {
      const field = path.split('.')[0] as ComfortSettingField;
      return COMFORT_FIELDS.includes(field) ? field : null;
    },
  });
}

/**
 * The checks in order: the form's own (no service call), then the thermostat's rules, read
 * from the service (ranges, minimum gap, the names of its other settings).
 */
async function validate(member: Member, thermostatId: string, form: FormData, editingRef?: string) {
  const values = formStrings(form, COMFORT_FIELDS);
  const basic = comfortSettingFormSchema.safeParse(values);
  if (!basic.success) return { ok: false as const, state: invalid(basic.error, values) };
  const { rules, settings } = await loadComfortRules({ orgId: member.orgId, thermostatId });
  const current = editingRef
    ? settings.find((setting) => setting.comfortSettingRef === editingRef)
    : undefined;
  if (editingRef && !current)
    return {
      ok: false as const,
      state: {
        status: 'error',
        message: GONE,
      } as ComfortFormState,
    };
  const full = comfortSettingRulesSchema({
    ...rules,
    unit: member.temperatureUnit,
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
    message: CHECK_FIELDS,
    fieldErrors: fieldErrorsOf<ComfortSettingField>(error),
    values,
  };
}

/** The thermostat's rules could not be read: asked for and not made, so logged as failed. */
async function unreadRules(
  { member, thermostat }: { member: Member; thermostat: ScopedThermostat },
  form: FormData,
  error: unknown,
  entry: {
    action: 'comfort_setting.create' | 'comfort_setting.update';
    changes?: Record<string, unknown>;
    summary: (values: Record<ComfortSettingField, string>) => string;
  },
): Promise<ComfortFormState> {
  const values = formStrings(form, COMFORT_FIELDS);
  await logActivity({
    actor: member,
    action: entry.action,
    thermostatId: thermostat.thermostatId,
    buildingId: thermostat.buildingId,
    changes: { ...entry.changes, requested: requestedOf(values, member.temperatureUnit) },
    summary: entry.summary(values),
    error,
  });
  return failure(error, values);
}

/**
 * The checks (`validate`); where the thermostat's rules could not be read, that failure, logged
 * as the action `unread` names (`unreadRules`).
 */
async function check(
  opened: { member: Member; thermostat: ScopedThermostat },
  form: FormData,
  unread: Parameters<typeof unreadRules>[3],
  editingRef?: string,
): Promise<Awaited<ReturnType<typeof validate>> | { ok: false; state: ComfortFormState }> {
  try {
    return await validate(opened.member, opened.thermostat.thermostatId, form, editingRef);
  } catch (error) {
    return { ok: false, state: await unreadRules(opened, form, error, unread) };
  }
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
  const opened = await openThermostat(thermostatId);
  if (!opened.ok) return opened.state;
  const { member, thermostat } = opened;
  const label = labelOf(thermostat);
  const checked = await check(opened, form, {
    action: 'comfort_setting.create',
    summary: (values) => `Failed: create comfort setting ${values.name ?? ''} on ${label}`,
  });
  if (!checked.ok) return checked.state;
  const what = {
    actor: member,
    action: 'comfort_setting.create',
    thermostatId: thermostat.thermostatId,
    buildingId: thermostat.buildingId,
    // Setpoint never deletes through an undo: this one is deleted on its page.
    changes: { ...checked.setting, ...unavailable(REASONS.created) },
  } as const;
  const words = {
    done: `Created comfort setting ${checked.setting.name} on ${label}`,
    asked: `create comfort setting ${checked.setting.name} on ${label}`,
  };
  let readBack: boolean;
  try {
    const written = await createComfortSetting({ ...opened.on, setting: checked.setting });
    readBack = written.readBack;
    await logWrite({
      ...what,
      ...words,
      changes: { ...what.changes, comfortSettingRef: written.answer?.comfortSettingRef ?? null },
      result: { written },
    });
  } catch (error) {
    await logWrite({ ...what, ...words, result: { error } });
    return failure(error, checked.values);
  }
  revalidate(thermostat.thermostatId);
  return {
    status: 'success',
    message: `Created ${checked.setting.name}.${readBack ? ` ${READ_BACK_NOTE}` : ''}`,
  };
}

export async function updateComfortSettingAction(
  thermostatId: string,
  comfortSettingRef: string,
  _previous: ComfortFormState,
  form: FormData,
): Promise<ComfortFormState> {
  const opened = await openThermostat(thermostatId);
  if (!opened.ok) return opened.state;
  const { member, thermostat } = opened;
  const label = labelOf(thermostat);
  const checked = await check(
    opened,
    form,
    {
      action: 'comfort_setting.update',
      changes: { comfortSettingRef },
      summary: () => `Failed: change comfort setting ${comfortSettingRef} on ${label}`,
    },
    comfortSettingRef,
  );
  if (!checked.ok) return checked.state;
  const current = checked.current;
  if (!current) return { status: 'error', message: GONE };
  const changes = changedFields(current, checked.setting);
  if (Object.keys(changes).length === 0)
    return { status: 'success', message: 'No changes to save.', values: checked.values };
  const what = {
    actor: member,
    action: 'comfort_setting.update',
    thermostatId: thermostat.thermostatId,
    buildingId: thermostat.buildingId,
    changes: {
      comfortSettingRef,
      ...changes,
      // The old name, which the changes alone do not tell once it is renamed.
      ...(changes.name !== undefined ? { renamed: { from: current.name, to: changes.name } } : {}),
      // What it replaces was just read (validating it): the entry keeps it for an undo.
      ...comfortUpdateUndo({ label, before: current, changes }),
    },
  } as const;
  const words = {
    done: `Changed comfort setting ${current.name} on ${label}`,
    asked: `change comfort setting ${current.name} on ${label}`,
  };
  let readBack: boolean;
  try {
    const written = await updateComfortSetting({ ...opened.on, comfortSettingRef, changes });
    readBack = written.readBack;
    await logWrite({ ...what, ...words, result: { written } });
  } catch (error) {
    await logWrite({ ...what, ...words, result: { error } });
    return failure(error, checked.values);
  }
  revalidate(thermostat.thermostatId);
  return {
    status: 'success',
    message: `Saved ${checked.setting.name}.${readBack ? ` ${READ_BACK_NOTE}` : ''}`,
    values: checked.values,
  };
}

export async function deleteComfortSettingAction(
  thermostatId: string,
  comfortSettingRef: string,
  _name: string,
  _previous: FormState,
  _form: FormData,
): Promise<FormState> {
  const opened = await openThermostat(thermostatId);
  if (!opened.ok) return opened.state;
  const { member, thermostat } = opened;
  // Only one of this thermostat's settings, by the name it has there: a forged ref or name
  // (another thermostat's, anything) never reaches the service as a delete.
  let setting: ComfortSetting | undefined;
  try {
    setting = await findComfortSetting({ ...opened.on, comfortSettingRef });
  } catch (error) {
    return serviceFailure(error);
  }
  if (!setting) return { status: 'error', message: GONE };
  const { name } = setting;
  const label = labelOf(thermostat);
  const what = {
    actor: member,
    action: 'comfort_setting.delete',
    thermostatId: thermostat.thermostatId,
    buildingId: thermostat.buildingId,
    // Its values, read just now, so the entry can create it again.
    changes: { comfortSettingRef, name, ...comfortDeleteUndo({ label, setting }) },
  } as const;
  const words = {
    done: `Deleted comfort setting ${name} on ${label}`,
    asked: `delete comfort setting ${name} on ${label}`,
  };
  let written: Written<unknown>;
  try {
    written = await deleteComfortSetting({ ...opened.on, comfortSettingRef });
  } catch (error) {
    await logWrite({ ...what, ...words, result: { error } });
    const refusal =
      error instanceof ServiceError && error.kind === 'validation'
        ? error.fieldErrors.comfortSettingRef
        : undefined;
    if (refusal === undefined) return serviceFailure(error);
    // Say where the schedule uses it, so the member knows what to change first.
    const usage = await loadWeek({
      orgId: member.orgId,
      thermostatId: thermostat.thermostatId,
    }).then(
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
  await logWrite({ ...what, ...words, result: { written } });
  revalidate(thermostat.thermostatId);
  // Its card is gone with it: the page says what was deleted.
  redirect(
    withNotice(
      `/thermostats/${thermostat.thermostatId}/comfort-settings`,
      member,
      'comfortSettingDeleted',
      {
        name,
      },
    ),
  );
}
