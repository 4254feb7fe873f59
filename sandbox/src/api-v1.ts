import type { SandboxContext } from './context';
import { sendJson, sendNoContent } from './http-util';
import { type ApiRoute, thermostatRoute } from './routing';
import type { Thermostat } from './store';
import { requireOnline, setResidentMode, statusRecord } from './thermostats';
import { boolean, FieldErrors, rejectUnknown } from './validation';

const V1_THERMOSTATS = '/api/v1/thermostats';

function deprecation(successorPath: string) {
  return {
    deprecation: 'true',
    link: `</api/v2/thermostats/{thermostatId}/${successorPath}>; rel="successor-version"`,
  };
}

/**
 * Version 1 status: the production status record with `isTenantMode` instead of
 * `isResidentMode`, and `setPoint` following the version 1 table per HVAC mode.
 */
function v1Status(ctx: SandboxContext, thermostat: Thermostat) {
  const { isResidentMode, setPoint, ...rest } = statusRecord(ctx, thermostat);
  let v1SetPoint: { desiredHeat?: number; desiredCool?: number };
  switch (rest.hvacMode) {
    case 'heat':
    case 'auxHeatOnly':
      v1SetPoint = { desiredHeat: setPoint.desiredHeat, desiredCool: setPoint.desiredHeat };
      break;
    case 'cool':
      v1SetPoint = { desiredHeat: setPoint.desiredCool, desiredCool: setPoint.desiredCool };
      break;
    case 'auto':
      v1SetPoint = { ...setPoint };
      break;
    default:
      v1SetPoint = {};
  }
  return { ...rest, setPoint: v1SetPoint, isTenantMode: isResidentMode };
}

export const v1Routes: ApiRoute[] = [
  thermostatRoute('GET', `${V1_THERMOSTATS}/:id/status`, ({ ctx, res, thermostat }) => {
    sendJson(
      res,
      200,
      { status: 'success', data: v1Status(ctx, thermostat) },
      deprecation('status'),
    );
  }),
  thermostatRoute('PATCH', `${V1_THERMOSTATS}/:id/tenantMode`, ({ ctx, res, thermostat, body }) => {
    const errors = new FieldErrors();
    rejectUnknown(errors, body, ['isTenantMode']);
    if (!('isTenantMode' in body)) errors.add('isTenantMode', 'Required: true or false.');
    const isTenantMode = boolean(errors, 'isTenantMode', body.isTenantMode);
    errors.throwIfAny();
    requireOnline(thermostat);
    setResidentMode(ctx, thermostat, isTenantMode as boolean);
    // The production v1 answers 204 without a body.
    sendNoContent(res, deprecation('residentMode'));
  }),
];
