import 'server-only';
import { z } from 'zod';
import type { Priority } from './budget';
import { type ServiceRequest, serviceRequest } from './request';
import {
  accessControlSchema,
  alertSettingsSchema,
  bulkResultSchema,
  comfortSettingSchema,
  type DAYS,
  type FAN_VALUES,
  type HOLD_ACTIONS,
  type HVAC_MODES,
  type LOCK_AREAS,
  scheduleSchema,
  settingsSchema,
  statusSchema,
} from './schemas';

/**
 * One function per endpoint of the service's version 2 API. Callers pass ids and values; they
 * never see a URL or an envelope. Every function takes the organisation (`orgId`) whose connection
 * is used.
 */

/**
 * Whose connection, whose wait it is for the call budget (a person's by default), and a signal
 * that gives the call up while it still waits (./request.ts).
 */
type Who = { orgId: string; priority?: Priority; signal?: AbortSignal };
type OnThermostat = Who & { thermostatId: string };

const thermostatPath = (thermostatId: string, rest = '') =>
  `/api/v2/thermostats/${encodeURIComponent(thermostatId)}${rest}`;

/** A request about one thermostat: `rest` is the path after the thermostat's own. */
function thermostatRequest<T>(
  { orgId, priority, signal, thermostatId }: OnThermostat,
  {
    rest,
    ...request
  }: Omit<ServiceRequest<T>, 'orgId' | 'priority' | 'signal' | 'path'> & { rest?: string },
): Promise<T> {
  return serviceRequest({
    orgId,
    priority,
    signal,
    ...request,
    path: thermostatPath(thermostatId, rest),
  });
}

export function getStatus(on: OnThermostat) {
  return thermostatRequest(on, { method: 'GET', rest: '/status', schema: statusSchema });
}

export function setResidentMode({
  isResidentMode,
  ...on
}: OnThermostat & { isResidentMode: boolean }) {
  return thermostatRequest(on, {
    method: 'PATCH',
    rest: '/residentMode',
    body: { isResidentMode },
    schema: statusSchema,
  });
}

export type NewThermostat = {
  isResidentMode: boolean;
  name?: string;
  hvacMode?: (typeof HVAC_MODES)[number];
  thermostatId?: string;
};

/** Creates a thermostat in a building (the spec's path names the building). */
export function createThermostat({
  orgId,
  priority,
  buildingId,
  thermostat,
}: Who & { buildingId: string; thermostat: NewThermostat }) {
  return serviceRequest({
    orgId,
    priority,
    method: 'POST',
    path: `/api/v2/thermostats/${encodeURIComponent(buildingId)}/thermostats`,
    body: thermostat,
    schema: statusSchema,
  });
}

export function moveThermostat({ buildingId, ...on }: OnThermostat & { buildingId: string }) {
  return thermostatRequest(on, { method: 'PATCH', body: { buildingId }, schema: statusSchema });
}

export function getSchedule(on: OnThermostat) {
  return thermostatRequest(on, { method: 'GET', rest: '/schedule', schema: scheduleSchema });
}

/** One range update of the weekly schedule, as the service takes it. */
export type ScheduleRangeUpdate = {
  days: (typeof DAYS)[number][];
  firstTimeBlock: number;
  lastTimeBlock: number;
  comfortSettingRef: string;
};

export function updateSchedule({ range, ...on }: OnThermostat & { range: ScheduleRangeUpdate }) {
  return thermostatRequest(on, {
    method: 'PATCH',
    rest: '/schedule',
    body: range,
    schema: scheduleSchema,
  });
}

export function listComfortSettings(on: OnThermostat) {
  return thermostatRequest(on, {
    method: 'GET',
    rest: '/comfortSettings',
    schema: z.array(comfortSettingSchema),
  });
}

/** One of the thermostat's comfort settings, by its ref (the service reads them all at once). */
export async function findComfortSetting({
  comfortSettingRef,
  ...on
}: OnThermostat & { comfortSettingRef: string }) {
  const settings = await listComfortSettings(on);
  return settings.find((setting) => setting.comfortSettingRef === comfortSettingRef);
}

export type ComfortSettingFields = {
  name: string;
  desiredHeat: number;
  desiredCool: number;
  fanHeat: (typeof FAN_VALUES)[number];
  fanCool: (typeof FAN_VALUES)[number];
};

export function createComfortSetting({
  setting,
  ...on
}: OnThermostat & { setting: ComfortSettingFields }) {
  return thermostatRequest(on, {
    method: 'POST',
    rest: '/comfortSettings',
    body: setting,
    schema: comfortSettingSchema,
  });
}

export function updateComfortSetting({
  comfortSettingRef,
  changes,
  ...on
}: OnThermostat & { comfortSettingRef: string; changes: Partial<ComfortSettingFields> }) {
  return thermostatRequest(on, {
    method: 'PATCH',
    rest: '/comfortSettings',
    body: { comfortSettingRef, ...changes },
    schema: comfortSettingSchema,
  });
}

export function deleteComfortSetting({
  comfortSettingRef,
  ...on
}: OnThermostat & { comfortSettingRef: string }) {
  return thermostatRequest(on, {
    method: 'DELETE',
    rest: `/comfortSettings/${encodeURIComponent(comfortSettingRef)}`,
    schema: z.unknown(),
  });
}

export function getSettings(on: OnThermostat) {
  return thermostatRequest(on, { method: 'GET', rest: '/settings', schema: settingsSchema });
}

export type SettingsChanges = Partial<{
  heatRange: { min: number; max: number };
  coolRange: { min: number; max: number };
  holdAction: (typeof HOLD_ACTIONS)[number];
  fanMinimumOnTime: number;
}>;

export function updateSettings({ changes, ...on }: OnThermostat & { changes: SettingsChanges }) {
  return thermostatRequest(on, {
    method: 'PATCH',
    rest: '/settings',
    body: changes,
    schema: settingsSchema,
  });
}

/** One request for 1..25 thermostats; the result lists each one. Larger selections: see bulk.ts. */
export function bulkUpdateSettings({
  orgId,
  priority,
  signal,
  thermostatIds,
  changes,
}: Who & { thermostatIds: string[]; changes: SettingsChanges }) {
  return serviceRequest({
    orgId,
    priority,
    signal,
    method: 'PATCH',
    path: '/api/v2/thermostats/settings',
    body: { thermostatIds, ...changes },
    schema: bulkResultSchema,
  });
}

export type AccessControlChanges =
  | { enabled: false }
  | {
      enabled: true;
      /** Four digits; null clears it; absent leaves it as it is. */
      passcode?: string | null;
      settings?: Partial<Record<(typeof LOCK_AREAS)[number], boolean>>;
    };

export function updateAccessControl({
  changes,
  ...on
}: OnThermostat & { changes: AccessControlChanges }) {
  return thermostatRequest(on, {
    method: 'PATCH',
    rest: '/accessControl',
    body: changes,
    schema: accessControlSchema,
  });
}

export function getAlertSettings(on: OnThermostat) {
  return thermostatRequest(on, {
    method: 'GET',
    rest: '/alertSettings',
    schema: alertSettingsSchema,
  });
}

export function updateAlertSettings({
  changes,
  ...on
}: OnThermostat & { changes: Record<string, unknown> }) {
  return thermostatRequest(on, {
    method: 'PATCH',
    rest: '/alertSettings',
    body: changes,
    schema: alertSettingsSchema,
  });
}
