'use server';

import { revalidatePath } from 'next/cache';
import { formStrings, openThermostat, serviceFailure } from '@/lib/access/actions';
import { READ_BACK_NOTE } from '@/lib/activity/sink';
import { alertNamesInWords } from '@/lib/activity-log/words';
import { writeAlertChanges } from '@/lib/attention/write-alerts';
import type { FormState } from '@/lib/platform/forms';
import {
  ALERT_FIELDS,
  type AlertField,
  alertFieldOf,
  alertFormValues,
  validateAlerts,
} from '@/lib/settings/alerts';
import { checkBeforeSave, labelOf } from '@/lib/settings/current';
import { getAlertSettings } from '@/lib/service/resources';
import { todayIn } from '@/lib/platform/time-format';

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
  const label = labelOf(thermostat);

  const checked = await checkBeforeSave({
    member,
    thermostat,
    read: getAlertSettings,
    action: 'alert_settings.update',
    subject: 'alert settings',
    values,
    validate: ({ current, heatCoolMinDelta }) =>
      validateAlerts(values, {
        unit: member.temperatureUnit,
        heatCoolMinDelta,
        current,
        today: todayIn(thermostat.building?.timeZone ?? 'UTC'),
      }),
  });
  if (!checked.ok) return checked.state;
  const { current, changes } = checked;

  const names = alertNamesInWords(Object.keys(changes));
  try {
    const { written, saved } = await writeAlertChanges({
      member,
      thermostat,
      current,
      changes,
      done: `Changed alert settings of ${label} (${names})`,
      asked: `change alert settings of ${label} (${names})`,
    });
    revalidatePath(`/thermostats/${thermostat.thermostatId}/alerts`);
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
    return serviceFailure(error, { values, fieldOf: alertFieldOf });
  }
}
