import { z } from 'zod';

/**
 * The service's payloads. Strict on what the spec (and the sandbox contract that fills its gaps)
 * states; tolerant of fields it does not (`looseObject` keeps them) and of optional extras.
 */

export const HVAC_MODES = ['heat', 'auxHeatOnly', 'cool', 'auto', 'off'] as const;
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
export const HOLD_ACTIONS = [
  'useEndTime4hour',
  'useEndTime2hour',
  'nextPeriod',
  'indefinite',
  'askMe',
] as const;
export const LOCK_AREAS = ['temperature', 'systemMode', 'schedule', 'vacation', 'other'] as const;
/** The device limits (°F) a thermostat's heat and cool ranges must stay within. */
export const DEVICE_LIMITS = {
  heat: { min: 45, max: 79 },
  cool: { min: 65, max: 92 },
} as const;

export const thermostatIdSchema = z.string().regex(/^\d{12}$/, 'A thermostat id is 12 digits.');
export const buildingIdSchema = z
  .string()
  .regex(/^[0-9a-f]{24}$/, 'A building id is 24 hex characters.');

const temperature = z.number().finite();

/** The service's minimum gap between heat and cool setpoints when it does not say (°F). */
export const DEFAULT_HEAT_COOL_MIN_DELTA = 5;

export const statusSchema = z.looseObject({
  thermostatId: z.string(),
  isResidentMode: z.boolean(),
  setPoint: z.looseObject({ desiredHeat: temperature, desiredCool: temperature }),
  name: z.string().optional(),
  buildingId: z.string().optional(),
  hvacMode: z.enum(HVAC_MODES).optional(),
  pendingHvacMode: z.enum(HVAC_MODES).nullable().optional(),
  supportedModes: z.array(z.enum(HVAC_MODES)).optional(),
  temperature: temperature.nullable().optional(),
  humidity: z.number().nullable().optional(),
  // Defaulted here, once, at the boundary: the service's default when a status leaves it out.
  heatCoolMinDelta: z.number().default(DEFAULT_HEAT_COOL_MIN_DELTA),
  currentComfortSettingRef: z.string().nullable().optional(),
  holdAction: z.string().optional(),
  equipmentStatus: z.string().optional(),
  connected: z.boolean().optional(),
  lastSeen: z.string().nullable().optional(),
});
export type ThermostatStatus = z.infer<typeof statusSchema>;

export const comfortSettingSchema = z.looseObject({
  comfortSettingRef: z.string().min(1),
  name: z.string(),
  desiredHeat: temperature,
  desiredCool: temperature,
  fanHeat: z.string(),
  fanCool: z.string(),
});
export type ComfortSetting = z.infer<typeof comfortSettingSchema>;

export const scheduleSchema = z.looseObject({
  timeZone: z.string().optional(),
  days: z
    .array(z.looseObject({ day: z.enum(DAYS), blocks: z.array(z.string()).length(48) }))
    .length(7),
});
export type Schedule = z.infer<typeof scheduleSchema>;

const range = z.looseObject({ min: temperature, max: temperature });
export const settingsSchema = z.looseObject({
  heatRange: range,
  coolRange: range,
  // Reads may show values beyond the writable set (`nextTransition`): shown, never refused.
  holdAction: z.string(),
  fanMinimumOnTime: z.number(),
});
export type ThermostatSettings = z.infer<typeof settingsSchema>;

export const accessControlSchema = z.looseObject({
  enabled: z.boolean(),
  passcode: z.string().nullable(),
  settings: z.looseObject(
    Object.fromEntries(LOCK_AREAS.map((area) => [area, z.boolean()])) as Record<
      (typeof LOCK_AREAS)[number],
      z.ZodBoolean
    >,
  ),
});
export type AccessControl = z.infer<typeof accessControlSchema>;

const alert = z.looseObject({ enabled: z.boolean(), value: z.number() });
export const alertSettingsSchema = z.looseObject({
  hvacMaintenanceReminder: z.looseObject({
    enabled: z.boolean(),
    lastMaintenanceDate: z.string().nullable(),
    maintenanceInterval: z.number(),
    maintenanceIntervalUnits: z.enum(['month', 'hour']),
    nextReminderDate: z.string().nullable().optional(),
  }),
  lowTemperatureAlert: alert.optional(),
  highTemperatureAlert: alert.optional(),
  lowHumidityAlert: alert.optional(),
  highHumidityAlert: alert.optional(),
});
export type AlertSettings = z.infer<typeof alertSettingsSchema>;

export const bulkResultSchema = z.looseObject({
  succeeded: z.number(),
  failed: z.number(),
  results: z.array(
    z.looseObject({
      thermostatId: z.string(),
      status: z.enum(['success', 'fail', 'error']),
      code: z.string().optional(),
      message: z.string().optional(),
      data: z.unknown().optional(),
    }),
  ),
});
export type BulkResult = z.infer<typeof bulkResultSchema>;
