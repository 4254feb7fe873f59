import { setResidentMode } from './api-v2';
import type { SandboxContext } from './context';
import { sendJson } from './http-util';
import type { ApiRoute } from './routing';
import type { Thermostat } from './store';
import { getOwnThermostat, requireOnline, statusRecord } from './thermostats';
import { boolean, FieldErrors, rejectUnknown } from './validation';

const DEPRECATION = {
  deprecation: 'true',
  link: '</api/v2/thermostats/{thermostatId}/status>; rel="successor-version"',
};

/** Version 1 status: `isTenantMode`, and `setPoint` following the version 1 table per HVAC mode. */
function v1Status(ctx: SandboxContext, t: Thermostat) {
  const { isResidentMode, setPoint, pendingHvacMode: _pending, ...rest } = statusRecord(ctx, t);
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
  return { ...rest, isTenantMode: isResidentMode, setPoint: v1SetPoint };
}

export const v1Routes: ApiRoute[] = [
  {
    method: 'GET',
    pattern: '/api/v1/thermostats/:id/status',
    access: 'read',
    handler: ({ ctx, res, params }, principal) => {
      const t = getOwnThermostat(ctx, principal, params.id);
      sendJson(res, 200, { status: 'success', data: v1Status(ctx, t) }, DEPRECATION);
    },
  },
  {
    method: 'PATCH',
    pattern: '/api/v1/thermostats/:id/tenantMode',
    access: 'write',
    handler: ({ ctx, res, params }, principal, body) => {
      const t = getOwnThermostat(ctx, principal, params.id);
      const f = new FieldErrors();
      rejectUnknown(f, body, ['isTenantMode']);
      if (!('isTenantMode' in body)) f.add('isTenantMode', 'Required: true or false.');
      const value = boolean(f, 'isTenantMode', body.isTenantMode);
      f.throwIfAny();
      requireOnline(t);
      setResidentMode(ctx, t, value as boolean);
      sendJson(
        res,
        200,
        { status: 'success', data: v1Status(ctx, t) },
        {
          ...DEPRECATION,
          link: '</api/v2/thermostats/{thermostatId}/residentMode>; rel="successor-version"',
        },
      );
    },
  },
];
