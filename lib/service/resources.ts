import 'server-only';
import { logWarning } from '@/lib/platform/log';
import type { Priority } from './budget';
import { confirmWrite, holds, type ReadBack, type Written } from './confirm';
import { mayHaveApplied, ServiceError } from './errors';
import { type ServiceRequest, serviceRead, serviceWrite } from './request';
import type {
  AccessControl,
  BulkItem,
  BulkResult,
  ComfortSetting,
  FAN_VALUES,
  HOLD_ACTIONS,
  LOCK_AREAS,
  ScheduleRange,
} from './schemas';
import { accessControlSchema } from './wire/access-control';
import { alertSettingsSchema } from './wire/alert-settings';
import { comfortSettingSchema, comfortSettingsSchema } from './wire/comfort-settings';
import { scheduleSchema, toWireRange } from './wire/schedule';
import { bulkResultSchema, holdActionOf, settingsSchema } from './wire/settings';
import { statusSchema } from './wire/status';
import { thermostatSummarySchema } from './wire/thermostat-summary';

export type { Written } from './confirm';

/**
 * One function per endpoint of the service's version 2 API. Callers pass ids and values in
 * Setpoint's own types (./schemas.ts) and get them back; the wire shapes are ./wire/'s. Every
 * function takes the organisation (`orgId`) whose connection is used.
 *
 * A write resolves once the service applied it (`Written`: its answer where it sent a readable
 * one). A write whose answer was lost is read back (./confirm.ts) and reported as the read
 * shows: applied, or a ServiceError `not_applied` or `unconfirmed`.
 */

/**
 * Whose connection, whose wait it is for the call budget (a person's by default), and a signal
 * that gives the call up while it still waits (./request.ts).
 */
type Who = { orgId: string; priority?: Priority; signal?: AbortSignal };
type OnThermostat = Who & { thermostatId: string };

const thermostatPath = (thermostatId: string, rest = '') =>
  `/api/v2/thermostats/${encodeURIComponent(thermostatId)}${rest}`;

type Request<T> = Pick<ServiceRequest<T>, 'schema'> & { rest?: string };

function onThermostat<T>({ orgId, priority, signal, thermostatId }: OnThermostat, rest = '') {
  return { orgId, priority, signal, path: thermostatPath(thermostatId, rest) } satisfies Partial<
    ServiceRequest<T>
  >;
}

function readThermostat<T>(on: OnThermostat, { rest, schema }: Request<T>): Promise<T> {
  return serviceRead({ ...onThermostat<T>(on, rest), method: 'GET', schema });
}

function writeThermostat<T>(
  on: OnThermostat,
  { rest, ...request }: Request<T> & { method: 'POST' | 'PATCH' | 'DELETE'; body?: unknown },
): Promise<T | null> {
  return serviceWrite({ ...onThermostat<T>(on, rest), ...request });
}

/** The same thermostat read back at the write's priority, never given up (it was sent). */
const readingBack = ({ signal: _signal, ...on }: OnThermostat): OnThermostat => on;

// --- Status and resident mode ------------------------------------------------------------------

export function getStatus(on: OnThermostat) {
  return readThermostat(on, { rest: '/status', schema: statusSchema });
}

/** Turns resident mode on or off (the service answers with no body). */
export function setResidentMode({
  isResidentMode,
  ...on
}: OnThermostat & { isResidentMode: boolean }): Promise<Written<unknown>> {
  return confirmWrite(
    `resident mode of ${on.thermostatId}`,
    () =>
      writeThermostat(on, {
        method: 'PATCH',
        rest: '/residentMode',
        body: { isResidentMode },
        schema: statusSchema,
      }),
    async () => ({
      applied: (await getStatus(readingBack(on))).isResidentMode === isResidentMode,
    }),
  );
}

// --- Creating and moving thermostats -----------------------------------------------------------

export type NewThermostat = {
  isResidentMode: boolean;
  name?: string;
  hvacMode?: string;
  /** The serial of the device being registered; the service makes one up when absent. */
  thermostatId?: string;
};

/**
 * Creates a thermostat in a building (the spec's path names the building). Where its id was
 * given, a lost answer is settled by reading that thermostat; otherwise it cannot be.
 */
export function createThermostat({
  orgId,
  priority,
  buildingId,
  thermostat,
}: Who & { buildingId: string; thermostat: NewThermostat }) {
  const { thermostatId } = thermostat;
  return confirmWrite(
    `creating a thermostat in ${buildingId}`,
    () =>
      serviceWrite({
        orgId,
        priority,
        method: 'POST',
        path: `/api/v2/thermostats/${encodeURIComponent(buildingId)}/thermostats`,
        body: thermostat,
        schema: thermostatSummarySchema,
      }),
    thermostatId
      ? async () => {
          try {
            await getStatus({ orgId, priority, thermostatId });
            return { applied: true };
          } catch (error) {
            if (error instanceof ServiceError && error.kind === 'not_found') {
              return { applied: false };
            }
            throw error;
          }
        }
      : null,
  );
}

/** Moves a thermostat to another building (no read shows a thermostat's building). */
export function moveThermostat({ buildingId, ...on }: OnThermostat & { buildingId: string }) {
  return confirmWrite(
    `moving ${on.thermostatId}`,
    () =>
      writeThermostat(on, {
        method: 'PATCH',
        body: { buildingId },
        schema: thermostatSummarySchema,
      }),
    null,
  );
}

// --- Schedule ----------------------------------------------------------------------------------

export function getSchedule(on: OnThermostat) {
  return readThermostat(on, { rest: '/schedule', schema: scheduleSchema });
}

/** One range update of the weekly schedule. */
export function updateSchedule({ range, ...on }: OnThermostat & { range: ScheduleRange }) {
  return confirmWrite(
    `a schedule range of ${on.thermostatId}`,
    () =>
      writeThermostat(on, {
        method: 'PATCH',
        rest: '/schedule',
        body: toWireRange(range),
        schema: scheduleSchema,
      }),
    async () => {
      const week = await getSchedule(readingBack(on));
      const applied = range.days.every((day) => {
        const blocks = week.days.find((entry) => entry.day === day)?.blocks ?? [];
        for (let slot = range.firstSlot; slot <= range.lastSlot; slot++) {
          if (blocks[slot] !== range.comfortSettingRef) return false;
        }
        return true;
      });
      return { applied };
    },
  );
}

// --- Comfort settings --------------------------------------------------------------------------

export function listComfortSettings(on: OnThermostat) {
  return readThermostat(on, { rest: '/comfortSettings', schema: comfortSettingsSchema });
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

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Creates a comfort setting. Its ref comes from the answer, or, where the answer held none
 * Setpoint could read, from finding it by name; a lost answer is settled the same way.
 */
export async function createComfortSetting({
  setting,
  ...on
}: OnThermostat & { setting: ComfortSettingFields }): Promise<Written<ComfortSetting>> {
  const find = async (): Promise<ReadBack<ComfortSetting>> => {
    const found = (await listComfortSettings(readingBack(on))).find((candidate) =>
      sameName(candidate.name, setting.name),
    );
    const { name: _name, ...values } = setting;
    return found && holds(found, values) ? { applied: true, answer: found } : { applied: false };
  };
  const written = await confirmWrite(
    `creating comfort setting ${setting.name} on ${on.thermostatId}`,
    () =>
      writeThermostat(on, {
        method: 'POST',
        rest: '/comfortSettings',
        body: setting,
        schema: comfortSettingSchema,
      }),
    find,
  );
  if (written.answer) return written;
  const seen = await find().catch(() => null);
  return { ...written, answer: seen?.applied ? (seen.answer ?? null) : null };
}

export function updateComfortSetting({
  comfortSettingRef,
  changes,
  ...on
}: OnThermostat & { comfortSettingRef: string; changes: Partial<ComfortSettingFields> }) {
  return confirmWrite(
    `comfort setting ${comfortSettingRef} of ${on.thermostatId}`,
    () =>
      writeThermostat(on, {
        method: 'PATCH',
        rest: '/comfortSettings',
        body: { comfortSettingRef, ...changes },
        schema: comfortSettingSchema,
      }),
    async () => {
      const found = await findComfortSetting({ ...readingBack(on), comfortSettingRef });
      const { name, ...values } = changes;
      const applied =
        found !== undefined &&
        (name === undefined || found.name === name.trim()) &&
        holds(found, values);
      return { applied };
    },
  );
}

export function deleteComfortSetting({
  comfortSettingRef,
  ...on
}: OnThermostat & { comfortSettingRef: string }) {
  return confirmWrite(
    `deleting comfort setting ${comfortSettingRef} of ${on.thermostatId}`,
    () =>
      writeThermostat(on, {
        method: 'DELETE',
        rest: `/comfortSettings/${encodeURIComponent(comfortSettingRef)}`,
        schema: comfortSettingSchema,
      }),
    async () => ({
      applied: (await findComfortSetting({ ...readingBack(on), comfortSettingRef })) === undefined,
    }),
  );
}

// --- Configuration settings --------------------------------------------------------------------

export function getSettings(on: OnThermostat) {
  return readThermostat(on, { rest: '/settings', schema: settingsSchema });
}

export type SettingsChanges = Partial<{
  heatRange: { min: number; max: number };
  coolRange: { min: number; max: number };
  holdAction: (typeof HOLD_ACTIONS)[number];
  fanMinimumOnTime: number;
}>;

/** Whether a thermostat's settings, as read, hold these changes. */
async function settingsHold(on: OnThermostat, changes: SettingsChanges): Promise<boolean> {
  const current = await getSettings(on);
  return holds({ ...current, holdAction: holdActionOf(current.holdAction) }, changes);
}

export function updateSettings({ changes, ...on }: OnThermostat & { changes: SettingsChanges }) {
  return confirmWrite(
    `configuration of ${on.thermostatId}`,
    () =>
      writeThermostat(on, {
        method: 'PATCH',
        rest: '/settings',
        body: changes,
        schema: settingsSchema,
      }),
    async () => ({ applied: await settingsHold(readingBack(on), changes) }),
  );
}

/**
 * One request for 1..25 thermostats, and a result for each of them. Where the service's answer
 * was lost, or did not list each thermostat's result, each is read back: applied as its settings
 * show, or `not_applied` / `unconfirmed`. Larger selections: see lib/bulk.
 */
export async function bulkUpdateSettings({
  orgId,
  priority,
  signal,
  thermostatIds,
  changes,
}: Who & { thermostatIds: string[]; changes: SettingsChanges }): Promise<BulkResult> {
  let answer: BulkResult | null;
  let lost: ServiceError | null = null;
  try {
    answer = await serviceWrite({
      orgId,
      priority,
      signal,
      method: 'PATCH',
      path: '/api/v2/thermostats/settings',
      body: { thermostatIds, ...changes },
      schema: bulkResultSchema,
    });
  } catch (error) {
    if (!(error instanceof ServiceError) || !mayHaveApplied(error)) throw error;
    answer = null;
    lost = error;
  }
  const listed = new Map((answer?.results ?? []).map((item) => [item.thermostatId, item]));
  const results = await Promise.all(
    thermostatIds.map(async (thermostatId): Promise<BulkItem> => {
      const item = listed.get(thermostatId);
      if (item) return item;
      const on = { orgId, priority, thermostatId };
      try {
        return (await settingsHold(on, changes))
          ? { thermostatId, status: 'success', readBack: true }
          : { thermostatId, status: 'error', code: 'not_applied', message: null };
      } catch {
        return { thermostatId, status: 'error', code: 'unconfirmed', message: null };
      }
    }),
  );
  if (lost) {
    const applied = results.filter((item) => item.status === 'success').length;
    logWarning(
      `bulk settings of ${thermostatIds.length}: the answer was lost (${lost.kind}); read back, ${applied} applied`,
    );
  }
  return { results };
}

// --- Access control ----------------------------------------------------------------------------

export type AccessControlChanges =
  | { enabled: false }
  | {
      enabled: true;
      /** Four digits; null clears it; absent leaves it as it is. */
      passcode?: string | null;
      settings?: Partial<Record<(typeof LOCK_AREAS)[number], boolean>>;
    };

/** Access control (the spec lists no read of it, so a lost answer cannot be settled). */
export function updateAccessControl({
  changes,
  ...on
}: OnThermostat & { changes: AccessControlChanges }): Promise<Written<AccessControl>> {
  return confirmWrite(
    `access control of ${on.thermostatId}`,
    () =>
      writeThermostat(on, {
        method: 'PATCH',
        rest: '/accessControl',
        body: changes,
        schema: accessControlSchema,
      }),
    null,
  );
}

// --- Alert settings ----------------------------------------------------------------------------

export function getAlertSettings(on: OnThermostat) {
  return readThermostat(on, { rest: '/alertSettings', schema: alertSettingsSchema });
}

export function updateAlertSettings({
  changes,
  ...on
}: OnThermostat & { changes: Record<string, unknown> }) {
  return confirmWrite(
    `alert settings of ${on.thermostatId}`,
    () =>
      writeThermostat(on, {
        method: 'PATCH',
        rest: '/alertSettings',
        body: changes,
        schema: alertSettingsSchema,
      }),
    async () => ({ applied: holds(await getAlertSettings(readingBack(on)), changes) }),
  );
}
