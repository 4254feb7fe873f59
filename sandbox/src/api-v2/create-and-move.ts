import { randomInt } from 'node:crypto';
import type { SandboxContext } from '../context';
import { ApiError, sendSuccess } from '../http-util';
import type { Principal } from '../oauth';
import { type ApiRoute, thermostatRoute } from '../routing';
import {
  defaultAccessControl,
  defaultAlertSettings,
  defaultComfortSettings,
  defaultMode,
  defaultSettings,
  HVAC_MODES,
  type HvacMode,
  residentialSchedule,
  type Thermostat,
} from '../store';
import { statusRecord } from '../thermostats';
import {
  boolean,
  FieldErrors,
  isBuildingId,
  isThermostatId,
  oneOf,
  rejectUnknown,
  string,
} from '../validation';
import { THERMOSTATS } from './paths';

const CREATE_FIELDS = ['isResidentMode', 'name', 'hvacMode', 'supportedModes', 'thermostatId'];

function newThermostatId(ctx: SandboxContext): string {
  for (;;) {
    const id = `6${String(randomInt(0, 1e11)).padStart(11, '0')}`;
    if (!ctx.store.thermostats.has(id)) return id;
  }
}

function parseSupportedModes(errors: FieldErrors, value: unknown): HvacMode[] {
  if (!Array.isArray(value) || value.length === 0) {
    errors.add('supportedModes', 'Must be a non-empty array of HVAC modes.');
    return [...HVAC_MODES];
  }
  value.forEach((mode, index) => {
    oneOf(errors, `supportedModes.${index}`, mode, HVAC_MODES);
  });
  return HVAC_MODES.filter((mode) => value.includes(mode));
}

function createThermostat(
  ctx: SandboxContext,
  principal: Principal,
  buildingId: string,
  body: Record<string, unknown>,
) {
  const building = ctx.store.buildings.get(buildingId);
  if (!isBuildingId(buildingId) || !building || building.accountId !== principal.accountId) {
    throw new ApiError(404, 'building_not_found', 'Building not found.');
  }
  const errors = new FieldErrors();
  rejectUnknown(errors, body, CREATE_FIELDS);
  if (!('isResidentMode' in body)) errors.add('isResidentMode', 'Required: true or false.');
  const isResidentMode = boolean(errors, 'isResidentMode', body.isResidentMode);
  const name = 'name' in body ? string(errors, 'name', body.name, 0, 64) : '';
  const supportedModes =
    'supportedModes' in body ? parseSupportedModes(errors, body.supportedModes) : [...HVAC_MODES];
  let hvacMode: HvacMode | undefined;
  if ('hvacMode' in body) {
    hvacMode = oneOf(errors, 'hvacMode', body.hvacMode, HVAC_MODES);
    if (hvacMode && !supportedModes.includes(hvacMode))
      errors.add('hvacMode', 'Not one of the supported modes.');
  }
  let thermostatId: string | undefined;
  if ('thermostatId' in body) {
    if (isThermostatId(body.thermostatId)) thermostatId = body.thermostatId;
    else errors.add('thermostatId', 'Must be a 12-digit thermostat id.');
  }
  errors.throwIfAny();
  if (thermostatId && ctx.store.thermostats.has(thermostatId)) {
    throw new ApiError(
      409,
      'thermostat_exists',
      'A thermostat with this id is already registered.',
    );
  }
  const thermostat: Thermostat = {
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
    offline: null,
    comfortSettings: defaultComfortSettings(),
    nextCustomIndex: 1,
    schedule: residentialSchedule(),
    settings: defaultSettings(),
    accessControl: defaultAccessControl(),
    alertSettings: defaultAlertSettings(),
  };
  ctx.store.thermostats.set(thermostat.thermostatId, thermostat);
  return statusRecord(ctx, thermostat);
}

/**
 * `POST /{buildingId}/thermostats` (create) and `PATCH /{thermostatId}` (move). The move's
 * pattern also matches `PATCH /settings`, so the index lists the bulk update before it.
 */
export const createAndMoveRoutes: ApiRoute[] = [
  {
    method: 'POST',
    pattern: `${THERMOSTATS}/:buildingId/thermostats`,
    access: 'write',
    handler: ({ ctx, res, params }, principal, body) => {
      const created = createThermostat(ctx, principal as Principal, params.buildingId ?? '', body);
      sendSuccess(res, created, 201);
    },
  },
  thermostatRoute('PATCH', `${THERMOSTATS}/:id`, ({ ctx, res, thermostat, principal, body }) => {
    const errors = new FieldErrors();
    rejectUnknown(errors, body, ['buildingId']);
    const buildingId = body.buildingId;
    const building = isBuildingId(buildingId) ? ctx.store.buildings.get(buildingId) : undefined;
    if (!('buildingId' in body))
      errors.add('buildingId', 'Required: the id of the destination building.');
    else if (!isBuildingId(buildingId))
      errors.add('buildingId', 'Must be a 24-character lowercase hex building id.');
    else if (!building || building.accountId !== principal.accountId)
      errors.add('buildingId', 'Unknown building.');
    errors.throwIfAny();
    thermostat.buildingId = buildingId as string;
    sendSuccess(res, statusRecord(ctx, thermostat));
  }),
];
