import type { ActionForm, Fields } from './forms';

/**
 * The app's server-action forms, each with the page it is on, how to find it among the page's
 * forms, and fields that alone would be accepted (and written). Shared by the specs that call
 * actions as an attacker would: the actions battery (forged sessions, ids, input) and the teams
 * spec (every role, every organisation).
 */

export type CatalogIds = {
  /** A thermostat of the portfolio (connected, with the sandbox's default comfort settings). */
  thermostatId: string;
  /** The building it is in. */
  buildingId: string;
  /** Another building of the same portfolio, to move it to. */
  secondBuildingId: string;
  /** A thermostat of another service account (never addable to this portfolio). */
  otherThermostatId: string;
};

export type CatalogAction = {
  name: string;
  path: () => string;
  pick: (form: ActionForm) => boolean;
  /** Valid fields: alone they would be accepted (and written). */
  valid: () => Fields;
  /** What the first bound argument is: an attacker swaps it for another of the same kind. */
  boundId?: 'thermostat' | 'building' | 'unit';
};

export const fieldsInclude = (name: string) => (form: ActionForm) => form.fields.includes(name);

/** The catalog for these ids (read when a path or fields are asked for, not before). */
export function actionCatalog(ids: () => CatalogIds): CatalogAction[] {
  const onThermostat = (tab = '') => `/thermostats/${ids().thermostatId}${tab}`;
  return [
    {
      name: 'building details',
      path: () => `/buildings/${ids().buildingId}`,
      pick: fieldsInclude('address'),
      valid: () => [
        ['name', 'Battery House'],
        ['address', '1 Test Street'],
      ],
      boundId: 'building',
    },
    {
      name: 'refresh building',
      path: () => `/buildings/${ids().buildingId}`,
      pick: (form) => form.fields.length === 0 && form.bound.length === 1,
      valid: () => [],
      boundId: 'building',
    },
    {
      name: 'new thermostat',
      path: () => `/buildings/${ids().buildingId}/new-thermostat`,
      pick: fieldsInclude('hvacMode'),
      valid: () => [
        ['name', 'Battery unit'],
        ['thermostatId', ''],
        ['hvacMode', 'heat'],
        ['isResidentMode', 'on'],
        ['confirm', 'yes'],
      ],
      boundId: 'building',
    },
    {
      name: 'resident mode',
      path: () => onThermostat(),
      pick: fieldsInclude('isResidentMode'),
      valid: () => [
        ['isResidentMode', 'on'],
        ['confirmReset', 'yes'],
      ],
      boundId: 'thermostat',
    },
    {
      name: 'move',
      path: () => onThermostat(),
      pick: fieldsInclude('buildingId'),
      valid: () => [['buildingId', ids().secondBuildingId]],
      boundId: 'thermostat',
    },
    {
      name: 'rename thermostat',
      path: () => onThermostat(),
      pick: fieldsInclude('unitLabel'),
      valid: () => [['unitLabel', 'Battery label']],
      boundId: 'thermostat',
    },
    {
      name: 'remove thermostat',
      path: () => onThermostat(),
      pick: (form) => form.fields.length === 0 && form.bound.length === 1,
      valid: () => [],
      boundId: 'thermostat',
    },
    {
      name: 'temperature unit',
      path: () => onThermostat(),
      pick: fieldsInclude('unit'),
      valid: () => [['unit', 'F']],
    },
    {
      name: 'schedule range',
      path: () => onThermostat('/schedule'),
      pick: (form) => form.fields.includes('days') && form.html.includes('Set a time range'),
      valid: () => [
        ['days', 'monday'],
        ['from', '14'],
        ['to', '15'],
        ['comfortSettingRef', 'home'],
      ],
      boundId: 'thermostat',
    },
    {
      name: 'comfort setting create',
      path: () => onThermostat('/comfort-settings'),
      pick: (form) => form.html.includes('aria-label="New comfort setting"'),
      valid: () => [
        ['name', 'Battery comfort'],
        ['desiredHeat', '66'],
        ['desiredCool', '75'],
        ['fanHeat', 'auto'],
        ['fanCool', 'on'],
      ],
      boundId: 'thermostat',
    },
    {
      name: 'comfort setting update',
      path: () => onThermostat('/comfort-settings'),
      pick: (form) => form.html.includes('aria-label="Edit Home"'),
      valid: () => [
        ['name', 'Battery home'],
        ['desiredHeat', '66'],
        ['desiredCool', '75'],
        ['fanHeat', 'auto'],
        ['fanCool', 'on'],
      ],
      boundId: 'thermostat',
    },
    {
      name: 'comfort setting delete',
      path: () => onThermostat('/comfort-settings'),
      pick: (form) => form.html.includes('aria-label="Delete Away"'),
      valid: () => [],
      boundId: 'thermostat',
    },
    {
      name: 'configuration',
      path: () => onThermostat('/configuration'),
      pick: fieldsInclude('heatMin'),
      valid: () => [
        ['heatMin', '50'],
        ['heatMax', '76'],
        ['coolMin', '66'],
        ['coolMax', '88'],
        ['holdAction', 'nextTransition'],
        ['fanMinimumOnTime', '10'],
      ],
      boundId: 'thermostat',
    },
    {
      name: 'access control',
      path: () => onThermostat('/access-control'),
      pick: fieldsInclude('passcode'),
      valid: () => [
        ['enabled', 'on'],
        ['passcode', '0427'],
        ['temperature', 'on'],
      ],
      boundId: 'thermostat',
    },
    {
      name: 'alerts',
      path: () => onThermostat('/alerts'),
      pick: fieldsInclude('lowHumidityValue'),
      valid: () => [
        ['maintenanceEnabled', 'on'],
        ['lastMaintenanceDate', '2024-01-15'],
        ['maintenanceInterval', '7'],
        ['maintenanceIntervalUnits', 'month'],
        ['lowTemperatureEnabled', 'on'],
        ['lowTemperatureValue', '41'],
        ['highTemperatureEnabled', 'on'],
        ['highTemperatureValue', '93'],
        ['lowHumidityEnabled', 'on'],
        ['lowHumidityValue', '17'],
        ['highHumidityEnabled', 'on'],
        ['highHumidityValue', '71'],
      ],
      boundId: 'thermostat',
    },
    {
      name: 'add by list',
      path: () => '/portfolio/add',
      pick: fieldsInclude('list'),
      valid: () => [['list', ids().otherThermostatId]],
    },
    {
      name: 'add by CSV',
      path: () => '/portfolio/add',
      pick: fieldsInclude('csv'),
      valid: () => [['csv', new File([`thermostatId\n${ids().otherThermostatId}\n`], 'ids.csv')]],
    },
    {
      // Step one of a bulk change (step two, the confirmation, runs lib/bulk's same checks; the
      // JSON route's battery covers those).
      name: 'bulk review',
      path: () => '/bulk',
      pick: fieldsInclude('allIn'),
      valid: () => [
        ['thermostatIds', ids().thermostatId],
        ['fanMinimumOnTime', '12'],
      ],
    },
    {
      // A saved-filter group (the group's own page is bound to an id this catalog has not got).
      name: 'new group',
      path: () => '/groups',
      pick: fieldsInclude('kind'),
      valid: () => [
        ['name', `Battery group ${Date.now()}`],
        ['kind', 'filter'],
        ['buildingIds', ids().buildingId],
      ],
    },
    {
      name: 'my email',
      path: () => '/notifications',
      pick: fieldsInclude('quietStart'),
      valid: () => [
        ['mode', 'immediate'],
        ['kinds', 'offline'],
        ['buildingScope', 'chosen'],
        ['buildingIds', ids().buildingId],
        ['timeZone', 'America/Denver'],
        ['digestHour', '7'],
        ['quietStart', ''],
        ['quietEnd', ''],
      ],
    },
    {
      name: 'notification rules',
      path: () => '/notifications',
      pick: (form) => form.html.includes('aria-label="Notification rules"'),
      valid: () => [
        ['enabled', 'offline'],
        ['delay-offline', '45'],
      ],
    },
    {
      name: 'add webhook',
      path: () => '/notifications',
      pick: fieldsInclude('url'),
      valid: () => [
        ['url', 'https://hooks.example/setpoint'],
        ['description', 'Battery hook'],
      ],
    },
    {
      // A blank template (the edit form needs a stored template's id: e2e/templates.spec.ts
      // forges that one).
      name: 'new template',
      path: () => '/templates/new',
      pick: fieldsInclude('includeConfiguration'),
      valid: () => [
        ['name', `Battery template ${Date.now()}`],
        ['includeConfiguration', 'on'],
        ['fanMinimumOnTime', '12'],
      ],
    },
    {
      name: 'organisation occupancy policy',
      path: () => '/templates/occupancy',
      pick: fieldsInclude('vacant.residentMode'),
      valid: () => occupancyPolicy(),
    },
    {
      name: 'building occupancy policy',
      path: () => `/buildings/${ids().buildingId}/units`,
      pick: fieldsInclude('vacant.residentMode'),
      valid: () => occupancyPolicy(),
      boundId: 'building',
    },
    {
      name: 'disconnect',
      path: () => '/connection',
      pick: (form) => form.hidden.some(([name]) => name.startsWith('$ACTION_ID_')),
      valid: () => [],
    },
  ];
}

/**
 * The actions of units (a unit's page, a building's units, the move-in lead, lease events) and of
 * the API keys page, for the actions battery; their roles are the unit tests' (tests/unit/units.test.ts,
 * turnover.test.ts, api.test.ts).
 */
export function unitAndKeyActionCatalog(
  ids: () => { unitId: string; buildingId: string },
): CatalogAction[] {
  const onUnit = (query = '') => `/units/${ids().unitId}${query}`;
  return [
    {
      name: 'record occupancy',
      path: () => onUnit(),
      pick: fieldsInclude('event'),
      valid: () => [
        ['event', 'give_notice'],
        ['moveOutOn', '2027-01-31'],
      ],
      boundId: 'unit',
    },
    {
      name: 'edit unit',
      path: () => onUnit(),
      pick: fieldsInclude('externalId'),
      valid: () => [
        ['label', 'Battery unit'],
        ['externalId', ''],
      ],
      boundId: 'unit',
    },
    {
      name: 'replace thermostat',
      path: () => onUnit(),
      pick: fieldsInclude('thermostatId'),
      valid: () => [['thermostatId', '000000000001']],
      boundId: 'unit',
    },
    {
      name: 'apply unit settings',
      path: () => onUnit('?confirm=settings'),
      // The page's one form that is none of the others (a button, confirmed).
      pick: (form) => !['event', 'externalId', 'thermostatId'].some((f) => form.fields.includes(f)),
      valid: () => [],
      boundId: 'unit',
    },
    {
      name: 'add unit',
      path: () => `/buildings/${ids().buildingId}/units`,
      pick: fieldsInclude('externalId'),
      valid: () => [
        ['label', 'Battery unit'],
        ['externalId', ''],
      ],
      boundId: 'building',
    },
    {
      name: 'units by csv',
      path: () => `/buildings/${ids().buildingId}/units`,
      pick: fieldsInclude('csv'),
      valid: () => [['csv', 'label,external id,thermostat id,state\nBattery unit,,,']],
      boundId: 'building',
    },
    {
      name: 'move-in lead',
      path: () => '/templates/occupancy',
      pick: fieldsInclude('hours'),
      valid: () => [['hours', '4']],
    },
    {
      name: 'lease events by csv',
      path: () => '/lease-events',
      pick: fieldsInclude('csv'),
      valid: () => [
        ['csv', 'event id,type,unit,occurred at\nBattery-1,move out,Battery,2027-01-31T11:00:00Z'],
      ],
    },
    {
      name: 'make lease inbox',
      path: () => '/lease-events',
      // The page's button that is neither the CSV form nor a waiting event's.
      pick: (form) => !['csv', 'unitId'].some((field) => form.fields.includes(field)),
      valid: () => [],
    },
    {
      name: 'make api key',
      path: () => '/api-keys',
      pick: fieldsInclude('scopes'),
      valid: () => [
        ['name', 'Battery key'],
        ['scopes', 'read'],
        ['every', 'on'],
      ],
    },
  ];
}

/** An occupancy policy that would be saved: vacant leaves resident mode as it is, the rest follow. */
const occupancyPolicy = (): Fields => [
  ['vacant.templateId', ''],
  ['vacant.residentMode', 'unchanged'],
  ...['occupied', 'notice_given', 'make_ready', 'move_in_scheduled'].map(
    (state): [string, string] => [`${state}.inherit`, 'on'],
  ),
];

/** The one action of `catalog` called `name`. */
export function catalogEntry<T extends { name: string }>(catalog: T[], name: string): T {
  const action = catalog.find((candidate) => candidate.name === name);
  if (!action) throw new Error(`no action ${name}`);
  return action;
}
