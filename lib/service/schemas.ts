import { z } from 'zod';

/**
 * Setpoint's own words for what the service deals in: the vocabulary (modes, days, hold
 * actions ...) and the types every other part of Setpoint works with. The service's wire shapes
 * live in ./wire/, one module per resource, which turn them into these types and back; nothing
 * outside this folder sees a wire name.
 */

export const HVAC_MODES = ['heat', 'auxHeatOnly', 'cool', 'auto', 'off'] as const;
/** A mode the service reported: one of HVAC_MODES, or a name it added since (shown as it is). */
export type HvacMode = (typeof HVAC_MODES)[number] | (string & {});
export const DAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export const FAN_VALUES = ['auto', 'on'] as const;
/** The hold actions the service takes (its production v2 values). */
export const HOLD_ACTIONS = ['nextTransition', '2hour', '4hour', 'indefinite', 'askMe'] as const;
export type HoldAction = (typeof HOLD_ACTIONS)[number];
export const LOCK_AREAS = ['temperature', 'systemMode', 'schedule', 'vacation', 'other'] as const;
/** The device limits (°F) a thermostat's heat and cool ranges must stay within. */
export const DEVICE_LIMITS = {
  heat: { min: 45, max: 79 },
  cool: { min: 65, max: 92 },
} as const;

/**
 * The equipment a status can report running, in the service's names (`runningEquipment`), in
 * the order Setpoint lists them.
 */
export const EQUIPMENT = [
  'heatPump',
  'heatPump2',
  'heatPump3',
  'auxHeat1',
  'auxHeat2',
  'auxHeat3',
  'compCool1',
  'compCool2',
  'fan',
  'humidifier',
  'dehumidifier',
  'ventilator',
  'economizer',
  'compHotWater',
  'auxHotWater',
] as const;

export const thermostatIdSchema = z.string().regex(/^\d{12}$/, 'A thermostat id is 12 digits.');
export const buildingIdSchema = z
  .string()
  .regex(/^[0-9a-f]{24}$/, 'A building id is 24 hex characters.');

/** The service's minimum gap between heat and cool setpoints when it does not say (°F). */
export const DEFAULT_HEAT_COOL_MIN_DELTA = 5;

export type Range = { min: number; max: number };

/**
 * A thermostat's status as Setpoint keeps it. Only `isResidentMode` and `setPoint` are promised
 * by the spec; everything else is null when the service leaves it out.
 */
export type ThermostatStatus = {
  isResidentMode: boolean;
  setPoint: { desiredHeat: number; desiredCool: number };
  hvacMode: HvacMode | null;
  /** Whether the thermostat is connected to the service, as it says. */
  connected: boolean | null;
  temperature: number | null;
  humidity: number | null;
  /** The name of the comfort setting in use, as the service gives it (it may be shortened). */
  comfortSetting: string | null;
  /** The service's gap between heat and cool setpoints (its default when it does not say). */
  heatCoolMinDelta: number;
  /** What is running, in the service's names; null when it did not say. */
  runningEquipment: string[] | null;
  heatRange: Range | null;
  coolRange: Range | null;
};

export type ComfortSetting = {
  comfortSettingRef: string;
  name: string;
  desiredHeat: number;
  desiredCool: number;
  fanHeat: string;
  fanCool: string;
};

/** The week: for each day (Monday first), its 48 half-hour slots' comfort setting refs. */
export type Schedule = { days: { day: (typeof DAYS)[number]; blocks: string[] }[] };

/**
 * One range update of the weekly schedule: the comfort setting for slots `firstSlot` to
 * `lastSlot` (both included; slot n starts at n × 30 minutes) on each of `days`.
 */
export type ScheduleRange = {
  days: (typeof DAYS)[number][];
  firstSlot: number;
  lastSlot: number;
  comfortSettingRef: string;
};

export type ThermostatSettings = {
  heatRange: Range;
  coolRange: Range;
  /** A HOLD_ACTIONS value, or one the service added since (shown as it is). */
  holdAction: string;
  fanMinimumOnTime: number;
};

export type AccessControl = {
  enabled: boolean;
  /** Whether a passcode is set (the service never shows it). */
  passcodeSet: boolean;
  settings: Record<(typeof LOCK_AREAS)[number], boolean>;
};

export type ThresholdAlert = { enabled: boolean; value: number };
export type AlertSettings = {
  hvacMaintenanceReminder: {
    enabled: boolean;
    lastMaintenanceDate: string | null;
    maintenanceInterval: number;
    /** `month` or `hour`, or a unit the service added since. */
    maintenanceIntervalUnits: string;
    /** When the service says maintenance is next due (it works it out; null when off). */
    nextReminderDate?: string | null;
  };
  lowTemperatureAlert?: ThresholdAlert;
  highTemperatureAlert?: ThresholdAlert;
  lowHumidityAlert?: ThresholdAlert;
  highHumidityAlert?: ThresholdAlert;
};

/** A thermostat as the service summarises it after creating or moving it. */
export type ThermostatSummary = {
  thermostatId: string | null;
  buildingId: string | null;
  name: string | null;
  modes: string[] | null;
};

/** What one bulk request said of each thermostat it named. */
export type BulkResult = {
  results: BulkItem[];
};
export type BulkItem =
  /** Applied (`readBack`: the answer was lost, and reading the thermostat back showed it). */
  | { thermostatId: string; status: 'success'; readBack?: boolean }
  /** Refused: the service's reasons by field. */
  | { thermostatId: string; status: 'fail'; reasons: Record<string, string> }
  /**
   * Failed: the service's error code (a word such as `thermostat_offline`) and message; or,
   * where the answer was lost, `not_applied` / `unconfirmed` as reading it back showed.
   */
  | { thermostatId: string; status: 'error'; code: string | null; message: string | null };
