'use server';

import { revalidatePath } from 'next/cache';
import { logActivity } from '@/lib/activity';
import { requireUser } from '@/lib/auth/session';
import type { FormState } from '@/lib/forms';
import { ownedThermostat } from '@/lib/portfolio/guard';
import {
  ALERT_FIELDS,
  type AlertField,
  alertErrorsFromService,
  alertFormValues,
  validateAlerts,
} from '@/lib/settings/alerts';
import { DEFAULT_HEAT_COOL_MIN_DELTA } from '@/lib/settings/configuration';
import { CHECK_FIELDS, formStrings, NOT_YOURS } from '@/lib/settings/form-data';
import { describeServiceError, ServiceError } from '@/lib/thermostat-api/errors';
import { getAlertSettings, getStatus, updateAlertSettings } from '@/lib/thermostat-api/resources';

type State = FormState<AlertField | 'nextReminderDate' | 'form'>;

/** Saves one thermostat's alert settings: checked here first, then only what changed. */
export async function saveAlerts(
  thermostatId: string,
  _previous: State,
  form: FormData,
): Promise<State> {
  const user = await requireUser();
  const thermostat = await ownedThermostat(user, thermostatId);
  if (!thermostat) return NOT_YOURS;
  const values = formStrings(form, ALERT_FIELDS);
  const who = { userId: user.id, thermostatId: thermostat.thermostatId };

  let current: Awaited<ReturnType<typeof getAlertSettings>>;
  let delta: number;
  try {
    const [alerts, status] = await Promise.all([getAlertSettings(who), getStatus(who)]);
    current = alerts;
    delta = status.heatCoolMinDelta ?? DEFAULT_HEAT_COOL_MIN_DELTA;
  } catch (error) {
    // Asked for and not made: the activity log records this failure like any other.
    await logActivity({
      user,
      action: 'alerts',
      thermostatId: thermostat.thermostatId,
      buildingId: thermostat.buildingId,
      summary: `Failed to change alert settings of ${thermostat.unitLabel || thermostat.thermostatId} (its current settings could not be read)`,
      changes: { requested: values },
      error,
    });
    return { status: 'error', message: describeServiceError(error), values };
  }

  const result = validateAlerts(values, {
    unit: user.temperatureUnit,
    heatCoolMinDelta: delta,
    current,
  });
  if (!result.ok) {
    return { status: 'error', message: CHECK_FIELDS, fieldErrors: result.fieldErrors, values };
  }
  const { changes } = result;
  if (Object.keys(changes).length === 0) {
    return { status: 'success', message: 'Nothing changed, so nothing was sent.', values };
  }

  const label = thermostat.unitLabel || thermostat.thermostatId;
  const what = {
    user,
    action: 'alerts',
    thermostatId: thermostat.thermostatId,
    buildingId: thermostat.buildingId,
    changes: changes as Record<string, unknown>,
  };
  const names = Object.keys(changes).join(', ');
  try {
    const saved = await updateAlertSettings({ ...who, changes });
    await logActivity({ ...what, summary: `Changed alert settings of ${label} (${names})` });
    revalidatePath(`/thermostats/${thermostat.thermostatId}/alerts`);
    return {
      status: 'success',
      message: 'Alert settings saved.',
      values: {
        ...alertFormValues(saved, user.temperatureUnit),
        nextReminderDate: saved.hvacMaintenanceReminder.nextReminderDate ?? '',
      },
    };
  } catch (error) {
    await logActivity({ ...what, summary: `Failed to change alert settings of ${label}`, error });
    if (error instanceof ServiceError && error.kind === 'validation') {
      return {
        status: 'error',
        message: 'The service did not accept these values; nothing was changed.',
        fieldErrors: alertErrorsFromService(error.fieldErrors),
        values,
      };
    }
    return { status: 'error', message: describeServiceError(error), values };
  }
}
