import type { SandboxContext } from './context';
import { runningEquipment } from './equipment';
import { ApiError } from './http-util';
import type { Principal } from './oauth';
import {
  addMonths,
  DAYS,
  defaultMode,
  type HvacMode,
  resetToDefaults,
  type Thermostat,
} from './store';
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

/**
 * Applies what the device has applied by now on the sandbox clock: a pending resident-mode change
 * (and the reset that turning it off makes), then a pending HVAC mode.
 */
export function settle(ctx: SandboxContext, thermostat: Thermostat): Thermostat {
  const resident = thermostat.pendingResidentMode;
  if (resident && resident.effectiveAt <= ctx.clock.now()) {
    thermostat.pendingResidentMode = null;
    applyResidentMode(ctx, thermostat, resident.isResidentMode);
  }
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

/**
 * Resident mode (v2) or tenant mode (v1): the device applies it after `residentModeDelayMs` on
 * the sandbox clock (at once by default); until then the status shows the mode it had.
 */
export function setResidentMode(
  ctx: SandboxContext,
  thermostat: Thermostat,
  isResidentMode: boolean,
): void {
  const delay = ctx.knobs.residentModeDelayMs;
  if (delay <= 0) {
    thermostat.pendingResidentMode = null;
    applyResidentMode(ctx, thermostat, isResidentMode);
  } else {
    thermostat.pendingResidentMode = { isResidentMode, effectiveAt: ctx.clock.now() + delay };
  }
}

/** Turning resident mode off (from on) resets most settings to defaults. */
function applyResidentMode(
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

/** The setpoints and fans in force now: the comfort setting the schedule names for this half hour. */
export function currentConditions(ctx: SandboxContext, thermostat: Thermostat) {
  settle(ctx, thermostat);
  const comfort = currentComfort(ctx, thermostat);
  return {
    comfort,
    desiredHeat: comfort?.desiredHeat ?? 68,
    desiredCool: comfort?.desiredCool ?? 76,
    fanHeat: comfort?.fanHeat ?? 'auto',
    fanCool: comfort?.fanCool ?? 'auto',
  };
}

/** The production status record's `comfortSetting` is a name of at most 12 characters. */
export const COMFORT_NAME_MAX = 12;

/** A comfort setting's name as the status record carries it: its first 12 characters. */
export function shortComfortName(name: string): string {
  return [...name].slice(0, COMFORT_NAME_MAX).join('');
}

/**
 * The version 2 status record, exactly the production v2 fields (see the realism page's
 * "Production v2 reference"): nothing the sandbox keeps for its own simulation (building, last
 * check-in, pending mode, supported modes, refs) is in it; the control API's `deviceRecord` adds
 * those.
 */
export function statusRecord(ctx: SandboxContext, thermostat: Thermostat) {
  const now = currentConditions(ctx, thermostat);
  return {
    id: thermostat.thermostatId,
    isConnected: thermostat.connected,
    hvacMode: thermostat.hvacMode,
    temperature: thermostat.temperature,
    humidity: Math.round(thermostat.humidity),
    comfortSetting: shortComfortName(now.comfort?.name ?? ''),
    desiredHeatRange: { ...thermostat.settings.heatRange },
    desiredCoolRange: { ...thermostat.settings.coolRange },
    desiredHumidity: thermostat.desiredHumidity,
    desiredDehumidity: thermostat.desiredDehumidity,
    heatCoolMinDelta: thermostat.heatCoolMinDelta,
    runningEquipment: runningEquipment(thermostat, now),
    setPoint: { desiredHeat: now.desiredHeat, desiredCool: now.desiredCool },
    isResidentMode: thermostat.isResidentMode,
  };
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** A time zone's UTC offset in minutes at an instant (e.g. -300 for New York in winter). */
export function timeZoneOffsetMinutes(timeZone: string, nowMs: number): number {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormatters.set(timeZone, formatter);
  }
  const name =
    formatter.formatToParts(new Date(nowMs)).find((part) => part.type === 'timeZoneName')?.value ??
    'GMT';
  const match = /^GMT([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

/**
 * The production thermostat summary, what create and move answer: the building's current UTC
 * offset is taken at the sandbox clock's now.
 */
export function thermostatSummary(ctx: SandboxContext, thermostat: Thermostat) {
  const building = ctx.store.buildings.get(thermostat.buildingId);
  return {
    id: thermostat.thermostatId,
    buildingId: thermostat.buildingId,
    name: thermostat.name,
    thermostatName: thermostat.thermostatName,
    timeZoneOffsetMinutes: timeZoneOffsetMinutes(building?.timeZone ?? 'UTC', ctx.clock.now()),
    hvacModes: [...thermostat.supportedModes],
  };
}

/** The schedule as the service API reads it: 7 days, Monday first, 48 comfort setting refs each. */
export function scheduleRecord(thermostat: Thermostat) {
  return {
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

/** The alert settings with the thermostat's `id`, as the production alertSettings response. */
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
    id: thermostat.thermostatId,
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
