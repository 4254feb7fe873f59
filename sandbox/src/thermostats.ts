import type { SandboxContext } from './context';
import { equipmentStatus } from './equipment';
import { ApiError } from './http-util';
import type { Principal } from './oauth';
import { DAYS, defaultMode, type HvacMode, resetToDefaults, type Thermostat } from './store';
import { isThermostatId } from './validation';

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The last position computed per zone, by minute: every zone's offset is whole minutes. */
const positions = new Map<string, { minute: number; position: SchedulePosition }>();

interface SchedulePosition {
  dayIndex: number;
  block: number;
}

/**
 * The schedule position (Monday = 0, half-hour block 0..47) of an instant in a time zone.
 * Cached per zone and minute: a fleet's status reads then format a date once per zone.
 */
export function localBlock(timeZone: string, nowMs: number): SchedulePosition {
  const minute = Math.floor(nowMs / 60_000);
  const cached = positions.get(timeZone);
  if (cached?.minute === minute) return cached.position;
  const position = formatLocalBlock(timeZone, nowMs);
  positions.set(timeZone, { minute, position });
  return position;
}

function formatLocalBlock(timeZone: string, nowMs: number): SchedulePosition {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'long',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(new Date(nowMs));
  const part = (type: string) => parts.find((candidate) => candidate.type === type)?.value ?? '0';
  const dayIndex = Math.max(
    0,
    DAYS.indexOf(part('weekday').toLowerCase() as (typeof DAYS)[number]),
  );
  const block = Number(part('hour')) * 2 + (Number(part('minute')) >= 30 ? 1 : 0);
  return { dayIndex, block };
}

/** Applies a pending HVAC mode once its delay has passed on the sandbox clock. */
export function settle(ctx: SandboxContext, thermostat: Thermostat): Thermostat {
  if (thermostat.pendingMode && thermostat.pendingMode.effectiveAt <= ctx.clock.now()) {
    thermostat.hvacMode = thermostat.pendingMode.mode;
    thermostat.pendingMode = null;
  }
  return thermostat;
}

/** A mode change reaches the API's view of the thermostat after the configured delay. */
export function requestModeChange(
  ctx: SandboxContext,
  thermostat: Thermostat,
  mode: HvacMode,
): void {
  settle(ctx, thermostat);
  const delay = ctx.knobs.modeChangeDelayMs;
  if (mode === thermostat.hvacMode) {
    thermostat.pendingMode = null;
  } else if (delay <= 0) {
    thermostat.hvacMode = mode;
    thermostat.pendingMode = null;
  } else {
    thermostat.pendingMode = { mode, effectiveAt: ctx.clock.now() + delay };
  }
}

/** Resident mode (v2) or tenant mode (v1): turning it off resets most settings to defaults. */
export function setResidentMode(
  ctx: SandboxContext,
  thermostat: Thermostat,
  isResidentMode: boolean,
): void {
  const wasOn = thermostat.isResidentMode;
  thermostat.isResidentMode = isResidentMode;
  if (wasOn && !isResidentMode) {
    resetToDefaults(thermostat);
    requestModeChange(ctx, thermostat, defaultMode(thermostat.supportedModes));
  }
}

/** The caller's thermostat, or 404 for unknown ids and other accounts' thermostats alike. */
export function getOwnThermostat(
  ctx: SandboxContext,
  principal: Principal | null,
  id: string | undefined,
): Thermostat {
  const thermostat = isThermostatId(id) ? ctx.store.thermostats.get(id) : undefined;
  if (!thermostat || !principal || thermostat.accountId !== principal.accountId) {
    throw new ApiError(404, 'thermostat_not_found', 'Thermostat not found.');
  }
  return settle(ctx, thermostat);
}

/** The device stops checking in now (sandbox clock); it was last heard from `silentBeforeMs` ago. */
export function goOffline(nowMs: number, thermostat: Thermostat, silentBeforeMs = 0): void {
  if (!thermostat.connected) return;
  thermostat.connected = false;
  thermostat.offline = { sinceMs: nowMs, silentBeforeMs };
}

export function goOnline(thermostat: Thermostat): void {
  thermostat.connected = true;
  thermostat.offline = null;
}

export function requireOnline(thermostat: Thermostat): void {
  if (!thermostat.connected) {
    throw new ApiError(
      409,
      'thermostat_offline',
      'The thermostat is offline; the change cannot be delivered. Try again when it reconnects.',
    );
  }
}

export function currentComfort(ctx: SandboxContext, thermostat: Thermostat) {
  const building = ctx.store.buildings.get(thermostat.buildingId);
  const { dayIndex, block } = localBlock(building?.timeZone ?? 'UTC', ctx.clock.now());
  const ref = thermostat.schedule[dayIndex]?.[block];
  return (
    thermostat.comfortSettings.find((setting) => setting.comfortSettingRef === ref) ??
    thermostat.comfortSettings[0]
  );
}

function lastSeen(ctx: SandboxContext, thermostat: Thermostat): string {
  const now = ctx.clock.now();
  const { offline } = thermostat;
  if (!thermostat.connected && offline !== null) {
    return new Date(Math.min(offline.sinceMs, now) - offline.silentBeforeMs).toISOString();
  }
  // Online devices check in every few minutes; derive a stable recent instant from the id.
  const agoSeconds = 10 + (Number(thermostat.thermostatId.slice(-3)) % 170);
  return new Date(Math.floor(now / 1000 - agoSeconds) * 1000).toISOString();
}

/** The version 2 status record. */
export function statusRecord(ctx: SandboxContext, thermostat: Thermostat) {
  settle(ctx, thermostat);
  const comfort = currentComfort(ctx, thermostat);
  const heat = comfort?.desiredHeat ?? 68;
  const cool = comfort?.desiredCool ?? 76;
  const fans = { fanHeat: comfort?.fanHeat ?? 'auto', fanCool: comfort?.fanCool ?? 'auto' };
  return {
    thermostatId: thermostat.thermostatId,
    name: thermostat.name,
    buildingId: thermostat.buildingId,
    hvacMode: thermostat.hvacMode,
    pendingHvacMode: thermostat.pendingMode?.mode ?? null,
    supportedModes: [...thermostat.supportedModes],
    temperature: thermostat.temperature,
    humidity: thermostat.humidity,
    isResidentMode: thermostat.isResidentMode,
    setPoint: { desiredHeat: heat, desiredCool: cool },
    heatCoolMinDelta: thermostat.heatCoolMinDelta,
    currentComfortSettingRef: comfort?.comfortSettingRef ?? null,
    holdAction: thermostat.settings.holdAction,
    equipmentStatus: equipmentStatus(thermostat, { desiredHeat: heat, desiredCool: cool, ...fans }),
    connected: thermostat.connected,
    lastSeen: lastSeen(ctx, thermostat),
  };
}

export function scheduleRecord(ctx: SandboxContext, thermostat: Thermostat) {
  return {
    timeZone: ctx.store.buildings.get(thermostat.buildingId)?.timeZone ?? 'UTC',
    days: DAYS.map((day, index) => ({ day, blocks: [...(thermostat.schedule[index] ?? [])] })),
  };
}

export function accessControlRecord(thermostat: Thermostat) {
  return {
    enabled: thermostat.accessControl.enabled,
    passcode: thermostat.accessControl.passcode ? '****' : null,
    settings: { ...thermostat.accessControl.settings },
  };
}

function addMonths(date: string, months: number): string {
  const result = new Date(`${date}T00:00:00Z`);
  const dayOfMonth = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(
    Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0),
  ).getUTCDate();
  result.setUTCDate(Math.min(dayOfMonth, lastDay));
  return result.toISOString().slice(0, 10);
}

export function alertSettingsRecord(thermostat: Thermostat) {
  const alerts = thermostat.alertSettings;
  const reminder = alerts.hvacMaintenanceReminder;
  const nextReminderDate = !reminder.enabled
    ? null
    : reminder.maintenanceIntervalUnits === 'month'
      ? addMonths(reminder.lastMaintenanceDate, reminder.maintenanceInterval)
      : new Date(
          Date.parse(`${reminder.lastMaintenanceDate}T00:00:00Z`) +
            reminder.maintenanceInterval * 3600_000,
        )
          .toISOString()
          .slice(0, 10);
  return {
    hvacMaintenanceReminder: { ...reminder, nextReminderDate },
    lowTemperatureAlert: { ...alerts.lowTemperatureAlert },
    highTemperatureAlert: { ...alerts.highTemperatureAlert },
    lowHumidityAlert: { ...alerts.lowHumidityAlert },
    highHumidityAlert: { ...alerts.highHumidityAlert },
  };
}

export function settingsRecord(thermostat: Thermostat) {
  return {
    heatRange: { ...thermostat.settings.heatRange },
    coolRange: { ...thermostat.settings.coolRange },
    holdAction: thermostat.settings.holdAction,
    fanMinimumOnTime: thermostat.settings.fanMinimumOnTime,
  };
}
