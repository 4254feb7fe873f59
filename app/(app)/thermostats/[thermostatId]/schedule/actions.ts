'use server';

import { revalidatePath } from 'next/cache';
import { openThermostat, serviceFailure } from '@/lib/access/actions';
import { CHECK_FIELDS } from '@/lib/platform/forms';
import { logActivity, logWrite, READ_BACK_NOTE } from '@/lib/activity/sink';
import { type FormState, fieldErrorsOf } from '@/lib/platform/forms';
import { describeRange } from '@/lib/schedule/blocks';
import { loadWeek } from '@/lib/schedule/load';
import {
  type ScheduleRangeField,
  scheduleFieldOf,
  scheduleRangeSchema,
} from '@/lib/schedule/schemas';
import { labelOf } from '@/lib/settings/current';
import { listComfortSettings, updateSchedule } from '@/lib/service/resources';
import { scheduleUndo, unavailable } from '@/lib/templates/undo/entries';

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
  const opened = await openThermostat(thermostatId);
  if (!opened.ok) return opened.state;
  const { member, thermostat } = opened;

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
      message: CHECK_FIELDS,
      fieldErrors: fieldErrorsOf<ScheduleRangeField>(parsed.error),
      values,
    };
  }

  const { comfortSettingRef, ...range } = parsed.data;
  const label = labelOf(thermostat);
  // The setting by its name once the thermostat's settings are read; by its ref until then.
  const summaryFor = (setting: string) =>
    `Set ${describeRange(range)} to comfort setting ${setting} on ${label}`;
  const what = {
    actor: member,
    action: 'schedule.update',
    thermostatId: thermostat.thermostatId,
    buildingId: thermostat.buildingId,
    changes: { ...range, comfortSettingRef },
  } as const;
  // One of this thermostat's comfort settings (a read), so a made-up or another thermostat's
  // ref is a field error here rather than a write the service refuses. The week it replaces is
  // read beside it, so the entry can be undone; that read failing only costs the undo.
  const [settingsRead, weekRead] = await Promise.allSettled([
    listComfortSettings(opened.on),
    loadWeek(opened.on),
  ]);
  if (settingsRead.status === 'rejected') {
    const error: unknown = settingsRead.reason;
    // Asked for and not made: the activity log records this failure like any other.
    await logActivity({ ...what, summary: `Failed: ${summaryFor(comfortSettingRef)}`, error });
    return serviceFailure(error, { values });
  }
  const settings = settingsRead.value;
  const known = settings.find((setting) => setting.comfortSettingRef === comfortSettingRef);
  if (!known) {
    return {
      status: 'error',
      message: CHECK_FIELDS,
      fieldErrors: { comfortSettingRef: ['Choose one of this thermostat’s comfort settings.'] },
      values,
    };
  }
  const words = {
    done: summaryFor(known.name),
    asked: `set ${describeRange(range)} to comfort setting ${known.name} on ${label}`,
  };
  const undo =
    weekRead.status === 'fulfilled'
      ? scheduleUndo({ label, settings, week: weekRead.value.week, range, comfortSettingRef })
      : unavailable(
          'Its schedule could not be read before the change, so it cannot be undone automatically.',
        );
  const logged = { ...what, changes: { ...what.changes, ...undo } };
  let readBack: boolean;
  try {
    const written = await updateSchedule({ ...opened.on, range: { ...range, comfortSettingRef } });
    readBack = written.readBack;
    await logWrite({ ...logged, ...words, result: { written } });
  } catch (error) {
    await logWrite({ ...logged, ...words, result: { error } });
    return serviceFailure(error, {
      values,
      fieldOf: (path) => {
        const field = scheduleFieldOf(path);
        return field === 'form' ? null : field;
      },
    });
  }
  revalidatePath(`/thermostats/${thermostat.thermostatId}/schedule`);
  revalidatePath(`/thermostats/${thermostat.thermostatId}/comfort-settings`);
  return {
    status: 'success',
    message: `Saved: ${describeRange(range)}.${readBack ? ` ${READ_BACK_NOTE}` : ''}`,
  };
}
