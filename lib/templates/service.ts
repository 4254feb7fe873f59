import 'server-only';
import { rememberReminder } from '@/lib/readings/reminders';
import type { Scope } from '@/lib/db/scope';
import { findLastAccessControl } from './last-access-control';
import type { Priority } from '@/lib/service/budget';
import { ServiceError } from '@/lib/service/errors';
import {
  bulkUpdateSettings,
  createComfortSetting,
  getAlertSettings,
  getSchedule,
  getSettings,
  getStatus,
  listComfortSettings,
  type SettingsChanges,
  setResidentMode,
  updateAccessControl,
  updateAlertSettings,
  updateComfortSetting,
  updateSchedule,
} from '@/lib/service/resources';
import { type BulkResult, type ComfortSetting, DAYS } from '@/lib/service/schemas';
import {
  scheduleUpdateOf,
  type TemplateOperation,
  type TemplateRead,
  type ThermostatState,
} from './plan';
import { nameKey } from './schema';

/**
 * What a planned run needs of the service: one thermostat's state for a template, the bulk
 * configuration request, and each other operation as one call. The job uses the real service at
 * `refresh` priority (a manager asked for it, but is not waiting on one page); tests pass a
 * stand-in that behaves like the service.
 */
export type TemplateService = {
  read(input: {
    orgId: string;
    thermostatId: string;
    reads: readonly TemplateRead[];
    /** Whether the locks Setpoint last set are wanted (the service has no read for them). */
    accessControl: boolean;
    /** Whose share of the call budget the reads take: `refresh` unless said (drift: background). */
    priority?: Priority;
  }): Promise<ThermostatState>;
  /** `signal` gives a write up while it still waits to be sent (the run has stopped). */
  configuration(input: {
    orgId: string;
    thermostatIds: string[];
    changes: SettingsChanges;
    signal?: AbortSignal;
  }): Promise<BulkResult>;
  /** One operation that is not configuration; a create answers with the new setting's ref. */
  perform(input: {
    orgId: string;
    thermostatId: string;
    operation: Exclude<TemplateOperation, { kind: 'configuration' }>;
    /** Refs of the settings this run created, by name key (for schedule updates). */
    created: ReadonlyMap<string, string>;
    /** A passcode entered for the run (lib/runs/passcodes.ts), sent with locks turned on. */
    passcode?: string | null;
    signal?: AbortSignal;
  }): Promise<{ createdRef?: string }>;
  /** The thermostat's comfort setting of this name, if it has one (a create resent). */
  findComfortSetting(input: {
    orgId: string;
    thermostatId: string;
    name: string;
  }): Promise<ComfortSetting | null>;
};

const PRIORITY: Priority = 'refresh';

/** The service itself, through the call budget. */
export const serviceForTemplates: TemplateService = {
  async read({ orgId, thermostatId, reads, accessControl, priority = PRIORITY }) {
    const on = { orgId, thermostatId, priority };
    const wants = new Set(reads);
    const [status, comfortSettings, schedule, settings, alerts] = await Promise.all([
      wants.has('status') ? getStatus(on) : undefined,
      wants.has('comfortSettings') ? listComfortSettings(on) : undefined,
      wants.has('schedule') ? getSchedule(on) : undefined,
      wants.has('settings') ? getSettings(on) : undefined,
      wants.has('alertSettings') ? getAlertSettings(on) : undefined,
    ]);
    const state: ThermostatState = {};
    if (status) state.heatCoolMinDelta = status.heatCoolMinDelta;
    if (status) state.isResidentMode = status.isResidentMode;
    if (comfortSettings) state.comfortSettings = comfortSettings;
    if (schedule) {
      // Monday first whatever order the days come in (the contract says Monday first).
      const byDay = new Map(schedule.days.map((day) => [day.day, day.blocks]));
      state.week = DAYS.map((day) => byDay.get(day) ?? new Array<string>(48).fill(''));
    }
    if (settings) {
      state.configuration = {
        heatRange: settings.heatRange,
        coolRange: settings.coolRange,
        holdAction: settings.holdAction,
        fanMinimumOnTime: settings.fanMinimumOnTime,
      };
    }
    if (alerts) state.alerts = alerts;
    if (accessControl) {
      const scope: Scope = { orgId, userId: '', buildingIds: null };
      const last = await findLastAccessControl({ scope, thermostatId });
      state.accessControl = last ? { enabled: last.enabled, settings: last.settings } : null;
    }
    return state;
  },

  configuration({ orgId, thermostatIds, changes, signal }) {
    return bulkUpdateSettings({ orgId, thermostatIds, changes, priority: PRIORITY, signal });
  },

  async perform({ orgId, thermostatId, operation, created, passcode, signal }) {
    const on = { orgId, thermostatId, priority: PRIORITY, signal };
    switch (operation.kind) {
      case 'createComfortSetting': {
        const { answer } = await createComfortSetting({ ...on, setting: operation.fields });
        // Created, but its ref could not be found: what follows (the schedule) needs it.
        if (!answer) throw new ServiceError('unconfirmed');
        return { createdRef: answer.comfortSettingRef };
      }
      case 'updateComfortSetting':
        await updateComfortSetting({
          ...on,
          comfortSettingRef: operation.comfortSettingRef,
          changes: operation.changes,
        });
        return {};
      case 'schedule':
        await updateSchedule({ ...on, range: scheduleUpdateOf(operation, created) });
        return {};
      case 'alerts': {
        const written = await updateAlertSettings({ ...on, changes: operation.changes });
        // The maintenance item of Needs attention clears at once, as a save on its page does.
        await rememberReminder({ orgId, thermostatId, settings: written.answer });
        return {};
      }
      case 'accessControl':
        // The plan never holds a passcode: on keeps the thermostat's own unless one was entered
        // for this run (held in memory only); off clears it (the service's rule).
        await updateAccessControl({
          ...on,
          changes:
            operation.changes.enabled && passcode
              ? { ...operation.changes, passcode }
              : operation.changes,
        });
        return {};
      case 'residentMode':
        // Off resets the thermostat's settings at the service; the plan said so and read them all.
        await setResidentMode({ ...on, isResidentMode: operation.changes.isResidentMode });
        return {};
    }
  },

  async findComfortSetting({ orgId, thermostatId, name }) {
    const settings = await listComfortSettings({ orgId, thermostatId, priority: PRIORITY });
    return settings.find((setting) => nameKey(setting.name) === nameKey(name)) ?? null;
  },
};
