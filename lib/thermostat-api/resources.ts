import 'server-only';
import { z } from 'zod';
import type { Priority } from './budget';
import { serviceRequest } from './request';
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

/** Whose connection, and whose wait it is for the call budget (a person's by default). */
type Who = { orgId: string; priority?: Priority };
type OnThermostat = Who & { thermostatId: string };

const thermostatPath = (thermostatId: string, rest = '') =>
  `/api/v2/thermostats/${encodeURIComponent(thermostatId)}${rest}`;

export function getStatus({ orgId, priority, thermostatId }: OnThermostat) {
  return serviceRequest({
    orgId,
    priority,
    method: 'GET',
    path: thermostatPath(thermostatId, '/status'),
    schema: statusSchema,
  });
}

export function setResidentMode({
  orgId,
  priority,
  thermostatId,
  isResidentMode,
}: OnThermostat & { isResidentMode: boolean }) {
  return serviceRequest({
    orgId,
    priority,
    method: 'PATCH',
    path: thermostatPath(thermostatId, '/residentMode'),
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

export function moveThermostat({
  orgId,
  priority,
  thermostatId,
  buildingId,
}: OnThermostat & { buildingId: string }) {
  return serviceRequest({
    orgId,
    priority,
    method: 'PATCH',
    path: thermostatPath(thermostatId),
    body: { buildingId },
    schema: statusSchema,
  });
}

export function getSchedule({ orgId, priority, thermostatId }: OnThermostat) {
  return serviceRequest({
    orgId,
    priority,
    method: 'GET',
    path: thermostatPath(thermostatId, '/schedule'),
    schema: scheduleSchema,
  });
}

/** One range update of the weekly schedule, as the service takes it. */
export type ScheduleRangeUpdate = {
  days: (typeof DAYS)[number][];
  firstTimeBlock: number;
  lastTimeBlock: number;
  comfortSettingRef: string;
};

export function updateSchedule({
  orgId,
  priority,
  thermostatId,
  range,
}: OnThermostat & { range: ScheduleRangeUpdate }) {
  return serviceRequest({
    orgId,
    priority,
    method: 'PATCH',
    path: thermostatPath(thermostatId, '/schedule'),
    body: range,
    schema: scheduleSchema,
  });
}

export function listComfortSettings({ orgId, priority, thermostatId }: OnThermostat) {
  return serviceRequest({
    orgId,
    priority,
    method: 'GET',
    path: thermostatPath(thermostatId, '/comfortSettings'),
    schema: z.array(comfortSettingSchema),
  });
}

export type ComfortSettingFields = {
  name: string;
  desiredHeat: number;
  desiredCool: number;
  fanHeat: (typeof FAN_VALUES)[number];
  fanCool: (typeof FAN_VALUES)[number];
};

export function createComfortSetting({
  orgId,
  priority,
  thermostatId,
  setting,
}: OnThermostat & { setting: ComfortSettingFields }) {
  return serviceRequest({
    orgId,
    priority,
    method: 'POST',
    path: thermostatPath(thermostatId, '/comfortSettings'),
    body: setting,
    schema: comfortSettingSchema,
  });
}

export function updateComfortSetting({
  orgId,
  priority,
  thermostatId,
  comfortSettingRef,
  changes,
}: OnThermostat & { comfortSettingRef: string; changes: Partial<ComfortSettingFields> }) {
  return serviceRequest({
    orgId,
    priority,
    method: 'PATCH',
    path: thermostatPath(thermostatId, '/comfortSettings'),
    body: { comfortSettingRef, ...changes },
    schema: comfortSettingSchema,
  });
}

export function deleteComfortSetting({
  orgId,
  priority,
  thermostatId,
  comfortSettingRef,
}: OnThermostat & { comfortSettingRef: string }) {
  return serviceRequest({
    orgId,
    priority,
    method: 'DELETE',
    path: thermostatPath(thermostatId, `/comfortSettings/${encodeURIComponent(comfortSettingRef)}`),
    schema: z.unknown(),
  });
}

export function getSettings({ orgId, priority, thermostatId }: OnThermostat) {
  return serviceRequest({
    orgId,
    priority,
    method: 'GET',
    path: thermostatPath(thermostatId, '/settings'),
    schema: settingsSchema,
  });
}

export type SettingsChanges = Partial<{
  heatRange: { min: number; max: number };
  coolRange: { min: number; max: number };
  holdAction: (typeof HOLD_ACTIONS)[number];
  fanMinimumOnTime: number;
}>;

export function updateSettings({
  orgId,
  priority,
  thermostatId,
  changes,
}: OnThermostat & { changes: SettingsChanges }) {
  return serviceRequest({
    orgId,
    priority,
    method: 'PATCH',
    path: thermostatPath(thermostatId, '/settings'),
    body: changes,
    schema: settingsSchema,
  });
}

/** One request for 1..25 thermostats; the result lists each one. Larger selections: see bulk.ts. */
export function bulkUpdateSettings({
  orgId,
  priority,
  thermostatIds,
  changes,
}: Who & { thermostatIds: string[]; changes: SettingsChanges }) {
  return serviceRequest({
    orgId,
    priority,
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
  orgId,
  priority,
  thermostatId,
  changes,
}: OnThermostat & { changes: AccessControlChanges }) {
  return serviceRequest({
    orgId,
    priority,
    method: 'PATCH',
    path: thermostatPath(thermostatId, '/accessControl'),
    body: changes,
    schema: accessControlSchema,
  });
}

export function getAlertSettings({ orgId, priority, thermostatId }: OnThermostat) {
  return serviceRequest({
    orgId,
    priority,
    method: 'GET',
    path: thermostatPath(thermostatId, '/alertSettings'),
    schema: alertSettingsSchema,
  });
}

export function updateAlertSettings({
  orgId,
  priority,
  thermostatId,
  changes,
}: OnThermostat & { changes: Record<string, unknown> }) {
  return serviceRequest({
    orgId,
    priority,
    method: 'PATCH',
    path: thermostatPath(thermostatId, '/alertSettings'),
    body: changes,
    schema: alertSettingsSchema,
  });
}
