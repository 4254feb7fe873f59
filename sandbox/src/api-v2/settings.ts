import type { SandboxContext } from '../context';
import { injectedErrorCode, sendSuccess } from '../http-util';
import { takeItemFault } from '../knobs';
import type { Principal } from '../oauth';
import { type ApiRoute, thermostatRoute } from '../routing';
import {
  DEVICE_COOL_LIMITS,
  DEVICE_HEAT_LIMITS,
  HOLD_ACTIONS,
  LEGACY_HOLD_ACTIONS,
  type Range,
  type Thermostat,
  type ThermostatSettings,
} from '../store';
import { getOwnThermostat, requireOnline, settingsRecord } from '../thermostats';
import {
  decimal,
  FieldErrors,
  integer,
  isObject,
  isThermostatId,
  join,
  oneOf,
  rejectUnknown,
  requireAnyOf,
} from '../validation';
import { THERMOSTATS } from './paths';

const SETTINGS_FIELDS = ['heatRange', 'coolRange', 'holdAction', 'fanMinimumOnTime'] as const;
const MAX_BULK_THERMOSTATS = 25;

type SettingsPatch = Partial<ThermostatSettings>;

function parseRange(
  errors: FieldErrors,
  path: string,
  value: unknown,
  limits: Range,
): Range | undefined {
  if (!isObject(value)) {
    errors.add(path, 'Must be an object with min and max.');
    return undefined;
  }
  rejectUnknown(errors, value, ['min', 'max'], path);
  const bound = (key: 'min' | 'max') => {
    if (value[key] === undefined) {
      errors.add(join(path, key), 'Required.');
      return undefined;
    }
    return decimal(errors, join(path, key), value[key], limits.min, limits.max, ' F');
  };
  const min = bound('min');
  const max = bound('max');
  if (min === undefined || max === undefined) return undefined;
  if (min >= max) {
    errors.add(join(path, 'min'), 'Must be lower than max.');
    return undefined;
  }
  return { min, max };
}

function parseSettingsPatch(errors: FieldErrors, body: Record<string, unknown>): SettingsPatch {
  const patch: SettingsPatch = {};
  if ('heatRange' in body)
    patch.heatRange = parseRange(errors, 'heatRange', body.heatRange, DEVICE_HEAT_LIMITS);
  if ('coolRange' in body)
    patch.coolRange = parseRange(errors, 'coolRange', body.coolRange, DEVICE_COOL_LIMITS);
  if ('holdAction' in body) {
    const legacy =
      typeof body.holdAction === 'string' && Object.hasOwn(LEGACY_HOLD_ACTIONS, body.holdAction)
        ? LEGACY_HOLD_ACTIONS[body.holdAction]
        : undefined;
    if (legacy) {
      errors.add(
        'holdAction',
        `${body.holdAction} is the consumer API's name; use ${legacy}. Must be one of: ${HOLD_ACTIONS.join(', ')}.`,
      );
    } else patch.holdAction = oneOf(errors, 'holdAction', body.holdAction, HOLD_ACTIONS);
  }
  if ('fanMinimumOnTime' in body) {
    patch.fanMinimumOnTime = integer(errors, 'fanMinimumOnTime', body.fanMinimumOnTime, 0, 55);
  }
  return patch;
}

/** Per-thermostat checks of a settings patch: existing comfort settings must fit the new ranges. */
function checkSettingsAgainst(
  errors: FieldErrors,
  thermostat: Thermostat,
  patch: SettingsPatch,
): void {
  const outside = (value: number, range: Range) => value < range.min || value > range.max;
  for (const setting of thermostat.comfortSettings) {
    if (patch.heatRange && outside(setting.desiredHeat, patch.heatRange)) {
      errors.add(
        'heatRange',
        `Comfort setting ${setting.comfortSettingRef} heats to ${setting.desiredHeat} F, outside the new range.`,
      );
    }
    if (patch.coolRange && outside(setting.desiredCool, patch.coolRange)) {
      errors.add(
        'coolRange',
        `Comfort setting ${setting.comfortSettingRef} cools to ${setting.desiredCool} F, outside the new range.`,
      );
    }
  }
}

function applySettings(thermostat: Thermostat, patch: SettingsPatch): void {
  const { settings } = thermostat;
  if (patch.heatRange) settings.heatRange = patch.heatRange;
  if (patch.coolRange) settings.coolRange = patch.coolRange;
  if (patch.holdAction) settings.holdAction = patch.holdAction;
  if (patch.fanMinimumOnTime !== undefined) settings.fanMinimumOnTime = patch.fanMinimumOnTime;
}

function patchSettings(thermostat: Thermostat, body: Record<string, unknown>): void {
  const errors = new FieldErrors();
  rejectUnknown(errors, body, SETTINGS_FIELDS);
  requireAnyOf(errors, body, SETTINGS_FIELDS);
  const patch = parseSettingsPatch(errors, body);
  errors.throwIfAny();
  checkSettingsAgainst(errors, thermostat, patch);
  errors.throwIfAny();
  requireOnline(thermostat);
  applySettings(thermostat, patch);
}

function checkThermostatIds(errors: FieldErrors, ids: unknown): void {
  if (!Array.isArray(ids)) {
    errors.add('thermostatIds', 'Required: an array of 1 to 25 thermostat ids.');
    return;
  }
  if (ids.length < 1 || ids.length > MAX_BULK_THERMOSTATS) {
    errors.add('thermostatIds', `Must list 1 to 25 thermostat ids (got ${ids.length}).`);
    return;
  }
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (!isThermostatId(id))
      errors.add(`thermostatIds.${index}`, 'Must be a 12-digit thermostat id.');
    else if (seen.has(id)) errors.add(`thermostatIds.${index}`, 'Duplicate thermostat id.');
    else seen.add(id);
  });
}

/** A bulk item that failed with an error: the service error envelope plus the thermostat id. */
function itemError(thermostatId: string, status: number, error: string, description: string) {
  return { thermostatId, status: 'error', message: { error, description }, code: status };
}

/** One item of a bulk update: answered on its own, so one failure never fails the others. */
function bulkItem(
  ctx: SandboxContext,
  principal: Principal,
  key: string,
  thermostatId: string,
  patch: SettingsPatch,
) {
  let thermostat: Thermostat;
  try {
    thermostat = getOwnThermostat(ctx, principal, thermostatId);
  } catch {
    return itemError(thermostatId, 404, 'thermostat_not_found', 'Thermostat not found.');
  }
  const fault = takeItemFault(ctx, key, thermostatId);
  if (fault !== null) {
    return itemError(
      thermostatId,
      fault,
      injectedErrorCode(fault),
      `Injected failure (HTTP ${fault}).`,
    );
  }
  if (!thermostat.connected) {
    return itemError(thermostatId, 409, 'thermostat_offline', 'The thermostat is offline.');
  }
  const itemErrors = new FieldErrors();
  checkSettingsAgainst(itemErrors, thermostat, patch);
  if (!itemErrors.empty) return { thermostatId, status: 'fail', data: itemErrors.errors };
  applySettings(thermostat, patch);
  return { thermostatId, status: 'success', data: settingsRecord(thermostat) };
}

function bulkSettings(
  ctx: SandboxContext,
  principal: Principal,
  body: Record<string, unknown>,
  key: string,
) {
  const errors = new FieldErrors();
  rejectUnknown(errors, body, ['thermostatIds', ...SETTINGS_FIELDS]);
  checkThermostatIds(errors, body.thermostatIds);
  requireAnyOf(errors, body, SETTINGS_FIELDS);
  const patch = parseSettingsPatch(errors, body);
  errors.throwIfAny();
  const results = (body.thermostatIds as string[]).map((thermostatId) =>
    bulkItem(ctx, principal, key, thermostatId, patch),
  );
  const succeeded = results.filter((result) => result.status === 'success').length;
  return { results, succeeded, failed: results.length - succeeded };
}

/**
 * `PATCH /settings` (bulk, up to 25 thermostats) and `GET`/`PATCH /{thermostatId}/settings`.
 * The bulk route comes first: its path also matches the move's `PATCH /{thermostatId}`.
 */
export const settingsRoutes: ApiRoute[] = [
  {
    method: 'PATCH',
    pattern: `${THERMOSTATS}/settings`,
    access: 'write',
    handler: ({ ctx, res, key }, principal, body) => {
      sendSuccess(res, bulkSettings(ctx, principal as Principal, body, key));
    },
  },
  thermostatRoute('GET', `${THERMOSTATS}/:id/settings`, ({ res, thermostat }) => {
    sendSuccess(res, settingsRecord(thermostat));
  }),
  thermostatRoute('PATCH', `${THERMOSTATS}/:id/settings`, ({ res, thermostat, body }) => {
    patchSettings(thermostat, body);
    sendSuccess(res, settingsRecord(thermostat));
  }),
];
