import { randomInt } from 'node:crypto';
import type { SandboxContext } from '../context';
import { ApiError, sendSuccess } from '../http-util';
import type { Principal } from '../oauth';
import { type ApiRoute, thermostatRoute } from '../routing';
import {
  DEFAULT_DESIRED_DEHUMIDITY,
  DEFAULT_DESIRED_HUMIDITY,
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
import { thermostatSummary } from '../thermostats';
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

const CREATE_FIELDS = ['isResidentMode', 'thermostatId', 'name', 'hvacMode', 'hvacModes'];
const MOVE_FIELDS = ['buildingId', 'name', 'thermostatName'];
/** Portal and device names: 0-64 characters. */
const MAX_NAME = 64;

function newThermostatId(ctx: SandboxContext): string {
  for (;;) {
    const id = `6${String(randomInt(0, 1e11)).padStart(11, '0')}`;
    if (!ctx.store.thermostats.has(id)) return id;
  }
}

/** `hvacModes`: the modes the thermostat's equipment supports (production's summary field). */
function parseHvacModes(errors: FieldErrors, value: unknown): HvacMode[] {
  if (!Array.isArray(value) || value.length === 0) {
    errors.add('hvacModes', 'Must be a non-empty array of HVAC modes.');
    return [...HVAC_MODES];
  }
  value.forEach((mode, index) => {
    oneOf(errors, `hvacModes.${index}`, mode, HVAC_MODES);
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
  rejectUnknown(errors, body, CREATE_FIELDS, '', {
    supportedModes: 'Unknown field: the modes the equipment supports are named hvacModes.',
    isTenantMode: 'Renamed to isResidentMode in API v2.',
  });
  if (!('isResidentMode' in body)) errors.add('isResidentMode', 'Required: true or false.');
  const isResidentMode = boolean(errors, 'isResidentMode', body.isResidentMode);
  const name = 'name' in body ? string(errors, 'name', body.name, 0, MAX_NAME) : '';
  const supportedModes =
    'hvacModes' in body ? parseHvacModes(errors, body.hvacModes) : [...HVAC_MODES];
  let hvacMode: HvacMode | undefined;
  if ('hvacMode' in body) {
    hvacMode = oneOf(errors, 'hvacMode', body.hvacMode, HVAC_MODES);
    if (hvacMode && !supportedModes.includes(hvacMode))
      errors.add('hvacMode', 'Not one of the modes in hvacModes.');
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
    thermostatName: name ?? '',
    hvacMode: hvacMode ?? defaultMode(supportedModes),
    pendingMode: null,
    pendingResidentMode: null,
    supportedModes,
    temperature: 70.5,
    humidity: 40,
    isResidentMode: isResidentMode ?? false,
    heatCoolMinDelta: 5,
    desiredHumidity: DEFAULT_DESIRED_HUMIDITY,
    desiredDehumidity: DEFAULT_DESIRED_DEHUMIDITY,
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
  return thermostatSummary(ctx, thermostat);
}

/**
 * A move: `buildingId` (required; another account's building is an unknown building) and
 * optionally `name` (portal) and `thermostatName` (device). Cloud-side only, so it works offline.
 */
function moveThermostat(
  ctx: SandboxContext,
  principal: Principal,
  thermostat: Thermostat,
  body: Record<string, unknown>,
): void {
  const errors = new FieldErrors();
  rejectUnknown(errors, body, MOVE_FIELDS);
  const buildingId = body.buildingId;
  const building = isBuildingId(buildingId) ? ctx.store.buildings.get(buildingId) : undefined;
  if (!('buildingId' in body))
    errors.add('buildingId', 'Required: the id of the destination building.');
  else if (!isBuildingId(buildingId))
    errors.add('buildingId', 'Must be a 24-character lowercase hex building id.');
  else if (!building || building.accountId !== principal.accountId)
    errors.add('buildingId', 'Unknown building.');
  const name = 'name' in body ? string(errors, 'name', body.name, 0, MAX_NAME) : undefined;
  const thermostatName =
    'thermostatName' in body
      ? string(errors, 'thermostatName', body.thermostatName, 0, MAX_NAME)
      : undefined;
  errors.throwIfAny();
  thermostat.buildingId = buildingId as string;
  if (name !== undefined) thermostat.name = name;
  if (thermostatName !== undefined) thermostat.thermostatName = thermostatName;
}

/**
 * `POST /{buildingId}/thermostats` (create, 201) and `PATCH /{thermostatId}` (move, 200), both
 * answering the thermostat summary. The move's pattern also matches `PATCH /settings`, so the
 * index lists the bulk update before it.
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
    moveThermostat(ctx, principal, thermostat, body);
    sendSuccess(res, thermostatSummary(ctx, thermostat));
  }),
];
