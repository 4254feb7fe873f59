import { sendSuccess } from '../http-util';
import { type ApiRoute, thermostatRoute } from '../routing';
import { defaultAccessControl, LOCK_KEYS, type LockKey, type Thermostat } from '../store';
import { accessControlRecord, requireOnline } from '../thermostats';
import { boolean, FieldErrors, isObject, rejectUnknown } from '../validation';
import { THERMOSTATS } from './paths';

/** A passcode is exactly 4 digits: the string `"0420"` or a number 1000-9999; null clears it. */
function parsePasscode(errors: FieldErrors, value: unknown): string | null | undefined {
  if (value === null) return null;
  if (typeof value === 'string' && /^\d{4}$/.test(value)) return value;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1000 && value <= 9999)
    return String(value);
  errors.add('passcode', 'Must be exactly 4 digits.');
  return undefined;
}

function parseLockSettings(
  errors: FieldErrors,
  value: unknown,
): Partial<Record<LockKey, boolean>> | undefined {
  if (!isObject(value)) {
    errors.add('settings', 'Must be an object of booleans.');
    return undefined;
  }
  rejectUnknown(errors, value, LOCK_KEYS, 'settings');
  const settings: Partial<Record<LockKey, boolean>> = {};
  for (const lockKey of LOCK_KEYS) {
    if (lockKey in value)
      settings[lockKey] = boolean(errors, `settings.${lockKey}`, value[lockKey]);
  }
  return settings;
}

function patchAccessControl(thermostat: Thermostat, body: Record<string, unknown>): void {
  const errors = new FieldErrors();
  rejectUnknown(errors, body, ['enabled', 'passcode', 'settings']);
  if (!('enabled' in body)) errors.add('enabled', 'Required: true or false.');
  const enabled = 'enabled' in body ? boolean(errors, 'enabled', body.enabled) : undefined;
  let passcode: string | null | undefined;
  let settings: Partial<Record<LockKey, boolean>> | undefined;
  if ('passcode' in body) {
    if (enabled !== true) errors.add('passcode', 'May only be provided when enabled is true.');
    else passcode = parsePasscode(errors, body.passcode);
  }
  if ('settings' in body) {
    if (enabled !== true) errors.add('settings', 'May only be provided when enabled is true.');
    else settings = parseLockSettings(errors, body.settings);
  }
  errors.throwIfAny();
  requireOnline(thermostat);
  if (enabled === false) {
    thermostat.accessControl = defaultAccessControl();
    return;
  }
  thermostat.accessControl.enabled = true;
  if (passcode !== undefined) thermostat.accessControl.passcode = passcode;
  if (settings) Object.assign(thermostat.accessControl.settings, settings);
}

/** `PATCH /{thermostatId}/accessControl` (the spec has no read; the answer is the read shape). */
export const accessControlRoutes: ApiRoute[] = [
  thermostatRoute('PATCH', `${THERMOSTATS}/:id/accessControl`, ({ res, thermostat, body }) => {
    patchAccessControl(thermostat, body);
    sendSuccess(res, accessControlRecord(thermostat));
  }),
];
