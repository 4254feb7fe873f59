import { z } from 'zod';
import { comfortSettingFormSchema } from '@/lib/comfort/schemas';
import { BLOCKS_PER_DAY } from '@/lib/schedule/blocks';
import {
  HUMIDITY_LIMITS,
  HUMIDITY_MIN_GAP,
  INTERVAL_LIMITS,
  isCalendarDate,
  TEMPERATURE_ALERT_LIMITS,
} from '@/lib/settings/alerts';
import { FAN_MINIMUM_ON_TIME } from '@/lib/settings/configuration';
import { hasAtMostDecimals } from '@/lib/settings/form-data';
import { DAYS, DEVICE_LIMITS, FAN_VALUES, HOLD_ACTIONS, LOCK_AREAS } from '@/lib/service/schemas';
import { formatDelta, formatRange, type TemperatureRange } from '@/lib/platform/units';

/**
 * A template: a named profile applied to many thermostats. Every section is optional; a missing
 * section leaves that part of each thermostat as it is. Values are what the service takes (°F,
 * block numbers), stored as JSON; the forms that build a template convert units before this.
 *
 * Objects are strict: an unknown field is an error, so nothing unexpected (above all a passcode)
 * can ride along into the database or a request. Per-thermostat rules (its heat–cool gap, its
 * own ranges when the template sets none) are checked when planning, in lib/templates/plan/.
 */

/** A thermostat holds at most this many comfort settings (its three defaults included). */
export const MAX_COMFORT_SETTINGS = 16;

/** No thermostat allows heat and cool closer than this (°F); each has its own gap of at least it. */
export const SMALLEST_HEAT_COOL_GAP = 2;

/**
 * A °F range or gap in both units. The forms say their limits in the member's unit before the
 * schema speaks; what the schema says is read by anyone (an undo's stored reason), so in both.
 */
const inBothUnits = (range: TemperatureRange, separator: string) =>
  `${formatRange(range, 'F', separator)} (${formatRange(range, 'C', separator)})`;
const gapInBothUnits = (gap: number) => `${formatDelta(gap, 'F')} (${formatDelta(gap, 'C')})`;

/** °F within limits, at most two decimals (what the service stores). */
const fahrenheit = (limits: TemperatureRange, what: string) =>
  z
    .number({ error: `Enter the ${what} as a number.` })
    .min(limits.min, `The ${what} must be between ${inBothUnits(limits, ' and ')}.`)
    .max(limits.max, `The ${what} must be between ${inBothUnits(limits, ' and ')}.`)
    .refine((value) => hasAtMostDecimals(value, 2), `Use at most two decimals for the ${what}.`);

/** A comfort setting's name, as the comfort-setting form checks it (1–32 characters, trimmed). */
export const comfortSettingNameSchema = comfortSettingFormSchema.shape.name;

export const templateComfortSettingSchema = z
  .strictObject({
    name: comfortSettingNameSchema,
    desiredHeat: fahrenheit(DEVICE_LIMITS.heat, 'heat setpoint'),
    desiredCool: fahrenheit(DEVICE_LIMITS.cool, 'cool setpoint'),
    // The service's own defaults when a create leaves them out.
    fanHeat: z.enum(FAN_VALUES).default('auto'),
    fanCool: z.enum(FAN_VALUES).default('auto'),
  })
  .refine((setting) => setting.desiredCool - setting.desiredHeat >= SMALLEST_HEAT_COOL_GAP, {
    path: ['desiredCool'],
    message: `Cool must be at least ${gapInBothUnits(SMALLEST_HEAT_COOL_GAP)} above heat on every thermostat.`,
  });
export type TemplateComfortSetting = z.output<typeof templateComfortSettingSchema>;

/** How names are matched (here and on each thermostat): trimmed, case-insensitive, as the service keeps them unique. */
export const nameKey = (name: string) => name.trim().toLowerCase();

/**
 * The week by comfort-setting name: 7 days (Monday first) x 48 half-hour blocks. A name is
 * matched on each thermostat as the comfort settings are; one the template does not define must
 * already exist on a thermostat for the template to apply there.
 */
export const templateWeekSchema = z
  .array(z.array(comfortSettingNameSchema).length(BLOCKS_PER_DAY), {
    error: 'A week is 7 days of 48 half-hour blocks.',
  })
  .length(DAYS.length, 'A week is 7 days of 48 half-hour blocks.');

/** How many schedule ranges one change may set. */
export const MAX_SCHEDULE_RANGES = 12;

/**
 * A range of the week set to a comfort setting by name, as the service's schedule update takes
 * it (days, first and last half-hour block, never past midnight). The name is matched on each
 * thermostat like the week's names.
 */
export const templateScheduleRangeSchema = z
  .strictObject({
    days: z
      .array(z.enum(DAYS))
      .min(1, 'Choose at least one day.')
      .refine((days) => new Set(days).size === days.length, 'Choose each day once.'),
    firstSlot: z
      .number()
      .int()
      .min(0, 'Start at 00:00 or later.')
      .max(BLOCKS_PER_DAY - 1),
    lastSlot: z
      .number()
      .int()
      .min(0)
      .max(BLOCKS_PER_DAY - 1, 'End at 24:00 at the latest.'),
    name: comfortSettingNameSchema,
  })
  .refine((range) => range.firstSlot <= range.lastSlot, {
    path: ['lastSlot'],
    message: 'End the range after it starts (a range never passes midnight).',
  });
export type TemplateScheduleRange = z.output<typeof templateScheduleRangeSchema>;

export const RANGES_OR_WEEK =
  'Set either the whole week or ranges of it, not both: the week would overwrite the ranges.';

const rangeSchema = (limits: { min: number; max: number }, what: string) =>
  z
    .strictObject({
      min: fahrenheit(limits, `${what} minimum`),
      max: fahrenheit(limits, `${what} maximum`),
    })
    .refine((range) => range.min < range.max, {
      path: ['min'],
      message: `The ${what} minimum must be below its maximum.`,
    });

/** The configuration settings the service accepts (single and bulk): ranges, hold action, fan time. */
export const templateConfigurationSchema = z
  .strictObject({
    heatRange: rangeSchema(DEVICE_LIMITS.heat, 'heat range').optional(),
    coolRange: rangeSchema(DEVICE_LIMITS.cool, 'cool range').optional(),
    // Only the hold actions the service takes (one it added since is shown, never sent).
    holdAction: z.enum(HOLD_ACTIONS).optional(),
    fanMinimumOnTime: z
      .number()
      .int('Enter whole minutes.')
      .min(FAN_MINIMUM_ON_TIME.min)
      .max(FAN_MINIMUM_ON_TIME.max)
      .optional(),
  })
  .refine((section) => Object.keys(section).length > 0, 'Set at least one configuration setting.');
export type TemplateConfiguration = z.output<typeof templateConfigurationSchema>;

const thresholdSchema = (value: z.ZodType<number>) =>
  z
    .strictObject({ enabled: z.boolean().optional(), value: value.optional() })
    .refine((alert) => Object.keys(alert).length > 0, 'Set the alert on or off, or its value.');

const humidity = (limits: { min: number; max: number }) =>
  z
    .number()
    .int('Enter a whole percent.')
    .min(limits.min, `Enter a percent from ${limits.min} to ${limits.max}.`)
    .max(limits.max, `Enter a percent from ${limits.min} to ${limits.max}.`);

const maintenanceSchema = z
  .strictObject({
    enabled: z.boolean().optional(),
    lastMaintenanceDate: z.string().refine(isCalendarDate, 'Enter a date (YYYY-MM-DD).').optional(),
    maintenanceInterval: z.number().int('Enter a whole number.').optional(),
    maintenanceIntervalUnits: z.enum(['month', 'hour']).optional(),
  })
  .refine((reminder) => Object.keys(reminder).length > 0, 'Set at least one reminder field.')
  .superRefine((reminder, ctx) => {
    const { maintenanceInterval: interval, maintenanceIntervalUnits: units } = reminder;
    // An interval means nothing without its unit: they travel together.
    if ((interval === undefined) !== (units === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [interval === undefined ? 'maintenanceInterval' : 'maintenanceIntervalUnits'],
        message: 'Set the interval and its unit together.',
      });
      return;
    }
    if (interval === undefined || units === undefined) return;
    const limits = INTERVAL_LIMITS[units];
    if (interval < limits.min || interval > limits.max) {
      ctx.addIssue({
        code: 'custom',
        path: ['maintenanceInterval'],
        message: `Enter ${limits.min} to ${limits.max} ${units}s.`,
      });
    }
  });

/** Alert settings fields of version 2 (no `acMaintenanceReminder`: the service refuses it). */
export const templateAlertsSchema = z
  .strictObject({
    hvacMaintenanceReminder: maintenanceSchema.optional(),
    lowTemperatureAlert: thresholdSchema(
      fahrenheit(TEMPERATURE_ALERT_LIMITS, 'low temperature alert'),
    ).optional(),
    highTemperatureAlert: thresholdSchema(
      fahrenheit(TEMPERATURE_ALERT_LIMITS, 'high temperature alert'),
    ).optional(),
    lowHumidityAlert: thresholdSchema(humidity(HUMIDITY_LIMITS.lowHumidityAlert)).optional(),
    highHumidityAlert: thresholdSchema(humidity(HUMIDITY_LIMITS.highHumidityAlert)).optional(),
  })
  .refine((section) => Object.keys(section).length > 0, 'Set at least one alert setting.')
  .superRefine((section, ctx) => {
    // The pairs the service checks; the temperature gap is each thermostat's, at least this.
    const pairs = [
      [
        'lowTemperatureAlert',
        'highTemperatureAlert',
        SMALLEST_HEAT_COOL_GAP,
        gapInBothUnits(SMALLEST_HEAT_COOL_GAP),
        'temperature',
      ],
      [
        'lowHumidityAlert',
        'highHumidityAlert',
        HUMIDITY_MIN_GAP,
        `${HUMIDITY_MIN_GAP} %`,
        'humidity',
      ],
    ] as const;
    for (const [low, high, gap, gapWords, what] of pairs) {
      const lowValue = section[low]?.value;
      const highValue = section[high]?.value;
      if (lowValue === undefined || highValue === undefined || highValue - lowValue >= gap)
        continue;
      ctx.addIssue({
        code: 'custom',
        path: [high, 'value'],
        message: `Keep the high ${what} alert at least ${gapWords} above the low one.`,
      });
    }
  });
export type TemplateAlerts = z.output<typeof templateAlertsSchema>;

export const PASSCODE_REFUSED =
  'A template never holds a passcode: passcodes are set on each thermostat and never stored.';

/** Unknown keys refused, and a passcode refused in words that say why. */
const refuseExtraKeys = {
  error: (issue: { code?: string; keys?: string[] }) =>
    issue.code === 'unrecognized_keys' && issue.keys?.includes('passcode')
      ? PASSCODE_REFUSED
      : undefined,
};

/**
 * The locks only. Turning access control on keeps each thermostat's own passcode (the request
 * never carries one); turning it off unlocks everything and clears the passcode, as the service
 * does.
 */
export const templateAccessControlSchema = z.discriminatedUnion('enabled', [
  z.strictObject({ enabled: z.literal(false) }, refuseExtraKeys),
  z.strictObject(
    {
      enabled: z.literal(true),
      settings: z.strictObject(
        Object.fromEntries(LOCK_AREAS.map((area) => [area, z.boolean()])) as Record<
          (typeof LOCK_AREAS)[number],
          z.ZodBoolean
        >,
        refuseExtraKeys,
      ),
    },
    refuseExtraKeys,
  ),
]);
export type TemplateAccessControl = z.output<typeof templateAccessControlSchema>;

/** What turning resident mode off does at the service (sandbox/README.md, the residentMode PATCH). */
export const RESIDENT_OFF_RESETS =
  'Turning resident mode off resets the thermostat’s comfort settings (custom ones removed), weekly schedule, configuration, alert settings and access control to the service’s defaults.';

export const RESIDENT_OFF_ALONE =
  'Turning resident mode off resets every other setting, so it cannot be combined with other sections: they would be wiped. Plan it as a change of its own.';

export const TEMPLATE_SECTIONS = [
  'comfortSettings',
  'schedule',
  'scheduleRanges',
  'configuration',
  'alerts',
  'accessControl',
  'residentMode',
] as const;
export type TemplateSection = (typeof TEMPLATE_SECTIONS)[number];

/** A template with no section; said only when none was ticked (a ticked one refused says why). */
export const NO_SECTION = 'Add at least one section.';

export const templateSchema = z
  .strictObject(
    {
      name: z.string().trim().min(1, 'Name the template.').max(64, 'Use at most 64 characters.'),
      comfortSettings: z
        .array(templateComfortSettingSchema)
        .min(1, 'Add a comfort setting, or leave the section out.')
        .max(
          MAX_COMFORT_SETTINGS,
          `A thermostat holds at most ${MAX_COMFORT_SETTINGS} comfort settings.`,
        )
        .optional(),
      schedule: templateWeekSchema.optional(),
      scheduleRanges: z
        .array(templateScheduleRangeSchema)
        .min(1, 'Add a range, or leave the section out.')
        .max(MAX_SCHEDULE_RANGES, `Set at most ${MAX_SCHEDULE_RANGES} ranges in one change.`)
        .optional(),
      configuration: templateConfigurationSchema.optional(),
      alerts: templateAlertsSchema.optional(),
      accessControl: templateAccessControlSchema.optional(),
      /**
       * On or off. Off resets the thermostat's comfort settings, schedule, configuration, alert
       * settings and access control at the service, so it stands alone (see RESIDENT_OFF_ALONE).
       */
      residentMode: z.boolean().optional(),
    },
    refuseExtraKeys,
  )
  .superRefine((template, ctx) => {
    if (!TEMPLATE_SECTIONS.some((section) => template[section] !== undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: NO_SECTION });
    }
    if (
      template.residentMode === false &&
      TEMPLATE_SECTIONS.some(
        (section) => section !== 'residentMode' && template[section] !== undefined,
      )
    ) {
      ctx.addIssue({ code: 'custom', path: ['residentMode'], message: RESIDENT_OFF_ALONE });
    }
    if (template.schedule && template.scheduleRanges) {
      ctx.addIssue({ code: 'custom', path: ['scheduleRanges'], message: RANGES_OR_WEEK });
    }
    const seen = new Map<string, number>();
    template.comfortSettings?.forEach((setting, index) => {
      const earlier = seen.get(nameKey(setting.name));
      if (earlier !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['comfortSettings', index, 'name'],
          message: `The name is already used by comfort setting ${earlier + 1} (names ignore case).`,
        });
      } else seen.set(nameKey(setting.name), index);
    });
    checkSettingsInRanges(template, ctx);
  });

export type Template = z.output<typeof templateSchema>;
export type TemplateInput = z.input<typeof templateSchema>;

/** A template that sets ranges and comfort settings must keep its own settings inside them. */
function checkSettingsInRanges(template: Template, ctx: z.RefinementCtx): void {
  const { heatRange, coolRange } = template.configuration ?? {};
  template.comfortSettings?.forEach((setting, index) => {
    if (heatRange && (setting.desiredHeat < heatRange.min || setting.desiredHeat > heatRange.max)) {
      ctx.addIssue({
        code: 'custom',
        path: ['comfortSettings', index, 'desiredHeat'],
        message: `Heat must be within the template's heat range, ${inBothUnits(heatRange, ' to ')}.`,
      });
    }
    if (coolRange && (setting.desiredCool < coolRange.min || setting.desiredCool > coolRange.max)) {
      ctx.addIssue({
        code: 'custom',
        path: ['comfortSettings', index, 'desiredCool'],
        message: `Cool must be within the template's cool range, ${inBothUnits(coolRange, ' to ')}.`,
      });
    }
  });
}
