import type { SandboxContext } from './context';
import { ApiError } from './http-util';
import type { Principal } from './oauth';
import { DAYS, type HvacMode, type Thermostat } from './store';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The schedule position (Monday = 0, half-hour block 0..47) of an instant in a time zone. */
export function localBlock(timeZone: string, nowMs: number): { dayIndex: number; block: number } {
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'long',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, fmt);
  }
  const parts = fmt.formatToParts(new Date(nowMs));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '0';
  const dayIndex = Math.max(
    0,
    DAYS.indexOf(part('weekday').toLowerCase() as (typeof DAYS)[number]),
  );
  const block = Number(part('hour')) * 2 + (Number(part('minute')) >= 30 ? 1 : 0);
  return { dayIndex, block };
}

/** Applies a pending HVAC mode once its delay has passed on the sandbox clock. */
export function settle(ctx: SandboxContext, t: Thermostat): Thermostat {
  if (t.pendingMode && t.pendingMode.effectiveAt <= ctx.clock.now()) {
    t.hvacMode = t.pendingMode.mode;
    t.pendingMode = null;
  }
  return t;
}

/** A mode change reaches the API's view of the thermostat after the configured delay. */
export function requestModeChange(ctx: SandboxContext, t: Thermostat, mode: HvacMode): void {
  settle(ctx, t);
  const delay = ctx.knobs.modeChangeDelayMs;
  if (mode === t.hvacMode) {
    t.pendingMode = null;
  } else if (delay <= 0) {
    t.hvacMode = mode;
    t.pendingMode = null;
  } else {
    t.pendingMode = { mode, effectiveAt: ctx.clock.now() + delay };
  }
}

/** The caller's thermostat, or 404 for unknown ids and other accounts' thermostats alike. */
export function getOwnThermostat(
  ctx: SandboxContext,
  principal: Principal | null,
  id: string | undefined,
): Thermostat {
  const t = id && /^\d{12}$/.test(id) ? ctx.store.thermostats.get(id) : undefined;
  if (!t || !principal || t.accountId !== principal.accountId) {
    throw new ApiError(404, 'thermostat_not_found', 'Thermostat not found.');
  }
  return settle(ctx, t);
}

export function requireOnline(t: Thermostat): void {
  if (!t.connected) {
    throw new ApiError(
      409,
      'thermostat_offline',
      'The thermostat is offline; the change cannot be delivered. Try again when it reconnects.',
    );
  }
}

export function currentComfort(ctx: SandboxContext, t: Thermostat) {
  const building = ctx.store.buildings.get(t.buildingId);
  const { dayIndex, block } = localBlock(building?.timeZone ?? 'UTC', ctx.clock.now());
  const ref = t.schedule[dayIndex]?.[block];
  return t.comfortSettings.find((c) => c.comfortSettingRef === ref) ?? t.comfortSettings[0];
}

function equipmentStatus(t: Thermostat, heat: number, cool: number): string {
  if (!t.connected) return '';
  const heating = t.temperature < heat - 0.5;
  const cooling = t.temperature > cool + 0.5;
  switch (t.hvacMode) {
    case 'heat':
      return heating ? 'heatPump,fan' : '';
    case 'auxHeatOnly':
      return heating ? 'auxHeat1,fan' : '';
    case 'cool':
      return cooling ? 'compCool1,fan' : '';
    case 'auto':
      return heating ? 'heatPump,fan' : cooling ? 'compCool1,fan' : '';
    default:
      return '';
  }
}

function lastSeen(ctx: SandboxContext, t: Thermostat): string {
  if (t.lastSeenMs !== null) return new Date(t.lastSeenMs).toISOString();
  // Online devices check in every few minutes; derive a stable recent instant from the id.
  const agoSeconds = 10 + (Number(t.thermostatId.slice(-3)) % 170);
  return new Date(Math.floor(ctx.clock.now() / 1000 - agoSeconds) * 1000).toISOString();
}

/** The version 2 status record. */
export function statusRecord(ctx: SandboxContext, t: Thermostat) {
  settle(ctx, t);
  const comfort = currentComfort(ctx, t);
  const heat = comfort?.desiredHeat ?? 68;
  const cool = comfort?.desiredCool ?? 76;
  return {
    thermostatId: t.thermostatId,
    name: t.name,
    buildingId: t.buildingId,
    hvacMode: t.hvacMode,
    pendingHvacMode: t.pendingMode?.mode ?? null,
    supportedModes: [...t.supportedModes],
    temperature: t.temperature,
    humidity: t.humidity,
    isResidentMode: t.isResidentMode,
    setPoint: { desiredHeat: heat, desiredCool: cool },
    heatCoolMinDelta: t.heatCoolMinDelta,
    currentComfortSettingRef: comfort?.comfortSettingRef ?? null,
    holdAction: t.settings.holdAction,
    equipmentStatus: equipmentStatus(t, heat, cool),
    connected: t.connected,
    lastSeen: lastSeen(ctx, t),
  };
}

export function scheduleRecord(ctx: SandboxContext, t: Thermostat) {
  return {
    timeZone: ctx.store.buildings.get(t.buildingId)?.timeZone ?? 'UTC',
    days: DAYS.map((day, index) => ({ day, blocks: [...(t.schedule[index] ?? [])] })),
  };
}

export function accessControlRecord(t: Thermostat) {
  return {
    enabled: t.accessControl.enabled,
    passcode: t.accessControl.passcode ? '****' : null,
    settings: { ...t.accessControl.settings },
  };
}

function addMonths(date: string, months: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d.toISOString().slice(0, 10);
}

export function alertSettingsRecord(t: Thermostat) {
  const a = t.alertSettings;
  const r = a.hvacMaintenanceReminder;
  const nextReminderDate = !r.enabled
    ? null
    : r.maintenanceIntervalUnits === 'month'
      ? addMonths(r.lastMaintenanceDate, r.maintenanceInterval)
      : new Date(
          Date.parse(`${r.lastMaintenanceDate}T00:00:00Z`) + r.maintenanceInterval * 3600_000,
        )
          .toISOString()
          .slice(0, 10);
  return {
    hvacMaintenanceReminder: { ...r, nextReminderDate },
    lowTemperatureAlert: { ...a.lowTemperatureAlert },
    highTemperatureAlert: { ...a.highTemperatureAlert },
    lowHumidityAlert: { ...a.lowHumidityAlert },
    highHumidityAlert: { ...a.highHumidityAlert },
  };
}

export function settingsRecord(t: Thermostat) {
  return {
    heatRange: { ...t.settings.heatRange },
    coolRange: { ...t.settings.coolRange },
    holdAction: t.settings.holdAction,
    fanMinimumOnTime: t.settings.fanMinimumOnTime,
  };
}
