'use server';

import { revalidatePath } from 'next/cache';
import { formStrings, openThermostat, serviceFailure } from '@/lib/access/actions';
import { CHECK_FIELDS } from '@/lib/platform/forms';
import { logWrite, READ_BACK_NOTE } from '@/lib/activity/sink';
import { alertNamesInWords } from '@/lib/activity-log/words';
import { rememberReminder } from '@/lib/readings/reminders';
import type { FormState } from '@/lib/platform/forms';
import {
  ALERT_FIELDS,
  type AlertField,
  alertFieldOf,
  alertFormValues,
  validateAlerts,
} from '@/lib/settings/alerts';
import { labelOf, readBeforeSave } from '@/lib/settings/current';
import { mayHaveApplied } from '@/lib/service/errors';
import { getAlertSettings, updateAlertSettings } from '@/lib/service/resources';
import { todayIn } from '@/lib/platform/time-format';
import { alertsUndo } from '@/lib/templates/undo/entries';

type State = FormState<AlertField | 'nextReminderDate' | 'form'>;

/** Saves one thermostat's alert settings: checked here first, then only what changed. */
export async function saveAlerts(
  thermostatId: string,
  _previous: State,
  form: FormData,
): Promise<State> {
  const opened = await openThermostat(thermostatId);
  if (!opened.ok) return opened.state;
  const { member, thermostat } = opened;
  const values = formStrings(form, ALERT_FIELDS);
  const where = { thermostatId: thermostat.thermostatId, buildingId: thermostat.buildingId };
  const label = labelOf(thermostat);

  const read = await readBeforeSave({
    member,
    thermostat,
    read: getAlertSettings,
    action: 'alert_settings.update',
    subject: 'alert settings',
    values,
  });
  if (!read.ok) return read.state;
  const { current, heatCoolMinDelta } = read;
  const result = validateAlerts(values, {
    unit: member.temperatureUnit,
    heatCoolMinDelta,
    current,
    today: todayIn(thermostat.building?.timeZone ?? 'UTC'),
  });
  if (!result.ok) {
    return { status: 'error', message: CHECK_FIELDS, fieldErrors: result.fieldErrors, values };
  }
  const { changes } = result;
  if (Object.keys(changes).length === 0) {
    return { status: 'success', message: 'Nothing changed, so nothing was sent.', values };
  }

  const what = {
    actor: member,
    action: 'alert_settings.update',
    ...where,
    // What it replaces was just read: the entry keeps it, so the change can be undone.
    changes: { ...changes, ...alertsUndo({ label, before: current, changes }) } as Record<
      string,
      unknown
    >,
  } as const;
  const names = alertNamesInWords(Object.keys(changes));
  const words = {
    done: `Changed alert settings of ${label} (${names})`,
    asked: `change alert settings of ${label} (${names})`,
  };
  try {
    const written = await updateAlertSettings({ ...opened.on, changes });
    await logWrite({ ...what, ...words, result: { written } });
    revalidatePath(`/thermostats/${thermostat.thermostatId}/alerts`);
    // The next reminder's date is the service's to work out: read back where it did not say.
    const saved = written.answer ?? (await getAlertSettings(opened.on).catch(() => null));
    // Needs attention reads the reminder from the store: tell it now, not at tomorrow's read.
    await rememberReminder({ ...opened.on, settings: saved });
    revalidatePath('/attention');
    revalidatePath('/');
    return {
      status: 'success',
      message: `Alert settings saved.${written.readBack ? ` ${READ_BACK_NOTE}` : ''}`,
      values: saved
        ? {
            ...alertFormValues(saved, member.temperatureUnit),
            nextReminderDate: saved.hvacMaintenanceReminder.nextReminderDate ?? '',
          }
        : values,
    };
  } catch (error) {
    await logWrite({ ...what, ...words, result: { error } });
    // Perhaps applied: the reminder is read again in the next round rather than a day later.
    if (mayHaveApplied(error)) await rememberReminder({ ...opened.on, settings: null });
    return serviceFailure(error, { values, fieldOf: alertFieldOf });
  }
}
