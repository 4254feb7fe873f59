import { randomInt } from 'node:crypto';
import type { SandboxContext } from './context';
import { ApiError, sendSuccess } from './http-util';
import { takeItemFault } from './knobs';
import type { Principal } from './oauth';
import type { ApiRoute } from './routing';
import {
  DAYS,
  DEFAULT_COMFORT_REFS,
  DEVICE_COOL_LIMITS,
  DEVICE_HEAT_LIMITS,
  defaultAccessControl,
  defaultAlertSettings,
  defaultComfortSettings,
  defaultMode,
  defaultSettings,
  FAN_VALUES,
  HOLD_ACTIONS,
  HVAC_MODES,
  type HvacMode,
  LOCK_KEYS,
  type Range,
  resetToDefaults,
  residentialSchedule,
  type Thermostat,
  type ThermostatSettings,
} from './store';
import {
  accessControlRecord,
  alertSettingsRecord,
  getOwnThermostat,
  requestModeChange,
  requireOnline,
  scheduleRecord,
  settingsRecord,
  statusRecord,
} from './thermostats';
import {
  boolean,
  decimal,
  FieldErrors,
  integer,
  isObject,
  isoDate,
  join,
  oneOf,
  rejectUnknown,
  string,
} from './validation';

const T = '/api/v2/thermostats';
const SETTINGS_FIELDS = ['heatRange', 'coolRange', 'holdAction', 'fanMinimumOnTime'] as const;
const COMFORT_FIELDS = ['name', 'desiredHeat', 'desiredCool', 'fanHeat', 'fanCool'] as const;

function requireBody(f: FieldErrors, body: Record<string, unknown>, fields: readonly string[]) {
  if (!fields.some((k) => k in body))
    f.add('body', `Provide at least one of: ${fields.join(', ')}.`);
}

/** Setpoints inside the thermostat's ranges and at least heatCoolMinDelta apart. */
function checkSetpoints(
  f: FieldErrors,
  t: Thermostat,
  heat: number,
  cool: number,
  paths: { heat: string; cool: string; blame: string[] },
): void {
  const { heatRange, coolRange } = t.settings;
  if (heat < heatRange.min || heat > heatRange.max) {
    f.add(paths.heat, `Must be within the heat range ${heatRange.min}-${heatRange.max} F.`);
  }
  if (cool < coolRange.min || cool > coolRange.max) {
    f.add(paths.cool, `Must be within the cool range ${coolRange.min}-${coolRange.max} F.`);
  }
  if (cool - heat < t.heatCoolMinDelta) {
    const message = `Heat and cool setpoints must be at least ${t.heatCoolMinDelta} F apart (heat ${heat}, cool ${cool}).`;
    for (const path of paths.blame) f.add(path, message);
  }
}

// ---------- configuration settings (single and bulk) ----------

type SettingsPatch = Partial<ThermostatSettings>;

function parseRange(
  f: FieldErrors,
  path: string,
  value: unknown,
  limits: Range,
): Range | undefined {
  if (!isObject(value)) {
    f.add(path, 'Must be an object with min and max.');
    return undefined;
  }
  rejectUnknown(f, value, ['min', 'max'], path);
  if (value.min === undefined) f.add(join(path, 'min'), 'Required.');
  if (value.max === undefined) f.add(join(path, 'max'), 'Required.');
  const lo =
    value.min === undefined
      ? undefined
      : decimal(f, join(path, 'min'), value.min, limits.min, limits.max, ' F');
  const hi =
    value.max === undefined
      ? undefined
      : decimal(f, join(path, 'max'), value.max, limits.min, limits.max, ' F');
  if (lo === undefined || hi === undefined) return undefined;
  if (lo >= hi) {
    f.add(join(path, 'min'), 'Must be lower than max.');
    return undefined;
  }
  return { min: lo, max: hi };
}

function parseSettingsPatch(f: FieldErrors, body: Record<string, unknown>): SettingsPatch {
  const patch: SettingsPatch = {};
  if ('heatRange' in body)
    patch.heatRange = parseRange(f, 'heatRange', body.heatRange, DEVICE_HEAT_LIMITS);
  if ('coolRange' in body)
    patch.coolRange = parseRange(f, 'coolRange', body.coolRange, DEVICE_COOL_LIMITS);
  if ('holdAction' in body) {
    if (body.holdAction === 'nextTransition') {
      f.add(
        'holdAction',
        `nextTransition is reported by older devices but cannot be written; use one of: ${HOLD_ACTIONS.join(', ')}.`,
      );
    } else patch.holdAction = oneOf(f, 'holdAction', body.holdAction, HOLD_ACTIONS);
  }
  if ('fanMinimumOnTime' in body) {
    patch.fanMinimumOnTime = integer(f, 'fanMinimumOnTime', body.fanMinimumOnTime, 0, 55);
  }
  return patch;
}

/** Per-thermostat checks of a settings patch: existing comfort settings must fit the new ranges. */
function checkSettingsAgainst(f: FieldErrors, t: Thermostat, patch: SettingsPatch): void {
  for (const c of t.comfortSettings) {
    if (
      patch.heatRange &&
      (c.desiredHeat < patch.heatRange.min || c.desiredHeat > patch.heatRange.max)
    ) {
      f.add(
        'heatRange',
        `Comfort setting ${c.comfortSettingRef} heats to ${c.desiredHeat} F, outside the new range.`,
      );
    }
    if (
      patch.coolRange &&
      (c.desiredCool < patch.coolRange.min || c.desiredCool > patch.coolRange.max)
    ) {
      f.add(
        'coolRange',
        `Comfort setting ${c.comfortSettingRef} cools to ${c.desiredCool} F, outside the new range.`,
      );
    }
  }
}

function applySettings(t: Thermostat, patch: SettingsPatch): void {
  if (patch.heatRange) t.settings.heatRange = patch.heatRange;
  if (patch.coolRange) t.settings.coolRange = patch.coolRange;
  if (patch.holdAction) t.settings.holdAction = patch.holdAction;
  if (patch.fanMinimumOnTime !== undefined) t.settings.fanMinimumOnTime = patch.fanMinimumOnTime;
}

function patchSettings(t: Thermostat, body: Record<string, unknown>): void {
  const f = new FieldErrors();
  rejectUnknown(f, body, SETTINGS_FIELDS);
  requireBody(f, body, SETTINGS_FIELDS);
  const patch = parseSettingsPatch(f, body);
  f.throwIfAny();
  checkSettingsAgainst(f, t, patch);
  f.throwIfAny();
  requireOnline(t);
  applySettings(t, patch);
}

function bulkSettings(
  ctx: SandboxContext,
  principal: Principal,
  body: Record<string, unknown>,
  key: string,
) {
  const f = new FieldErrors();
  rejectUnknown(f, body, ['thermostatIds', ...SETTINGS_FIELDS]);
  const ids = body.thermostatIds;
  if (!Array.isArray(ids)) f.add('thermostatIds', 'Required: an array of 1 to 25 thermostat ids.');
  else if (ids.length < 1 || ids.length > 25) {
    f.add('thermostatIds', `Must list 1 to 25 thermostat ids (got ${ids.length}).`);
  } else {
    const seen = new Set<string>();
    ids.forEach((id, i) => {
      if (typeof id !== 'string' || !/^\d{12}$/.test(id))
        f.add(`thermostatIds.${i}`, 'Must be a 12-digit thermostat id.');
      else if (seen.has(id)) f.add(`thermostatIds.${i}`, 'Duplicate thermostat id.');
      else seen.add(id);
    });
  }
  requireBody(f, body, SETTINGS_FIELDS);
  const patch = parseSettingsPatch(f, body);
  f.throwIfAny();
  const results = (ids as string[]).map((thermostatId) => {
    let t: Thermostat;
    try {
      t = getOwnThermostat(ctx, principal, thermostatId);
    } catch {
      return {
        thermostatId,
        status: 'error',
        code: 'thermostat_not_found',
        message: 'Thermostat not found.',
      };
    }
    const fault = takeItemFault(ctx, key, thermostatId);
    if (fault !== null) {
      return {
        thermostatId,
        status: 'error',
        code: fault === 503 ? 'service_unavailable' : 'internal_error',
        message: `Injected failure (HTTP ${fault}).`,
      };
    }
    if (!t.connected) {
      return {
        thermostatId,
        status: 'error',
        code: 'thermostat_offline',
        message: 'The thermostat is offline.',
      };
    }
    const itemErrors = new FieldErrors();
    checkSettingsAgainst(itemErrors, t, patch);
    if (!itemErrors.empty) return { thermostatId, status: 'fail', data: itemErrors.errors };
    applySettings(t, patch);
    return { thermostatId, status: 'success', data: settingsRecord(t) };
  });
  const succeeded = results.filter((r) => r.status === 'success').length;
  return { results, succeeded, failed: results.length - succeeded };
}

// ---------- comfort settings ----------

function parseComfortFields(f: FieldErrors, body: Record<string, unknown>, required: boolean) {
  const out: {
    name?: string;
    desiredHeat?: number;
    desiredCool?: number;
    fanHeat?: 'auto' | 'on';
    fanCool?: 'auto' | 'on';
  } = {};
  if (required) {
    for (const k of ['name', 'desiredHeat', 'desiredCool'] as const)
      if (!(k in body)) f.add(k, 'Required.');
  }
  if ('name' in body) {
    const name = string(f, 'name', body.name, 1, 32);
    if (name !== undefined && name.trim() === '') f.add('name', 'Must not be blank.');
    else out.name = name?.trim();
  }
  if ('desiredHeat' in body)
    out.desiredHeat = decimal(
      f,
      'desiredHeat',
      body.desiredHeat,
      DEVICE_HEAT_LIMITS.min,
      DEVICE_HEAT_LIMITS.max,
      ' F',
    );
  if ('desiredCool' in body)
    out.desiredCool = decimal(
      f,
      'desiredCool',
      body.desiredCool,
      DEVICE_COOL_LIMITS.min,
      DEVICE_COOL_LIMITS.max,
      ' F',
    );
  if ('fanHeat' in body) out.fanHeat = oneOf(f, 'fanHeat', body.fanHeat, FAN_VALUES);
  if ('fanCool' in body) out.fanCool = oneOf(f, 'fanCool', body.fanCool, FAN_VALUES);
  return out;
}

function checkUniqueName(
  f: FieldErrors,
  t: Thermostat,
  name: string | undefined,
  ownRef: string | null,
) {
  if (name === undefined) return;
  const clash = t.comfortSettings.find(
    (c) => c.name.toLowerCase() === name.toLowerCase() && c.comfortSettingRef !== ownRef,
  );
  if (clash) f.add('name', `Already used by comfort setting ${clash.comfortSettingRef}.`);
}

// ---------- alert settings ----------

function patchAlerts(t: Thermostat, body: Record<string, unknown>): void {
  const f = new FieldErrors();
  const allowed = [
    'hvacMaintenanceReminder',
    'lowTemperatureAlert',
    'highTemperatureAlert',
    'lowHumidityAlert',
    'highHumidityAlert',
  ];
  rejectUnknown(f, body, allowed, '', {
    acMaintenanceReminder:
      'acMaintenanceReminder was removed in API v2; use hvacMaintenanceReminder.',
  });
  requireBody(f, body, allowed);
  const next = structuredClone(t.alertSettings);
  const r = body.hvacMaintenanceReminder;
  if (r !== undefined) {
    if (!isObject(r)) f.add('hvacMaintenanceReminder', 'Must be an object.');
    else {
      const p = 'hvacMaintenanceReminder';
      rejectUnknown(
        f,
        r,
        ['enabled', 'lastMaintenanceDate', 'maintenanceInterval', 'maintenanceIntervalUnits'],
        p,
        {
          nextReminderDate: 'Read-only: computed from lastMaintenanceDate and the interval.',
        },
      );
      const m = next.hvacMaintenanceReminder;
      if ('enabled' in r) m.enabled = boolean(f, `${p}.enabled`, r.enabled) ?? m.enabled;
      if ('lastMaintenanceDate' in r)
        m.lastMaintenanceDate =
          isoDate(f, `${p}.lastMaintenanceDate`, r.lastMaintenanceDate) ?? m.lastMaintenanceDate;
      if ('maintenanceIntervalUnits' in r)
        m.maintenanceIntervalUnits =
          oneOf(f, `${p}.maintenanceIntervalUnits`, r.maintenanceIntervalUnits, [
            'month',
            'hour',
          ] as const) ?? m.maintenanceIntervalUnits;
      if ('maintenanceInterval' in r)
        m.maintenanceInterval =
          integer(f, `${p}.maintenanceInterval`, r.maintenanceInterval, 1, 10_000) ??
          m.maintenanceInterval;
      if (m.maintenanceIntervalUnits === 'month' && m.maintenanceInterval > 60) {
        f.add(`${p}.maintenanceInterval`, 'Must be between 1 and 60 months.');
      }
    }
  }
  const alerts = [
    ['lowTemperatureAlert', -10, 120],
    ['highTemperatureAlert', -10, 120],
    ['lowHumidityAlert', 1, 95],
    ['highHumidityAlert', 6, 100],
  ] as const;
  for (const [name, min, max] of alerts) {
    const value = body[name];
    if (value === undefined) continue;
    if (!isObject(value)) {
      f.add(name, 'Must be an object with enabled and value.');
      continue;
    }
    rejectUnknown(f, value, ['enabled', 'value'], name);
    if ('enabled' in value)
      next[name].enabled = boolean(f, `${name}.enabled`, value.enabled) ?? next[name].enabled;
    if ('value' in value) {
      const v = name.includes('Humidity')
        ? integer(f, `${name}.value`, value.value, min, max)
        : decimal(f, `${name}.value`, value.value, min, max, ' F');
      if (v !== undefined) next[name].value = v;
    }
  }
  f.throwIfAny();
  if (next.highTemperatureAlert.value - next.lowTemperatureAlert.value < t.heatCoolMinDelta) {
    const message = `Low and high temperature alerts must be at least ${t.heatCoolMinDelta} F apart.`;
    f.add(
      'lowTemperatureAlert' in body ? 'lowTemperatureAlert.value' : 'highTemperatureAlert.value',
      message,
    );
    if ('highTemperatureAlert' in body) f.add('highTemperatureAlert.value', message);
  }
  if (next.highHumidityAlert.value - next.lowHumidityAlert.value < 5) {
    const message = 'Low and high humidity alerts must be at least 5 % apart.';
    f.add(
      'lowHumidityAlert' in body ? 'lowHumidityAlert.value' : 'highHumidityAlert.value',
      message,
    );
    if ('highHumidityAlert' in body) f.add('highHumidityAlert.value', message);
  }
  f.throwIfAny();
  requireOnline(t);
  t.alertSettings = next;
}

// ---------- access control ----------

function patchAccessControl(t: Thermostat, body: Record<string, unknown>): void {
  const f = new FieldErrors();
  rejectUnknown(f, body, ['enabled', 'passcode', 'settings']);
  if (!('enabled' in body)) f.add('enabled', 'Required: true or false.');
  const enabled = 'enabled' in body ? boolean(f, 'enabled', body.enabled) : undefined;
  let passcode: string | null | undefined;
  let settings: Partial<Record<(typeof LOCK_KEYS)[number], boolean>> | undefined;
  if ('passcode' in body) {
    if (enabled !== true) f.add('passcode', 'May only be provided when enabled is true.');
    else if (body.passcode === null) passcode = null;
    else if (typeof body.passcode === 'string' && /^\d{4}$/.test(body.passcode))
      passcode = body.passcode;
    else if (
      typeof body.passcode === 'number' &&
      Number.isInteger(body.passcode) &&
      body.passcode >= 1000 &&
      body.passcode <= 9999
    )
      passcode = String(body.passcode);
    else f.add('passcode', 'Must be exactly 4 digits.');
  }
  if ('settings' in body) {
    if (enabled !== true) f.add('settings', 'May only be provided when enabled is true.');
    else if (!isObject(body.settings)) f.add('settings', 'Must be an object of booleans.');
    else {
      rejectUnknown(f, body.settings, LOCK_KEYS, 'settings');
      settings = {};
      for (const k of LOCK_KEYS) {
        if (k in body.settings) settings[k] = boolean(f, `settings.${k}`, body.settings[k]);
      }
    }
  }
  f.throwIfAny();
  requireOnline(t);
  if (enabled === false) {
    t.accessControl = defaultAccessControl();
    return;
  }
  t.accessControl.enabled = true;
  if (passcode !== undefined) t.accessControl.passcode = passcode;
  if (settings) Object.assign(t.accessControl.settings, settings);
}

// ---------- create and move ----------

function newThermostatId(ctx: SandboxContext): string {
  for (;;) {
    const id = `6${String(randomInt(0, 1e11)).padStart(11, '0')}`;
    if (!ctx.store.thermostats.has(id)) return id;
  }
}

function createThermostat(
  ctx: SandboxContext,
  principal: Principal,
  buildingId: string,
  body: Record<string, unknown>,
) {
  const building = ctx.store.buildings.get(buildingId);
  if (
    !/^[0-9a-f]{24}$/.test(buildingId) ||
    !building ||
    building.accountId !== principal.accountId
  ) {
    throw new ApiError(404, 'building_not_found', 'Building not found.');
  }
  const f = new FieldErrors();
  rejectUnknown(f, body, ['isResidentMode', 'name', 'hvacMode', 'supportedModes', 'thermostatId']);
  if (!('isResidentMode' in body)) f.add('isResidentMode', 'Required: true or false.');
  const isResidentMode = boolean(f, 'isResidentMode', body.isResidentMode);
  const name = 'name' in body ? string(f, 'name', body.name, 0, 64) : '';
  let supportedModes: HvacMode[] = [...HVAC_MODES];
  if ('supportedModes' in body) {
    const modes = body.supportedModes;
    if (!Array.isArray(modes) || modes.length === 0)
      f.add('supportedModes', 'Must be a non-empty array of HVAC modes.');
    else {
      modes.forEach((m, i) => {
        oneOf(f, `supportedModes.${i}`, m, HVAC_MODES);
      });
      supportedModes = HVAC_MODES.filter((m) => modes.includes(m));
    }
  }
  let hvacMode: HvacMode | undefined;
  if ('hvacMode' in body) {
    hvacMode = oneOf(f, 'hvacMode', body.hvacMode, HVAC_MODES);
    if (hvacMode && !supportedModes.includes(hvacMode))
      f.add('hvacMode', 'Not one of the supported modes.');
  }
  let thermostatId: string | undefined;
  if ('thermostatId' in body) {
    if (typeof body.thermostatId !== 'string' || !/^\d{12}$/.test(body.thermostatId))
      f.add('thermostatId', 'Must be a 12-digit thermostat id.');
    else thermostatId = body.thermostatId;
  }
  f.throwIfAny();
  if (thermostatId && ctx.store.thermostats.has(thermostatId)) {
    throw new ApiError(
      409,
      'thermostat_exists',
      'A thermostat with this id is already registered.',
    );
  }
  const t: Thermostat = {
    thermostatId: thermostatId ?? newThermostatId(ctx),
    accountId: principal.accountId,
    buildingId,
    name: name ?? '',
    hvacMode: hvacMode ?? defaultMode(supportedModes),
    pendingMode: null,
    supportedModes,
    temperature: 70.5,
    humidity: 40,
    isResidentMode: isResidentMode ?? false,
    heatCoolMinDelta: 5,
    connected: true,
    lastSeenMs: null,
    comfortSettings: defaultComfortSettings(),
    nextCustomIndex: 1,
    schedule: residentialSchedule(),
    settings: defaultSettings(),
    accessControl: defaultAccessControl(),
    alertSettings: defaultAlertSettings(),
  };
  ctx.store.thermostats.set(t.thermostatId, t);
  return statusRecord(ctx, t);
}

// ---------- routes ----------

export const v2Routes: ApiRoute[] = [
  {
    method: 'PATCH',
    pattern: `${T}/settings`,
    access: 'write',
    handler: ({ ctx, res, key }, principal, body) => {
      sendSuccess(res, bulkSettings(ctx, principal as Principal, body, key));
    },
  },
  {
    method: 'GET',
    pattern: `${T}/:id/status`,
    access: 'read',
    handler: ({ ctx, res, params }, principal) => {
      sendSuccess(res, statusRecord(ctx, getOwnThermostat(ctx, principal, params.id)));
    },
  },
  {
    method: 'PATCH',
    pattern: `${T}/:id/residentMode`,
    access: 'write',
    handler: ({ ctx, res, params }, principal, body) => {
      const t = getOwnThermostat(ctx, principal, params.id);
      const f = new FieldErrors();
      rejectUnknown(f, body, ['isResidentMode'], '', {
        isTenantMode: 'Renamed to isResidentMode in API v2.',
      });
      if (!('isResidentMode' in body)) f.add('isResidentMode', 'Required: true or false.');
      const value = boolean(f, 'isResidentMode', body.isResidentMode);
      f.throwIfAny();
      requireOnline(t);
      setResidentMode(ctx, t, value as boolean);
      sendSuccess(res, statusRecord(ctx, t));
    },
  },
  {
    method: 'POST',
    pattern: `${T}/:buildingId/thermostats`,
    access: 'write',
    handler: ({ ctx, res, params }, principal, body) => {
      sendSuccess(
        res,
        createThermostat(ctx, principal as Principal, params.buildingId ?? '', body),
        201,
      );
    },
  },
  {
    method: 'GET',
    pattern: `${T}/:id/alertSettings`,
    access: 'read',
    handler: ({ ctx, res, params }, principal) => {
      sendSuccess(res, alertSettingsRecord(getOwnThermostat(ctx, principal, params.id)));
    },
  },
  {
    method: 'PATCH',
    pattern: `${T}/:id/alertSettings`,
    access: 'write',
    handler: ({ ctx, res, params }, principal, body) => {
      const t = getOwnThermostat(ctx, principal, params.id);
      patchAlerts(t, body);
      sendSuccess(res, alertSettingsRecord(t));
    },
  },
  {
    method: 'GET',
    pattern: `${T}/:id/schedule`,
    access: 'read',
    handler: ({ ctx, res, params }, principal) => {
      sendSuccess(res, scheduleRecord(ctx, getOwnThermostat(ctx, principal, params.id)));
    },
  },
  {
    method: 'PATCH',
    pattern: `${T}/:id/schedule`,
    access: 'write',
    handler: ({ ctx, res, params }, principal, body) => {
      const t = getOwnThermostat(ctx, principal, params.id);
      const f = new FieldErrors();
      rejectUnknown(f, body, ['days', 'firstTimeBlock', 'lastTimeBlock', 'comfortSettingRef']);
      for (const k of ['days', 'firstTimeBlock', 'lastTimeBlock', 'comfortSettingRef'])
        if (!(k in body)) f.add(k, 'Required.');
      const dayIndexes: number[] = [];
      if ('days' in body) {
        if (!Array.isArray(body.days) || body.days.length === 0)
          f.add('days', `Must be a non-empty array of: ${DAYS.join(', ')}.`);
        else {
          body.days.forEach((d, i) => {
            const day = oneOf(f, `days.${i}`, d, DAYS);
            if (day === undefined) return;
            if (dayIndexes.includes(DAYS.indexOf(day))) f.add(`days.${i}`, 'Duplicate day.');
            dayIndexes.push(DAYS.indexOf(day));
          });
        }
      }
      const first =
        'firstTimeBlock' in body
          ? integer(f, 'firstTimeBlock', body.firstTimeBlock, 0, 47)
          : undefined;
      const last =
        'lastTimeBlock' in body
          ? integer(f, 'lastTimeBlock', body.lastTimeBlock, 0, 47)
          : undefined;
      if (first !== undefined && last !== undefined && first > last) {
        f.add('firstTimeBlock', 'Must not be after lastTimeBlock.');
      }
      const ref = body.comfortSettingRef;
      if (
        'comfortSettingRef' in body &&
        (typeof ref !== 'string' || !t.comfortSettings.some((c) => c.comfortSettingRef === ref))
      ) {
        f.add('comfortSettingRef', 'Unknown comfort setting for this thermostat.');
      }
      f.throwIfAny();
      requireOnline(t);
      for (const d of dayIndexes) {
        const day = t.schedule[d];
        if (day) for (let b = first as number; b <= (last as number); b++) day[b] = ref as string;
      }
      sendSuccess(res, scheduleRecord(ctx, t));
    },
  },
  {
    method: 'GET',
    pattern: `${T}/:id/comfortSettings`,
    access: 'read',
    handler: ({ ctx, res, params }, principal) => {
      const t = getOwnThermostat(ctx, principal, params.id);
      sendSuccess(
        res,
        t.comfortSettings.map((c) => ({ ...c })),
      );
    },
  },
  {
    method: 'POST',
    pattern: `${T}/:id/comfortSettings`,
    access: 'write',
    handler: ({ ctx, res, params }, principal, body) => {
      const t = getOwnThermostat(ctx, principal, params.id);
      const f = new FieldErrors();
      rejectUnknown(f, body, COMFORT_FIELDS, '', {
        comfortSettingRef: 'Assigned by the service on creation.',
      });
      const v = parseComfortFields(f, body, true);
      f.throwIfAny();
      checkUniqueName(f, t, v.name, null);
      checkSetpoints(f, t, v.desiredHeat as number, v.desiredCool as number, {
        heat: 'desiredHeat',
        cool: 'desiredCool',
        blame: ['desiredHeat', 'desiredCool'],
      });
      if (t.comfortSettings.length >= 16)
        f.add('body', 'A thermostat holds at most 16 comfort settings.');
      f.throwIfAny();
      requireOnline(t);
      const setting = {
        comfortSettingRef: `smart${t.nextCustomIndex++}`,
        name: v.name as string,
        desiredHeat: v.desiredHeat as number,
        desiredCool: v.desiredCool as number,
        fanHeat: v.fanHeat ?? 'auto',
        fanCool: v.fanCool ?? 'auto',
      };
      t.comfortSettings.push(setting);
      sendSuccess(res, { ...setting }, 201);
    },
  },
  {
    method: 'PATCH',
    pattern: `${T}/:id/comfortSettings`,
    access: 'write',
    handler: ({ ctx, res, params }, principal, body) => {
      const t = getOwnThermostat(ctx, principal, params.id);
      const f = new FieldErrors();
      rejectUnknown(f, body, ['comfortSettingRef', ...COMFORT_FIELDS]);
      const ref = body.comfortSettingRef;
      const setting = t.comfortSettings.find((c) => c.comfortSettingRef === ref);
      if (!('comfortSettingRef' in body))
        f.add('comfortSettingRef', 'Required: the ref of the comfort setting to update.');
      else if (!setting) f.add('comfortSettingRef', 'Unknown comfort setting for this thermostat.');
      requireBody(f, body, COMFORT_FIELDS);
      const v = parseComfortFields(f, body, false);
      f.throwIfAny();
      const current = setting as NonNullable<typeof setting>;
      checkUniqueName(f, t, v.name, current.comfortSettingRef);
      const blame = (['desiredHeat', 'desiredCool'] as const).filter((k) => k in body);
      checkSetpoints(
        f,
        t,
        v.desiredHeat ?? current.desiredHeat,
        v.desiredCool ?? current.desiredCool,
        { heat: 'desiredHeat', cool: 'desiredCool', blame },
      );
      f.throwIfAny();
      requireOnline(t);
      Object.assign(
        current,
        Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)),
      );
      sendSuccess(res, { ...current });
    },
  },
  {
    method: 'DELETE',
    pattern: `${T}/:id/comfortSettings/:ref`,
    access: 'write',
    handler: ({ ctx, res, params }, principal) => {
      const t = getOwnThermostat(ctx, principal, params.id);
      const index = t.comfortSettings.findIndex((c) => c.comfortSettingRef === params.ref);
      if (index < 0)
        throw new ApiError(404, 'comfort_setting_not_found', 'Comfort setting not found.');
      const f = new FieldErrors();
      if (DEFAULT_COMFORT_REFS.includes(params.ref ?? '')) {
        f.add(
          'comfortSettingRef',
          'The default comfort settings home, away and sleep cannot be deleted.',
        );
      } else if (t.schedule.some((day) => day.includes(params.ref ?? ''))) {
        f.add(
          'comfortSettingRef',
          'Still used by the schedule; assign another comfort setting to those blocks first.',
        );
      }
      f.throwIfAny();
      requireOnline(t);
      t.comfortSettings.splice(index, 1);
      res.writeHead(204, { 'cache-control': 'no-store' });
      res.end();
    },
  },
  {
    method: 'GET',
    pattern: `${T}/:id/settings`,
    access: 'read',
    handler: ({ ctx, res, params }, principal) => {
      sendSuccess(res, settingsRecord(getOwnThermostat(ctx, principal, params.id)));
    },
  },
  {
    method: 'PATCH',
    pattern: `${T}/:id/settings`,
    access: 'write',
    handler: ({ ctx, res, params }, principal, body) => {
      const t = getOwnThermostat(ctx, principal, params.id);
      patchSettings(t, body);
      sendSuccess(res, settingsRecord(t));
    },
  },
  {
    method: 'PATCH',
    pattern: `${T}/:id/accessControl`,
    access: 'write',
    handler: ({ ctx, res, params }, principal, body) => {
      const t = getOwnThermostat(ctx, principal, params.id);
      patchAccessControl(t, body);
      sendSuccess(res, accessControlRecord(t));
    },
  },
  {
    method: 'PATCH',
    pattern: `${T}/:id`,
    access: 'write',
    handler: ({ ctx, res, params }, principal, body) => {
      const t = getOwnThermostat(ctx, principal, params.id);
      const f = new FieldErrors();
      rejectUnknown(f, body, ['buildingId']);
      const id = body.buildingId;
      const building = typeof id === 'string' ? ctx.store.buildings.get(id) : undefined;
      if (!('buildingId' in body))
        f.add('buildingId', 'Required: the id of the destination building.');
      else if (typeof id !== 'string' || !/^[0-9a-f]{24}$/.test(id))
        f.add('buildingId', 'Must be a 24-character lowercase hex building id.');
      else if (!building || building.accountId !== principal?.accountId)
        f.add('buildingId', 'Unknown building.');
      f.throwIfAny();
      t.buildingId = id as string;
      sendSuccess(res, statusRecord(ctx, t));
    },
  },
];

export function setResidentMode(ctx: SandboxContext, t: Thermostat, value: boolean): void {
  const wasOn = t.isResidentMode;
  t.isResidentMode = value;
  if (wasOn && !value) {
    resetToDefaults(t);
    requestModeChange(ctx, t, defaultMode(t.supportedModes));
  }
}

/** Used by the server for 405 answers. */
export function methodNotAllowed(allowed: string[]): never {
  throw new ApiError(
    405,
    'method_not_allowed',
    `Method not allowed. Allowed: ${allowed.join(', ')}.`,
    {
      allow: allowed.join(', '),
    },
  );
}
