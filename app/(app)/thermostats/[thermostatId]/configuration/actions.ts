'use server';

import { revalidatePath } from 'next/cache';
import { logActivity } from '@/lib/activity';
import { requireUser } from '@/lib/auth/session';
import type { FormState } from '@/lib/forms';
import { ownedThermostat } from '@/lib/portfolio/guard';
import {
  CONFIGURATION_FIELDS,
  type ConfigurationField,
  configurationErrorsFromService,
  configurationFormValues,
  DEFAULT_HEAT_COOL_MIN_DELTA,
  describeSettingsChanges,
  settingsDiff,
  validateConfiguration,
} from '@/lib/settings/configuration';
import { CHECK_FIELDS, formStrings, NOT_YOURS } from '@/lib/settings/form-data';
import { describeServiceError, ServiceError } from '@/lib/thermostat-api/errors';
import { getSettings, getStatus, updateSettings } from '@/lib/thermostat-api/resources';

type State = FormState<ConfigurationField | 'form'>;

/** Saves one thermostat's configuration settings: checked here first, then only what changed. */
export async function saveConfiguration(
  thermostatId: string,
  _previous: State,
  form: FormData,
): Promise<State> {
  const user = await requireUser();
  const thermostat = await ownedThermostat(user, thermostatId);
  if (!thermostat) return NOT_YOURS;
  const values = formStrings(form, CONFIGURATION_FIELDS);
  const who = { userId: user.id, thermostatId: thermostat.thermostatId };

  // The current settings and heat-cool gap: the checks need them, and only changes are sent.
  let current: Awaited<ReturnType<typeof getSettings>>;
  let delta: number;
  try {
    const [settings, status] = await Promise.all([getSettings(who), getStatus(who)]);
    current = settings;
    delta = status.heatCoolMinDelta ?? DEFAULT_HEAT_COOL_MIN_DELTA;
  } catch (error) {
    // Asked for and not made: the activity log records this failure like any other.
    await logActivity({
      user,
      action: 'configuration',
      thermostatId: thermostat.thermostatId,
      buildingId: thermostat.buildingId,
      summary: `Failed to change configuration of ${thermostat.unitLabel || thermostat.thermostatId} (its current settings could not be read)`,
      changes: { requested: values },
      error,
    });
    return { status: 'error', message: describeServiceError(error), values };
  }

  const result = validateConfiguration(values, {
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
    action: 'configuration',
    thermostatId: thermostat.thermostatId,
    buildingId: thermostat.buildingId,
    changes: settingsDiff(current, changes),
  };
  const words = describeSettingsChanges(changes).join(', ');
  try {
    const saved = await updateSettings({ ...who, changes });
    await logActivity({ ...what, summary: `Changed configuration of ${label}: ${words}` });
    revalidatePath(`/thermostats/${thermostat.thermostatId}`, 'layout');
    return {
      status: 'success',
      message: 'Configuration saved.',
      values: configurationFormValues(saved, user.temperatureUnit),
    };
  } catch (error) {
    await logActivity({ ...what, summary: `Failed to change configuration of ${label}`, error });
    if (error instanceof ServiceError && error.kind === 'validation') {
      return {
        status: 'error',
        message: 'The service did not accept these values; nothing was changed.',
        fieldErrors: configurationErrorsFromService(error.fieldErrors),
        values,
      };
    }
    return { status: 'error', message: describeServiceError(error), values };
  }
}
