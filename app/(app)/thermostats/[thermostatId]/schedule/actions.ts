'use server';

import { revalidatePath } from 'next/cache';
import { logActivity } from '@/lib/activity';
import { requireUser } from '@/lib/auth/session';
import { type FormState, fieldErrorsOf } from '@/lib/forms';
import { ownedThermostat } from '@/lib/portfolio/guard';
import { describeRange } from '@/lib/schedule/blocks';
import {
  type ScheduleRangeField,
  scheduleFieldOf,
  scheduleRangeSchema,
} from '@/lib/schedule/schemas';
import { describeServiceError, ServiceError } from '@/lib/thermostat-api/errors';
import { listComfortSettings, updateSchedule } from '@/lib/thermostat-api/resources';

type ScheduleFormState = FormState<ScheduleRangeField>;

/**
 * One range edit of the weekly schedule (the grid's selection and the plain form both post
 * here): the same comfort setting for blocks `from`..`to` on each of `days`.
 */
export async function applyScheduleRange(
  thermostatId: string,
  _previous: ScheduleFormState,
  form: FormData,
): Promise<ScheduleFormState> {
  const user = await requireUser();
  const thermostat = await ownedThermostat(user, thermostatId);
  if (!thermostat) return { status: 'error', message: 'That thermostat is not in your portfolio.' };

  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  const days = form.getAll('days').filter((day): day is string => typeof day === 'string');
  const input = {
    days,
    from: text('from'),
    to: text('to'),
    comfortSettingRef: text('comfortSettingRef'),
  };
  const values = {
    days: days.join(','),
    from: input.from ?? '',
    to: input.to ?? '',
    comfortSettingRef: input.comfortSettingRef ?? '',
  };
  const parsed = scheduleRangeSchema.safeParse(input);
  if (!parsed.success) {
    return {
      status: 'error',
      message: 'Check the highlighted fields. Nothing was changed.',
      fieldErrors: fieldErrorsOf<ScheduleRangeField>(parsed.error),
      values,
    };
  }

  const { comfortSettingRef, ...range } = parsed.data;
  const label = thermostat.unitLabel || thermostat.thermostatId;
  const summary = `Set ${describeRange(range)} to comfort setting ${comfortSettingRef} on ${label}`;
  const what = {
    action: 'schedule.update',
    thermostatId: thermostat.thermostatId,
    buildingId: thermostat.buildingId,
    changes: { ...range, comfortSettingRef },
  };
  // One of this thermostat's comfort settings (a read), so a made-up or another thermostat's
  // ref is a field error here rather than a write the service refuses.
  let known: boolean;
  try {
    const settings = await listComfortSettings({
      userId: user.id,
      thermostatId: thermostat.thermostatId,
    });
    known = settings.some((setting) => setting.comfortSettingRef === comfortSettingRef);
  } catch (error) {
    // Asked for and not made: the activity log records this failure like any other.
    await logActivity({ user, ...what, summary: `Failed: ${summary}`, error });
    return {
      status: 'error',
      message: `${describeServiceError(error)} The schedule was not changed.`,
      values,
    };
  }
  if (!known) {
    return {
      status: 'error',
      message: 'Check the highlighted fields. Nothing was changed.',
      fieldErrors: { comfortSettingRef: ['Choose one of this thermostat’s comfort settings.'] },
      values,
    };
  }
  try {
    await updateSchedule({
      userId: user.id,
      thermostatId: thermostat.thermostatId,
      range: { ...range, comfortSettingRef },
    });
  } catch (error) {
    await logActivity({ user, ...what, summary: `Failed: ${summary}`, error });
    if (error instanceof ServiceError && error.kind === 'validation') {
      const fieldErrors: Partial<Record<ScheduleRangeField, string[]>> = {};
      const other: string[] = [];
      for (const [path, message] of Object.entries(error.fieldErrors)) {
        const field = scheduleFieldOf(path);
        if (field === 'form') other.push(message);
        else fieldErrors[field] = [...(fieldErrors[field] ?? []), message];
      }
      return {
        status: 'error',
        message: [
          'The service did not accept this change; the schedule was not changed.',
          ...other,
        ].join(' '),
        fieldErrors,
        values,
      };
    }
    return {
      status: 'error',
      message: `${describeServiceError(error)} The schedule was not changed.`,
      values,
    };
  }
  await logActivity({ user, ...what, summary });
  revalidatePath(`/thermostats/${thermostat.thermostatId}/schedule`);
  revalidatePath(`/thermostats/${thermostat.thermostatId}/comfort-settings`);
  return { status: 'success', message: `Saved: ${describeRange(range)}.` };
}
