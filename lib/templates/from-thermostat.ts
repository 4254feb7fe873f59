import 'server-only';
import {
  getAlertSettings,
  getSchedule,
  getSettings,
  listComfortSettings,
} from '@/lib/service/resources';
import {
  type AlertSettings,
  type ComfortSetting,
  DAYS,
  FAN_VALUES,
  HOLD_ACTIONS,
  type Schedule,
  type ThermostatSettings,
} from '@/lib/service/schemas';
import type { TemplateDraft } from './form';

/**
 * "Start from a thermostat": one thermostat's comfort settings, schedule (refs turned into
 * names), configuration and alert settings read from the service for the person waiting, as a
 * new template's starting values. Access control has no read at the service, so it is left out.
 * A section that could not be read is left out and said; the rest is kept.
 */

export type ReadProblem = { section: string; error: unknown } | { section: string; note: string };

export type ThermostatDraft = { draft: TemplateDraft; problems: ReadProblem[] };

const fan = (value: string) => ((FAN_VALUES as readonly string[]).includes(value) ? value : 'auto');

export async function readTemplateFromThermostat({
  orgId,
  thermostatId,
  name,
}: {
  orgId: string;
  thermostatId: string;
  /** The new template's suggested name. */
  name: string;
}): Promise<ThermostatDraft> {
  const on = { orgId, thermostatId, priority: 'interactive' as const };
  const [comfort, schedule, settings, alerts] = await Promise.allSettled([
    listComfortSettings(on),
    getSchedule(on),
    getSettings(on),
    getAlertSettings(on),
  ]);
  const draft: TemplateDraft = { name };
  const problems: ReadProblem[] = [];
  const failed = (section: string, result: PromiseRejectedResult) =>
    problems.push({ section, error: result.reason });

  if (comfort.status === 'fulfilled') draft.comfortSettings = comfortOf(comfort.value);
  else failed('comfort settings', comfort);

  if (schedule.status === 'fulfilled' && comfort.status === 'fulfilled') {
    const week = weekByName(schedule.value, comfort.value);
    if (week) draft.schedule = week;
    else {
      problems.push({
        section: 'weekly schedule',
        note: 'The schedule names a comfort setting the thermostat does not list, so it was left out.',
      });
    }
  } else if (schedule.status === 'rejected') failed('weekly schedule', schedule);

  if (settings.status === 'fulfilled') {
    const { configuration, note } = configurationOf(settings.value);
    draft.configuration = configuration;
    if (note) problems.push({ section: 'hold action', note });
  } else failed('configuration', settings);

  if (alerts.status === 'fulfilled') draft.alerts = alertsOf(alerts.value);
  else failed('alert settings', alerts);

  return { draft, problems };
}

function comfortOf(settings: readonly ComfortSetting[]): TemplateDraft['comfortSettings'] {
  return settings.map((setting) => ({
    name: setting.name.trim(),
    desiredHeat: setting.desiredHeat,
    desiredCool: setting.desiredCool,
    fanHeat: fan(setting.fanHeat),
    fanCool: fan(setting.fanCool),
  }));
}

/** The week by comfort-setting name, Monday first; null when a block's ref is not listed. */
export function weekByName(
  schedule: Schedule,
  settings: readonly ComfortSetting[],
): string[][] | null {
  const names = new Map(
    settings.map((setting) => [setting.comfortSettingRef, setting.name.trim()]),
  );
  const byDay = new Map(schedule.days.map((day) => [day.day, day.blocks]));
  const week: string[][] = [];
  for (const day of DAYS) {
    const blocks = byDay.get(day);
    if (!blocks) return null;
    const named = blocks.map((ref) => names.get(ref));
    if (named.some((name) => !name)) return null;
    week.push(named as string[]);
  }
  return week;
}

function configurationOf(settings: ThermostatSettings): {
  configuration: NonNullable<TemplateDraft['configuration']>;
  note?: string;
} {
  const configuration: NonNullable<TemplateDraft['configuration']> = {
    heatRange: { min: settings.heatRange.min, max: settings.heatRange.max },
    coolRange: { min: settings.coolRange.min, max: settings.coolRange.max },
    fanMinimumOnTime: settings.fanMinimumOnTime,
  };
  // A hold action the service added since, which Setpoint does not send: not copied.
  if ((HOLD_ACTIONS as readonly string[]).includes(settings.holdAction)) {
    configuration.holdAction = settings.holdAction;
    return { configuration };
  }
  return {
    configuration,
    note: 'The thermostat’s hold action cannot be set on others, so choose one or leave it blank.',
  };
}

function alertsOf(alerts: AlertSettings): NonNullable<TemplateDraft['alerts']> {
  const reminder = alerts.hvacMaintenanceReminder;
  const threshold = (alert: { enabled: boolean; value: number } | undefined) =>
    alert ? { enabled: alert.enabled, value: alert.value } : undefined;
  return {
    // Not the last maintenance date: that is this unit's, not one for every thermostat.
    // An interval in a unit the service added since is not one a template can set.
    hvacMaintenanceReminder:
      reminder.maintenanceIntervalUnits === 'month' || reminder.maintenanceIntervalUnits === 'hour'
        ? {
            enabled: reminder.enabled,
            maintenanceInterval: reminder.maintenanceInterval,
            maintenanceIntervalUnits: reminder.maintenanceIntervalUnits,
          }
        : { enabled: reminder.enabled },
    lowTemperatureAlert: threshold(alerts.lowTemperatureAlert),
    highTemperatureAlert: threshold(alerts.highTemperatureAlert),
    lowHumidityAlert: threshold(alerts.lowHumidityAlert),
    highHumidityAlert: threshold(alerts.highHumidityAlert),
  };
}
