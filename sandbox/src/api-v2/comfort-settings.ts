import { ApiError, sendNoContent, sendSuccess } from '../http-util';
import { type ApiRoute, thermostatRoute } from '../routing';
import {
  type ComfortSetting,
  DEFAULT_COMFORT_REFS,
  DEVICE_COOL_LIMITS,
  DEVICE_HEAT_LIMITS,
  FAN_VALUES,
  type Thermostat,
} from '../store';
import { requireOnline } from '../thermostats';
import { decimal, FieldErrors, oneOf, rejectUnknown, requireAnyOf, string } from '../validation';
import { THERMOSTATS } from './paths';

const COMFORT_FIELDS = ['name', 'desiredHeat', 'desiredCool', 'fanHeat', 'fanCool'] as const;
const MAX_COMFORT_SETTINGS = 16;

type ComfortFields = Partial<Omit<ComfortSetting, 'comfortSettingRef'>>;

function parseComfortFields(
  errors: FieldErrors,
  body: Record<string, unknown>,
  required: boolean,
): ComfortFields {
  const fields: ComfortFields = {};
  if (required) {
    for (const field of ['name', 'desiredHeat', 'desiredCool'] as const)
      if (!(field in body)) errors.add(field, 'Required.');
  }
  if ('name' in body) {
    const name = string(errors, 'name', body.name, 1, 32);
    if (name !== undefined && name.trim() === '') errors.add('name', 'Must not be blank.');
    else fields.name = name?.trim();
  }
  if ('desiredHeat' in body) {
    const { min, max } = DEVICE_HEAT_LIMITS;
    fields.desiredHeat = decimal(errors, 'desiredHeat', body.desiredHeat, min, max, ' F');
  }
  if ('desiredCool' in body) {
    const { min, max } = DEVICE_COOL_LIMITS;
    fields.desiredCool = decimal(errors, 'desiredCool', body.desiredCool, min, max, ' F');
  }
  if ('fanHeat' in body) fields.fanHeat = oneOf(errors, 'fanHeat', body.fanHeat, FAN_VALUES);
  if ('fanCool' in body) fields.fanCool = oneOf(errors, 'fanCool', body.fanCool, FAN_VALUES);
  return fields;
}

function checkUniqueName(
  errors: FieldErrors,
  thermostat: Thermostat,
  name: string | undefined,
  ownRef: string | null,
) {
  if (name === undefined) return;
  const clash = thermostat.comfortSettings.find(
    (setting) =>
      setting.name.toLowerCase() === name.toLowerCase() && setting.comfortSettingRef !== ownRef,
  );
  if (clash) errors.add('name', `Already used by comfort setting ${clash.comfortSettingRef}.`);
}

/** Setpoints inside the thermostat's ranges and at least heatCoolMinDelta apart. */
function checkSetpoints(
  errors: FieldErrors,
  thermostat: Thermostat,
  heat: number,
  cool: number,
  blame: readonly string[],
): void {
  const { heatRange, coolRange } = thermostat.settings;
  if (heat < heatRange.min || heat > heatRange.max) {
    errors.add('desiredHeat', `Must be within the heat range ${heatRange.min}-${heatRange.max} F.`);
  }
  if (cool < coolRange.min || cool > coolRange.max) {
    errors.add('desiredCool', `Must be within the cool range ${coolRange.min}-${coolRange.max} F.`);
  }
  if (cool - heat < thermostat.heatCoolMinDelta) {
    const message = `Heat and cool setpoints must be at least ${thermostat.heatCoolMinDelta} F apart (heat ${heat}, cool ${cool}).`;
    for (const path of blame) errors.add(path, message);
  }
}

function createComfortSetting(
  thermostat: Thermostat,
  body: Record<string, unknown>,
): ComfortSetting {
  const errors = new FieldErrors();
  rejectUnknown(errors, body, COMFORT_FIELDS, '', {
    comfortSettingRef: 'Assigned by the service on creation.',
  });
  const fields = parseComfortFields(errors, body, true);
  errors.throwIfAny();
  checkUniqueName(errors, thermostat, fields.name, null);
  checkSetpoints(errors, thermostat, fields.desiredHeat as number, fields.desiredCool as number, [
    'desiredHeat',
    'desiredCool',
  ]);
  if (thermostat.comfortSettings.length >= MAX_COMFORT_SETTINGS)
    errors.add('body', `A thermostat holds at most ${MAX_COMFORT_SETTINGS} comfort settings.`);
  errors.throwIfAny();
  requireOnline(thermostat);
  const setting: ComfortSetting = {
    comfortSettingRef: `smart${thermostat.nextCustomIndex++}`,
    name: fields.name as string,
    desiredHeat: fields.desiredHeat as number,
    desiredCool: fields.desiredCool as number,
    fanHeat: fields.fanHeat ?? 'auto',
    fanCool: fields.fanCool ?? 'auto',
  };
  thermostat.comfortSettings.push(setting);
  return setting;
}

function updateComfortSetting(
  thermostat: Thermostat,
  body: Record<string, unknown>,
): ComfortSetting {
  const errors = new FieldErrors();
  rejectUnknown(errors, body, ['comfortSettingRef', ...COMFORT_FIELDS]);
  const setting = thermostat.comfortSettings.find(
    (candidate) => candidate.comfortSettingRef === body.comfortSettingRef,
  );
  if (!('comfortSettingRef' in body))
    errors.add('comfortSettingRef', 'Required: the ref of the comfort setting to update.');
  else if (!setting)
    errors.add('comfortSettingRef', 'Unknown comfort setting for this thermostat.');
  requireAnyOf(errors, body, COMFORT_FIELDS);
  const fields = parseComfortFields(errors, body, false);
  errors.throwIfAny();
  const current = setting as ComfortSetting;
  checkUniqueName(errors, thermostat, fields.name, current.comfortSettingRef);
  checkSetpoints(
    errors,
    thermostat,
    fields.desiredHeat ?? current.desiredHeat,
    fields.desiredCool ?? current.desiredCool,
    (['desiredHeat', 'desiredCool'] as const).filter((field) => field in body),
  );
  errors.throwIfAny();
  requireOnline(thermostat);
  Object.assign(
    current,
    Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
  );
  return current;
}

function deleteComfortSetting(thermostat: Thermostat, ref: string): void {
  const index = thermostat.comfortSettings.findIndex(
    (setting) => setting.comfortSettingRef === ref,
  );
  if (index < 0) throw new ApiError(404, 'comfort_setting_not_found', 'Comfort setting not found.');
  const errors = new FieldErrors();
  if (DEFAULT_COMFORT_REFS.includes(ref)) {
    errors.add(
      'comfortSettingRef',
      'The default comfort settings home, away and sleep cannot be deleted.',
    );
  } else if (thermostat.schedule.some((blocks) => blocks.includes(ref))) {
    errors.add(
      'comfortSettingRef',
      'Still used by the schedule; assign another comfort setting to those blocks first.',
    );
  }
  errors.throwIfAny();
  requireOnline(thermostat);
  thermostat.comfortSettings.splice(index, 1);
}

/** `GET`, `POST`, `PATCH /{thermostatId}/comfortSettings`, `DELETE .../{comfortSettingRef}`. */
export const comfortSettingsRoutes: ApiRoute[] = [
  thermostatRoute('GET', `${THERMOSTATS}/:id/comfortSettings`, ({ res, thermostat }) => {
    sendSuccess(
      res,
      thermostat.comfortSettings.map((setting) => ({ ...setting })),
    );
  }),
  thermostatRoute('POST', `${THERMOSTATS}/:id/comfortSettings`, ({ res, thermostat, body }) => {
    sendSuccess(res, { ...createComfortSetting(thermostat, body) }, 201);
  }),
  thermostatRoute('PATCH', `${THERMOSTATS}/:id/comfortSettings`, ({ res, thermostat, body }) => {
    sendSuccess(res, { ...updateComfortSetting(thermostat, body) });
  }),
  thermostatRoute(
    'DELETE',
    `${THERMOSTATS}/:id/comfortSettings/:ref`,
    ({ res, thermostat, params }) => {
      deleteComfortSetting(thermostat, params.ref ?? '');
      sendNoContent(res);
    },
  ),
];
