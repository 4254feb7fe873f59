'use server';

import { revalidatePath } from 'next/cache';
import { formStrings, openThermostat, serviceFailure } from '@/lib/access/actions';
import { logWrite, READ_BACK_NOTE } from '@/lib/activity/sink';
import type { FormState } from '@/lib/platform/forms';
import {
  CONFIGURATION_FIELDS,
  type ConfigurationField,
  configurationFieldOf,
  configurationFormValues,
  describeSettingsChanges,
  settingsDiff,
  validateConfiguration,
} from '@/lib/settings/configuration';
import { checkBeforeSave, labelOf } from '@/lib/settings/current';
import { getSettings, updateSettings } from '@/lib/service/resources';
import { configurationUndo } from '@/lib/templates/undo/entries';

type State = FormState<ConfigurationField | 'form'>;

/** Saves one thermostat's configuration settings: checked here first, then only what changed. */
export async function saveConfiguration(
  thermostatId: string,
  _previous: State,
  form: FormData,
): Promise<State> {
  const opened = await openThermostat(thermostatId);
  if (!opened.ok) return opened.state;
  const { member, thermostat } = opened;
  const values = formStrings(form, CONFIGURATION_FIELDS);
  const where = { thermostatId: thermostat.thermostatId, buildingId: thermostat.buildingId };
  const label = labelOf(thermostat);

  const checked = await checkBeforeSave({
    member,
    thermostat,
    read: getSettings,
    action: 'configuration.update',
    subject: 'configuration',
    values,
    validate: ({ current, heatCoolMinDelta }) =>
      validateConfiguration(values, { unit: member.temperatureUnit, heatCoolMinDelta, current }),
  });
  if (!checked.ok) return checked.state;
  const { current, changes } = checked;

  // What it replaces was just read: the entry keeps it, so the change can be undone.
  const diff = settingsDiff(current, changes);
  const what = {
    actor: member,
    action: 'configuration.update',
    ...where,
    changes: { ...diff, ...configurationUndo({ label, diff }) },
  } as const;
  const words = describeSettingsChanges(changes).join(', ');
  const logged = {
    done: `Changed configuration of ${label}: ${words}`,
    asked: `change configuration of ${label}: ${words}`,
  };
  try {
    const written = await updateSettings({ ...opened.on, changes });
    await logWrite({ ...what, ...logged, result: { written } });
    revalidatePath(`/thermostats/${thermostat.thermostatId}`, 'layout');
    // As the service answered, or else read back (what was read before, with the changes, when
    // that read fails too).
    const saved = written.answer ??
      (await getSettings(opened.on).catch(() => null)) ?? { ...current, ...changes };
    return {
      status: 'success',
      message: `Configuration saved.${written.readBack ? ` ${READ_BACK_NOTE}` : ''}`,
      values: configurationFormValues(saved, member.temperatureUnit),
    };
  } catch (error) {
    await logWrite({ ...what, ...logged, result: { error } });
    return serviceFailure(error, { values, fieldOf: configurationFieldOf });
  }
}
