import { DAYS, LOCK_AREAS } from '@/lib/service/schemas';
import { ALERT_FIELDS } from '@/lib/settings/alerts';
import { CONFIGURATION_FIELDS } from '@/lib/settings/configuration';
import { MAX_COMFORT_SETTINGS, type TemplateSection } from '../schema';

/**
 * The template form's field names (lib/templates/form.ts describes them), shared by its
 * sections, the form that draws them and the pages that refill it.
 */

export const COMFORT_COLUMNS = [
  'name',
  'desiredHeat',
  'desiredCool',
  'fanHeat',
  'fanCool',
] as const;
export type ComfortColumn = (typeof COMFORT_COLUMNS)[number];

/** How many comfort rows a form may carry: as many as a thermostat holds. */
export const MAX_COMFORT_ROWS = MAX_COMFORT_SETTINGS;

export const comfortField = (row: number, column: ComfortColumn) => `comfort.${row}.${column}`;

/** Schedule-range rows a one-off form shows (the schema allows more, from other callers). */
export const RANGE_ROWS = 4;
/** A range row's fields: a box per day, the start and end times, the comfort setting's name. */
export type RangeColumn = (typeof DAYS)[number] | 'days' | 'from' | 'to' | 'name';
export const rangeField = (row: number, column: RangeColumn) => `range.${row}.${column}`;
export const lockField = (area: (typeof LOCK_AREAS)[number]) => `lock.${area}`;

/**
 * The checkbox that includes each section. The schedule is captured from a thermostat (or kept
 * from the stored template), not edited: its box keeps it or leaves it out.
 */
export const INCLUDE_FIELDS = {
  comfortSettings: 'includeComfortSettings',
  schedule: 'includeSchedule',
  scheduleRanges: 'includeScheduleRanges',
  configuration: 'includeConfiguration',
  alerts: 'includeAlerts',
  accessControl: 'includeAccessControl',
  residentMode: 'includeResidentMode',
} as const satisfies Partial<Record<TemplateSection, string>>;

export const SCHEDULE_FIELD = 'schedule';
export const ORIGINALS_FIELD = 'fahrenheit';
export const ACCESS_FIELD = 'accessControl';
export const RESIDENT_FIELD = 'residentMode';

/** Every field of the form, for refilling it after a post (checkboxes absent read as ''). */
export const TEMPLATE_FORM_FIELDS: readonly string[] = [
  'name',
  ...Object.values(INCLUDE_FIELDS),
  SCHEDULE_FIELD,
  ORIGINALS_FIELD,
  ...Array.from({ length: MAX_COMFORT_ROWS }, (_, row) =>
    COMFORT_COLUMNS.map((column) => comfortField(row, column)),
  ).flat(),
  ...CONFIGURATION_FIELDS,
  ...ALERT_FIELDS,
  ACCESS_FIELD,
  ...LOCK_AREAS.map(lockField),
  RESIDENT_FIELD,
  ...Array.from({ length: RANGE_ROWS }, (_, row) =>
    ([...DAYS, 'from', 'to', 'name'] as const).map((column) => rangeField(row, column)),
  ).flat(),
];
