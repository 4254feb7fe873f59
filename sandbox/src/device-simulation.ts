import type { SandboxContext } from './context';
import { ApiError, badRequest } from './http-util';
import { goOffline, goOnline, HVAC_MODES, type HvacMode, type Thermostat } from './store';
import { equipmentStatus } from './equipment';
import { currentConditions, requestModeChange, statusRecord } from './thermostats';
import { isBuildingId, isThermostatId } from './validation';

/**
 * `PATCH /_sandbox/thermostats/{id}` and its bulk form `PATCH /_sandbox/thermostats`: what the
 * device reports to the cloud (readings, connectivity, a mode changed at the thermostat), so
 * tests can drive offline/online, freeze and overheat.
 */

const CHANGE_FIELDS = ['hvacMode', 'temperature', 'humidity', 'connected'];
const SELECTOR_FIELDS = ['thermostatIds', 'buildingId'];
/** The readings a thermostat's sensors can report. */
const TEMPERATURE_RANGE_F = { min: -40, max: 140 };
const HUMIDITY_RANGE = { min: 0, max: 100 };

interface DeviceChange {
  hvacMode?: HvacMode;
  temperature?: number;
  humidity?: number;
  connected?: boolean;
}

function reading(name: string, value: unknown, range: { min: number; max: number }): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) badRequest(`${name} must be a number`);
  if (value < range.min || value > range.max) {
    badRequest(`${name} must be between ${range.min} and ${range.max}`);
  }
  return value;
}

/** Checks every field before anything changes: a bad request changes no device. */
function parseChange(body: Record<string, unknown>, extraFields: string[] = []): DeviceChange {
  for (const key of Object.keys(body)) {
    if (!CHANGE_FIELDS.includes(key) && !extraFields.includes(key)) {
      badRequest(`Unknown field: ${key}`);
    }
  }
  if (!CHANGE_FIELDS.some((field) => field in body)) {
    badRequest(`Provide at least one of: ${CHANGE_FIELDS.join(', ')}`);
  }
  const change: DeviceChange = {};
  if ('hvacMode' in body) {
    if (!HVAC_MODES.includes(body.hvacMode as HvacMode)) {
      badRequest(`hvacMode must be one of ${HVAC_MODES.join(', ')}`);
    }
    change.hvacMode = body.hvacMode as HvacMode;
  }
  if ('temperature' in body) {
    const temperature = reading('temperature', body.temperature, TEMPERATURE_RANGE_F);
    change.temperature = Math.round(temperature * 100) / 100;
  }
  if ('humidity' in body) change.humidity = reading('humidity', body.humidity, HUMIDITY_RANGE);
  if ('connected' in body) {
    if (typeof body.connected !== 'boolean') badRequest('connected must be a boolean');
    change.connected = body.connected;
  }
  return change;
}

function checkSupported(thermostat: Thermostat, change: DeviceChange): void {
  if (change.hvacMode && !thermostat.supportedModes.includes(change.hvacMode)) {
    badRequest(
      `hvacMode ${change.hvacMode} is not one of thermostat ${thermostat.thermostatId}'s supportedModes`,
    );
  }
}

function applyChange(ctx: SandboxContext, thermostat: Thermostat, change: DeviceChange): void {
  if (change.hvacMode) requestModeChange(ctx, thermostat, change.hvacMode);
  if (change.temperature !== undefined) thermostat.temperature = change.temperature;
  if (change.humidity !== undefined) thermostat.humidity = change.humidity;
  if (change.connected === true) goOnline(thermostat);
  if (change.connected === false) goOffline(ctx.clock.now(), thermostat);
}

/**
 * When the device last checked in, on the sandbox clock. Offline: `min(sinceMs, now) -
 * silentBeforeMs`, so it ages as the clock runs and is never in the future. Online devices check
 * in every few minutes: a stable recent instant derived from the id.
 */
function lastSeen(ctx: SandboxContext, thermostat: Thermostat): string {
  const now = ctx.clock.now();
  const { offline } = thermostat;
  if (!thermostat.connected && offline !== null) {
    return new Date(Math.min(offline.sinceMs, now) - offline.silentBeforeMs).toISOString();
  }
  const agoSeconds = 10 + (Number(thermostat.thermostatId.slice(-3)) % 170);
  return new Date(Math.floor(now / 1000 - agoSeconds) * 1000).toISOString();
}

/**
 * The control API's view of a device (never sent by the service API): the simulation's own fields
 * (building, account, pending mode, supported modes, current comfort ref, hold action,
 * `equipmentStatus`, `connected`, `lastSeen`) and every field of the production status record.
 */
export function deviceRecord(ctx: SandboxContext, thermostat: Thermostat) {
  const now = currentConditions(ctx, thermostat);
  return {
    thermostatId: thermostat.thermostatId,
    name: thermostat.name,
    thermostatName: thermostat.thermostatName,
    buildingId: thermostat.buildingId,
    // hvacMode, temperature, humidity, isResidentMode, setPoint, heatCoolMinDelta and the rest.
    ...statusRecord(ctx, thermostat),
    pendingHvacMode: thermostat.pendingMode?.mode ?? null,
    supportedModes: [...thermostat.supportedModes],
    currentComfortSettingRef: now.comfort?.comfortSettingRef ?? null,
    holdAction: thermostat.settings.holdAction,
    equipmentStatus: equipmentStatus(thermostat, now),
    connected: thermostat.connected,
    lastSeen: lastSeen(ctx, thermostat),
    accountId: thermostat.accountId,
  };
}

export function findDevice(ctx: SandboxContext, thermostatId: string): Thermostat {
  const thermostat = ctx.store.thermostats.get(thermostatId);
  if (!thermostat) throw new ApiError(404, 'thermostat_not_found', 'Thermostat not found.');
  return thermostat;
}

/** `PATCH /_sandbox/thermostats/{id}`. */
export function changeDevice(
  ctx: SandboxContext,
  thermostatId: string,
  body: Record<string, unknown>,
) {
  const thermostat = findDevice(ctx, thermostatId);
  const change = parseChange(body);
  checkSupported(thermostat, change);
  applyChange(ctx, thermostat, change);
  return deviceRecord(ctx, thermostat);
}

/** The devices a bulk change names: `thermostatIds` (any account's) or a whole `buildingId`. */
function selectDevices(ctx: SandboxContext, body: Record<string, unknown>): Thermostat[] {
  const selectors = SELECTOR_FIELDS.filter((field) => field in body);
  if (selectors.length !== 1) badRequest('Name the devices with thermostatIds or buildingId');
  if ('buildingId' in body) {
    const { buildingId } = body;
    if (!isBuildingId(buildingId) || !ctx.store.buildings.has(buildingId)) {
      throw new ApiError(404, 'building_not_found', `Unknown building: ${String(buildingId)}`);
    }
    return [...ctx.store.thermostats.values()].filter(
      (thermostat) => thermostat.buildingId === buildingId,
    );
  }
  const ids = body.thermostatIds;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every(isThermostatId)) {
    badRequest('thermostatIds must be a non-empty array of 12-digit thermostat ids');
  }
  const unknown = ids.filter((id) => !ctx.store.thermostats.has(id));
  if (unknown.length > 0) {
    throw new ApiError(404, 'thermostat_not_found', `Unknown thermostats: ${unknown.join(', ')}`);
  }
  return [...new Set(ids)].map((id) => findDevice(ctx, id));
}

/** `PATCH /_sandbox/thermostats`: one change for many devices, all checked before any applies. */
export function changeDevices(ctx: SandboxContext, body: Record<string, unknown>) {
  const change = parseChange(body, SELECTOR_FIELDS);
  const devices = selectDevices(ctx, body);
  for (const thermostat of devices) checkSupported(thermostat, change);
  for (const thermostat of devices) applyChange(ctx, thermostat, change);
  return {
    updated: devices.length,
    thermostats: devices.map((thermostat) => deviceRecord(ctx, thermostat)),
  };
}
