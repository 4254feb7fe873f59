/** In-memory data model of the service: accounts, users, buildings and thermostats. */

export const HVAC_MODES = ['heat', 'auxHeatOnly', 'cool', 'auto', 'off'] as const;
export type HvacMode = (typeof HVAC_MODES)[number];

export const FAN_VALUES = ['auto', 'on'] as const;
export type FanValue = (typeof FAN_VALUES)[number];

/**
 * The production v2 hold actions, read and written: `indefinite` (until cancelled),
 * `nextTransition` (until the schedule's next change), `2hour` and `4hour` (that long), `askMe`
 * (the person at the thermostat chooses).
 */
export const HOLD_ACTIONS = ['indefinite', 'nextTransition', '2hour', '4hour', 'askMe'] as const;
export type HoldAction = (typeof HOLD_ACTIONS)[number];

/** The older consumer API's names, refused on write with the production value to use instead. */
export const LEGACY_HOLD_ACTIONS: Readonly<Record<string, HoldAction>> = {
  nextPeriod: 'nextTransition',
  useEndTime2hour: '2hour',
  useEndTime4hour: '4hour',
};

/** Humidity targets (integer %) of a thermostat without its own: humidify below, dehumidify above. */
export const DEFAULT_DESIRED_HUMIDITY = 36;
export const DEFAULT_DESIRED_DEHUMIDITY = 60;

export const DAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Day = (typeof DAYS)[number];

export const LOCK_KEYS = ['temperature', 'systemMode', 'schedule', 'vacation', 'other'] as const;
export type LockKey = (typeof LOCK_KEYS)[number];

/** Hardware limits of the devices (°F). Configured ranges must stay inside them. */
export const DEVICE_HEAT_LIMITS = { min: 45, max: 79 };
export const DEVICE_COOL_LIMITS = { min: 65, max: 92 };
export const DEFAULT_COMFORT_REFS = ['home', 'away', 'sleep'];

export interface ComfortSetting {
  comfortSettingRef: string;
  name: string;
  desiredHeat: number;
  desiredCool: number;
  fanHeat: FanValue;
  fanCool: FanValue;
}

export interface Range {
  min: number;
  max: number;
}

export interface ThermostatSettings {
  heatRange: Range;
  coolRange: Range;
  holdAction: HoldAction;
  fanMinimumOnTime: number;
}

export interface AccessControl {
  enabled: boolean;
  passcode: string | null;
  settings: Record<LockKey, boolean>;
}

export interface AlertSettings {
  hvacMaintenanceReminder: {
    enabled: boolean;
    lastMaintenanceDate: string;
    maintenanceInterval: number;
    maintenanceIntervalUnits: 'month' | 'hour';
  };
  lowTemperatureAlert: { enabled: boolean; value: number };
  highTemperatureAlert: { enabled: boolean; value: number };
  lowHumidityAlert: { enabled: boolean; value: number };
  highHumidityAlert: { enabled: boolean; value: number };
}

export interface Thermostat {
  thermostatId: string;
  accountId: string;
  buildingId: string;
  /** The portal's name of the thermostat. */
  name: string;
  /** The name shown on the device itself (defaults to `name`). */
  thermostatName: string;
  hvacMode: HvacMode;
  pendingMode: { mode: HvacMode; effectiveAt: number } | null;
  /** A resident-mode change the service accepted that the device applies at `effectiveAt`. */
  pendingResidentMode: { isResidentMode: boolean; effectiveAt: number } | null;
  supportedModes: HvacMode[];
  temperature: number;
  humidity: number;
  isResidentMode: boolean;
  heatCoolMinDelta: number;
  /** Humidity targets, integer %: the status record's `desiredHumidity` and `desiredDehumidity`. */
  desiredHumidity: number;
  desiredDehumidity: number;
  /** Whether the device checks in (it did moments ago); e2e support code reads this flag. */
  connected: boolean;
  /** Set exactly while `connected` is false (goOffline / goOnline keep the two together). */
  offline: OfflineState | null;
  comfortSettings: ComfortSetting[];
  nextCustomIndex: number;
  /** 7 days (Monday first) x 48 half-hour blocks of comfort setting refs. */
  schedule: string[][];
  settings: ThermostatSettings;
  accessControl: AccessControl;
  alertSettings: AlertSettings;
}

/**
 * An offline device: the sandbox-clock instant it went offline, and how long before that it last
 * checked in. Its `lastSeen` is `min(sinceMs, now) - silentBeforeMs`: it follows the sandbox
 * clock and is never in the future, even with the clock set back before `sinceMs`.
 */
export interface OfflineState {
  sinceMs: number;
  silentBeforeMs: number;
}

export interface Address {
  street: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
}

export interface Building {
  buildingId: string;
  accountId: string;
  name: string;
  timeZone: string;
  address: Address;
}

export interface User {
  userId: string;
  email: string;
  password: string;
  displayName: string;
  accountId: string;
}

export interface Account {
  accountId: string;
  name: string;
}

export interface DataStore {
  accounts: Map<string, Account>;
  users: User[];
  buildings: Map<string, Building>;
  thermostats: Map<string, Thermostat>;
}

export function defaultComfortSettings(): ComfortSetting[] {
  return [
    {
      comfortSettingRef: 'home',
      name: 'Home',
      desiredHeat: 70,
      desiredCool: 76,
      fanHeat: 'auto',
      fanCool: 'auto',
    },
    {
      comfortSettingRef: 'away',
      name: 'Away',
      desiredHeat: 62,
      desiredCool: 82,
      fanHeat: 'auto',
      fanCool: 'auto',
    },
    {
      comfortSettingRef: 'sleep',
      name: 'Sleep',
      desiredHeat: 66,
      desiredCool: 78,
      fanHeat: 'auto',
      fanCool: 'auto',
    },
  ];
}

/** Fills blocks `from..to` (inclusive) of a 48-block day with `ref`. */
export function fillDay(day: string[], from: number, to: number, ref: string): string[] {
  for (let block = from; block <= to; block++) day[block] = ref;
  return day;
}

/** Residential week: sleep until 06:30, home, away 08:30-17:30 on weekdays, home, sleep 22:30. */
export function residentialSchedule(): string[][] {
  return DAYS.map((_, index) => {
    const day = new Array<string>(48).fill('sleep');
    if (index < 5) {
      fillDay(day, 13, 16, 'home');
      fillDay(day, 17, 34, 'away');
      fillDay(day, 35, 44, 'home');
    } else {
      fillDay(day, 16, 45, 'home');
    }
    return day;
  });
}

export function defaultSettings(): ThermostatSettings {
  return {
    heatRange: { ...DEVICE_HEAT_LIMITS },
    coolRange: { ...DEVICE_COOL_LIMITS },
    holdAction: 'nextTransition',
    fanMinimumOnTime: 0,
  };
}

export function defaultAccessControl(): AccessControl {
  return {
    enabled: false,
    passcode: null,
    settings: {
      temperature: false,
      systemMode: false,
      schedule: false,
      vacation: false,
      other: false,
    },
  };
}

export function defaultAlertSettings(): AlertSettings {
  return {
    hvacMaintenanceReminder: {
      enabled: false,
      lastMaintenanceDate: '2020-01-01',
      maintenanceInterval: 6,
      maintenanceIntervalUnits: 'month',
    },
    lowTemperatureAlert: { enabled: true, value: 45 },
    highTemperatureAlert: { enabled: true, value: 92 },
    lowHumidityAlert: { enabled: false, value: 15 },
    highHumidityAlert: { enabled: false, value: 70 },
  };
}

export function defaultMode(supported: HvacMode[]): HvacMode {
  if (supported.includes('auto')) return 'auto';
  return supported.find((mode) => mode !== 'off') ?? 'off';
}

/** What turning resident mode off does: most settings go back to factory defaults. */
export function resetToDefaults(thermostat: Thermostat): void {
  thermostat.comfortSettings = defaultComfortSettings();
  thermostat.nextCustomIndex = 1;
  thermostat.schedule = residentialSchedule();
  thermostat.settings = defaultSettings();
  thermostat.accessControl = defaultAccessControl();
  thermostat.alertSettings = defaultAlertSettings();
  thermostat.heatCoolMinDelta = 5;
  thermostat.desiredHumidity = DEFAULT_DESIRED_HUMIDITY;
  thermostat.desiredDehumidity = DEFAULT_DESIRED_DEHUMIDITY;
}

export function cloneStore(store: DataStore): DataStore {
  return structuredClone(store);
}

/** The device stops checking in now (sandbox clock); it was last heard from `silentBeforeMs` ago. */
export function goOffline(nowMs: number, thermostat: Thermostat, silentBeforeMs = 0): void {
  if (!thermostat.connected) return;
  thermostat.connected = false;
  thermostat.offline = { sinceMs: nowMs, silentBeforeMs };
}

export function goOnline(thermostat: Thermostat): void {
  thermostat.connected = true;
  thermostat.offline = null;
}

export function addMonths(date: string, months: number): string {
  const result = new Date(`${date}T00:00:00Z`);
  const dayOfMonth = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(
    Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0),
  ).getUTCDate();
  result.setUTCDate(Math.min(dayOfMonth, lastDay));
  return result.toISOString().slice(0, 10);
}
