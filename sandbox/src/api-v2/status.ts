import { sendNoContent, sendSuccess } from '../http-util';
import { type ApiRoute, thermostatRoute } from '../routing';
import { requireOnline, setResidentMode, statusRecord } from '../thermostats';
import { boolean, FieldErrors, rejectUnknown } from '../validation';
import { THERMOSTATS } from './paths';

/**
 * `GET /{thermostatId}/status` (the production status record) and
 * `PATCH /{thermostatId}/residentMode` (204 without a body, as in production).
 */
export const statusRoutes: ApiRoute[] = [
  thermostatRoute('GET', `${THERMOSTATS}/:id/status`, ({ ctx, res, thermostat }) => {
    sendSuccess(res, statusRecord(ctx, thermostat));
  }),
  thermostatRoute('PATCH', `${THERMOSTATS}/:id/residentMode`, ({ ctx, res, thermostat, body }) => {
    const errors = new FieldErrors();
    rejectUnknown(errors, body, ['isResidentMode'], '', {
      isTenantMode: 'Renamed to isResidentMode in API v2.',
    });
    if (!('isResidentMode' in body)) errors.add('isResidentMode', 'Required: true or false.');
    const isResidentMode = boolean(errors, 'isResidentMode', body.isResidentMode);
    errors.throwIfAny();
    requireOnline(thermostat);
    setResidentMode(ctx, thermostat, isResidentMode as boolean);
    sendNoContent(res);
  }),
];
