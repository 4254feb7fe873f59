import { BLOCKS_PER_DAY } from '@/lib/schedule/blocks';
import {
  ALERT_FIELDS,
  type AlertField,
  alertFieldOf,
  HUMIDITY_MIN_GAP,
  TEMPERATURE_ALERT_LIMITS,
} from '@/lib/settings/alerts';
import {
  CONFIGURATION_FIELDS,
  type ConfigurationField,
  configurationFieldOf,
  validateConfiguration,
} from '@/lib/settings/configuration';
import { hasAtMostDecimals, readNumber } from '@/lib/settings/form-data';
import { DAYS, DEVICE_LIMITS, LOCK_AREAS } from '@/lib/service/schemas';
import {
  DECIMALS,
  formatDelta,
  formatRange,
  formatTemperature,
  type TemperatureRange,
  type TemperatureUnit,
  toDisplay,
  toServiceFahrenheit,
} from '@/lib/platform/units';
import {
  MAX_COMFORT_SETTINGS,
  NO_SECTION,
  nameKey,
  PASSCODE_REFUSED,
  SMALLEST_HEAT_COOL_GAP,
  type Template,
  type TemplateSection,
  templateSchema,
} from './schema';

/**
 * The template form, both ways: what a member posts (their unit, blank rows, a checkbox per
 * section) into a `Template` (°F to two decimals, through `templateSchema`), and a template back
 * into the form's values. Pure, so the unit tests and the client form share it.
 *
 * Field names: `name`; `include<Section>` per section; comfort rows `comfort.<row>.<field>`;
 * the configuration and alert fields named as on a thermostat's own forms (so their checks and
 * error placement are reused); `accessControl` (on/off) and `lock.<area>`. A new template also
 * posts the schedule it captured (`schedule`, JSON of names; kept when `includeSchedule` is
 * ticked, like every section) and the exact °F of the values it was pre-filled with
 * (`fahrenheit`), so a value left as shown in °C keeps its °F exactly; an edit takes both from the
 * stored template instead. There is no passcode field, and a posted one is refused.
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

export type TemplateFormValues = Record<string, string>;
export type TemplateFormErrors = Record<string, string[]>;
/** Exact °F by form field, for values left as they were shown. */
export type Originals = Record<string, number>;

/** A template, or something on its way to being one (read from a thermostat): loosely typed. */
export type TemplateDraft = {
  name?: string;
  comfortSettings?: readonly {
    name: string;
    desiredHeat: number;
    desiredCool: number;
    fanHeat?: string;
    fanCool?: string;
  }[];
  schedule?: readonly (readonly string[])[];
  configuration?: {
    heatRange?: TemperatureRange;
    coolRange?: TemperatureRange;
    holdAction?: string;
    fanMinimumOnTime?: number;
  };
  alerts?: {
    hvacMaintenanceReminder?: {
      enabled?: boolean;
      lastMaintenanceDate?: string | null;
      maintenanceInterval?: number;
      maintenanceIntervalUnits?: 'month' | 'hour';
    };
    lowTemperatureAlert?: { enabled?: boolean; value?: number };
    highTemperatureAlert?: { enabled?: boolean; value?: number };
    lowHumidityAlert?: { enabled?: boolean; value?: number };
    highHumidityAlert?: { enabled?: boolean; value?: number };
  };
  accessControl?: {
    enabled: boolean;
    settings?: Partial<Record<(typeof LOCK_AREAS)[number], boolean>>;
  };
  residentMode?: boolean;
  scheduleRanges?: readonly {
    days: readonly string[];
    firstSlot: number;
    lastSlot: number;
    name: string;
  }[];
};

const THRESHOLDS = [
  ['lowTemperatureAlert', 'lowTemperature', 'temperature'],
  ['highTemperatureAlert', 'highTemperature', 'temperature'],
  ['lowHumidityAlert', 'lowHumidity', 'humidity'],
  ['highHumidityAlert', 'highHumidity', 'humidity'],
] as const;

const shown = (fahrenheit: number, unit: TemperatureUnit) => String(toDisplay(fahrenheit, unit));

/**
 * The form's values for a template (or a draft read from a thermostat), in the member's unit,
 * and the exact °F behind each temperature shown. Each section the draft has is ticked, unless
 * `tick: 'none'`: a draft read from a thermostat fills in every section the member may tick, but
 * ticks none, so that a template meant to change one thing changes only that.
 */
export function templateFormValues(
  draft: TemplateDraft,
  unit: TemperatureUnit,
  options: { tick?: 'present' | 'none' } = {},
): { values: TemplateFormValues; originals: Originals } {
  const values: TemplateFormValues = { name: draft.name ?? '' };
  const originals: Originals = {};
  const tick = (present: boolean) => (present && options.tick !== 'none' ? 'on' : '');
  const temperature = (field: string, fahrenheit: number | undefined) => {
    values[field] = '';
    if (fahrenheit === undefined) return;
    values[field] = shown(fahrenheit, unit);
    originals[field] = fahrenheit;
  };
  const on = (flag: boolean | undefined) => (flag ? 'on' : '');

  values[INCLUDE_FIELDS.comfortSettings] = tick(draft.comfortSettings !== undefined);
  draft.comfortSettings?.forEach((setting, row) => {
    values[comfortField(row, 'name')] = setting.name;
    temperature(comfortField(row, 'desiredHeat'), setting.desiredHeat);
    temperature(comfortField(row, 'desiredCool'), setting.desiredCool);
    values[comfortField(row, 'fanHeat')] = setting.fanHeat ?? 'auto';
    values[comfortField(row, 'fanCool')] = setting.fanCool ?? 'auto';
  });

  values[INCLUDE_FIELDS.schedule] = tick(draft.schedule !== undefined);
  if (draft.schedule) values[SCHEDULE_FIELD] = JSON.stringify(draft.schedule);

  const configuration = draft.configuration;
  values[INCLUDE_FIELDS.configuration] = tick(configuration !== undefined);
  temperature('heatMin', configuration?.heatRange?.min);
  temperature('heatMax', configuration?.heatRange?.max);
  temperature('coolMin', configuration?.coolRange?.min);
  temperature('coolMax', configuration?.coolRange?.max);
  values.holdAction = configuration?.holdAction ?? '';
  values.fanMinimumOnTime =
    configuration?.fanMinimumOnTime === undefined ? '' : String(configuration.fanMinimumOnTime);

  const alerts = draft.alerts;
  values[INCLUDE_FIELDS.alerts] = tick(alerts !== undefined);
  const reminder = alerts?.hvacMaintenanceReminder;
  values.maintenanceEnabled = on(reminder?.enabled);
  values.lastMaintenanceDate = reminder?.lastMaintenanceDate ?? '';
  values.maintenanceInterval =
    reminder?.maintenanceInterval === undefined ? '' : String(reminder.maintenanceInterval);
  values.maintenanceIntervalUnits = reminder?.maintenanceIntervalUnits ?? 'month';
  for (const [name, prefix, measure] of THRESHOLDS) {
    const alert = alerts?.[name];
    values[`${prefix}Enabled`] = on(alert?.enabled);
    if (measure === 'temperature') temperature(`${prefix}Value`, alert?.value);
    else values[`${prefix}Value`] = alert?.value === undefined ? '' : String(alert.value);
  }

  const access = draft.accessControl;
  values[INCLUDE_FIELDS.accessControl] = tick(access !== undefined);
  values[ACCESS_FIELD] = access === undefined ? '' : access.enabled ? 'on' : 'off';
  for (const area of LOCK_AREAS) values[lockField(area)] = on(access?.settings?.[area]);

  values[INCLUDE_FIELDS.scheduleRanges] = tick(draft.scheduleRanges !== undefined);
  draft.scheduleRanges?.slice(0, RANGE_ROWS).forEach((range, row) => {
    for (const day of DAYS) values[rangeField(row, day)] = on(range.days.includes(day));
    values[rangeField(row, 'from')] = String(range.firstSlot);
    // The end is a time: the end of the last block.
    values[rangeField(row, 'to')] = String(range.lastSlot + 1);
    values[rangeField(row, 'name')] = range.name;
  });

  values[INCLUDE_FIELDS.residentMode] = tick(draft.residentMode !== undefined);
  values[RESIDENT_FIELD] =
    draft.residentMode === undefined ? '' : draft.residentMode ? 'on' : 'off';

  values[ORIGINALS_FIELD] = JSON.stringify(originals);
  return { values, originals };
}

/** The posted form's values, to refill it: every field ('' when absent), never a passcode. */
export function templateFormStrings(form: FormData): TemplateFormValues {
  return Object.fromEntries(
    TEMPLATE_FORM_FIELDS.map((field) => {
      const value = form.get(field);
      return [field, typeof value === 'string' ? value : ''];
    }),
  );
}

export type TemplateFormSource =
  /** A new template: the captured schedule and the pre-filled °F come with the post. */
  | { kind: 'new' }
  /** An edit: both come from the stored template, whatever is posted. */
  | { kind: 'edit'; current: Template };

export type TemplateFormResult =
  | { ok: true; template: Template }
  | { ok: false; fieldErrors: TemplateFormErrors };

const MALFORMED =
  'The form was not sent as expected; nothing was saved. Reload the page and try again.';
const BROKEN_SCHEDULE =
  'The captured schedule is not a week of 7 days of 48 half-hour blocks. Start from the thermostat again.';
/** Far more than a week of names or a full form's numbers; anything longer is not ours. */
const MAX_HIDDEN_LENGTH = 64_000;

/**
 * The posted template form as a `Template`, or the errors by field (`form` for the whole form,
 * a section's include field's section name for the section as a whole). Temperatures are read
 * in `unit` and stored as °F with at most two decimals; one left as it was shown keeps its
 * exact °F.
 */
export function parseTemplateForm(
  form: FormData,
  options: {
    unit: TemperatureUnit;
    source: TemplateFormSource;
    /** A one-off change has no name field: the name is given (its title comes later). */
    name?: string;
  },
): TemplateFormResult {
  const { unit, source } = options;
  const errors: TemplateFormErrors = {};
  const add = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };

  for (const [key, value] of form.entries()) {
    // Never a passcode: not in a template, not in the database, not echoed back.
    if (/passcode/i.test(key)) return { ok: false, fieldErrors: { form: [PASSCODE_REFUSED] } };
    // Only our own fields are text; a file where text belongs is not read as blank.
    if (typeof value !== 'string') return { ok: false, fieldErrors: { form: [MALFORMED] } };
  }
  const text = (field: string) => {
    const value = form.get(field);
    return typeof value === 'string' ? value : '';
  };
  const checked = (field: string) => text(field) === 'on';

  const originals =
    source.kind === 'edit'
      ? templateFormValues(source.current, unit).originals
      : postedOriginals(text(ORIGINALS_FIELD));

  /** A temperature typed in the member's unit, as the °F to store; undefined after an error. */
  const temperature = (
    field: string,
    limits: TemperatureRange,
    what: string,
  ): number | undefined => {
    const entered = readNumber(text(field).replace(',', '.'));
    if (entered === undefined) {
      add(field, `Enter the ${what}.`);
      return undefined;
    }
    if (Number.isNaN(entered)) {
      add(field, `Enter a number, such as ${unit === 'F' ? '68' : '20'}.`);
      return undefined;
    }
    if (!hasAtMostDecimals(entered, DECIMALS[unit])) {
      add(field, `Use at most ${DECIMALS[unit] === 1 ? 'one decimal' : 'two decimals'}.`);
      return undefined;
    }
    const fahrenheit = toServiceFahrenheit(entered, unit, limits, originals[field]);
    if (fahrenheit === null) {
      add(field, `The ${what} must be between ${formatRange(limits, unit, ' and ')}.`);
      return undefined;
    }
    return fahrenheit;
  };
  /** The exact °F behind a value left as it was shown (configuration is read by its own rules). */
  const exact = (field: string, fahrenheit: number) => {
    const original = originals[field];
    const entered = readNumber(text(field));
    return original !== undefined && entered !== undefined && toDisplay(original, unit) === entered
      ? original
      : fahrenheit;
  };
  const degrees = (fahrenheit: number) => formatTemperature(fahrenheit, unit);

  const input: Record<string, unknown> = { name: options.name ?? text('name') };

  // Comfort settings: the rows with anything typed, in order.
  const rowOf: number[] = [];
  if (checked(INCLUDE_FIELDS.comfortSettings)) {
    const rows = new Set<number>();
    for (const key of form.keys()) {
      const match = /^comfort\.(\d{1,2})\.[a-zA-Z]+$/.exec(key);
      if (match) rows.add(Number(match[1]));
    }
    const settings: Record<string, unknown>[] = [];
    const names = new Map<string, number>();
    for (const row of [...rows].sort((a, b) => a - b)) {
      const field = (column: ComfortColumn) => comfortField(row, column);
      const name = text(field('name')).trim();
      if (!name && !text(field('desiredHeat')).trim() && !text(field('desiredCool')).trim())
        continue;
      if (!name) add(field('name'), 'Name the comfort setting, or clear its row.');
      const heat = temperature(field('desiredHeat'), DEVICE_LIMITS.heat, 'heat setpoint');
      const cool = temperature(field('desiredCool'), DEVICE_LIMITS.cool, 'cool setpoint');
      if (heat !== undefined && cool !== undefined && cool - heat < SMALLEST_HEAT_COOL_GAP) {
        add(
          field('desiredCool'),
          `Cool must be at least ${formatDelta(SMALLEST_HEAT_COOL_GAP, unit)} above heat (${degrees(heat)}) on every thermostat.`,
        );
      }
      const earlier = names.get(nameKey(name));
      if (name && earlier !== undefined) {
        add(
          field('name'),
          `The name is already used by comfort setting ${earlier + 1} (names ignore case).`,
        );
      } else if (name) names.set(nameKey(name), row);
      rowOf.push(row);
      settings.push({
        name,
        desiredHeat: heat,
        desiredCool: cool,
        fanHeat: text(field('fanHeat')) || 'auto',
        fanCool: text(field('fanCool')) || 'auto',
      });
    }
    input.comfortSettings = settings;
  }

  // The schedule: captured from a thermostat (new) or kept from the stored template (edit).
  if (checked(INCLUDE_FIELDS.schedule)) {
    if (source.kind === 'edit') {
      if (source.current.schedule) input.schedule = source.current.schedule;
    } else {
      const posted = text(SCHEDULE_FIELD);
      if (posted.length > MAX_HIDDEN_LENGTH) add('schedule', MALFORMED);
      else if (posted !== '') {
        try {
          input.schedule = JSON.parse(posted);
        } catch {
          add('schedule', MALFORMED);
        }
      }
    }
  }

  // Configuration: the fields of a bulk change, a blank one left as each thermostat has it.
  if (checked(INCLUDE_FIELDS.configuration)) {
    const entered = Object.fromEntries(
      CONFIGURATION_FIELDS.map((field) => [field, text(field)]),
    ) as Record<ConfigurationField, string>;
    const result = validateConfiguration(entered, {
      unit,
      heatCoolMinDelta: SMALLEST_HEAT_COOL_GAP,
    });
    if (!result.ok) {
      for (const [field, messages] of Object.entries(result.fieldErrors)) {
        for (const message of messages ?? [])
          add(field === 'form' ? 'configuration' : field, message);
      }
    } else {
      const { heatRange, coolRange, holdAction, fanMinimumOnTime } = result.changes;
      input.configuration = {
        ...(heatRange && {
          heatRange: { min: exact('heatMin', heatRange.min), max: exact('heatMax', heatRange.max) },
        }),
        ...(coolRange && {
          coolRange: { min: exact('coolMin', coolRange.min), max: exact('coolMax', coolRange.max) },
        }),
        ...(holdAction && { holdAction }),
        ...(fanMinimumOnTime !== undefined && { fanMinimumOnTime }),
      };
    }
  }

  // Alerts: each switch as ticked; a blank value or interval left as each thermostat has it.
  if (checked(INCLUDE_FIELDS.alerts)) {
    const reminder: Record<string, unknown> = { enabled: checked('maintenanceEnabled') };
    const date = text('lastMaintenanceDate').trim();
    if (date) reminder.lastMaintenanceDate = date;
    const interval = readNumber(text('maintenanceInterval'));
    if (Number.isNaN(interval)) add('maintenanceInterval', 'Enter a whole number.');
    else if (interval !== undefined) {
      reminder.maintenanceInterval = interval;
      reminder.maintenanceIntervalUnits = text('maintenanceIntervalUnits');
    }
    const alerts: Record<string, unknown> = { hvacMaintenanceReminder: reminder };
    const values: Partial<Record<(typeof THRESHOLDS)[number][0], number>> = {};
    for (const [name, prefix, measure] of THRESHOLDS) {
      const alert: Record<string, unknown> = { enabled: checked(`${prefix}Enabled`) };
      const field = `${prefix}Value` as AlertField;
      if (text(field).trim() !== '') {
        const value =
          measure === 'temperature'
            ? temperature(
                field,
                TEMPERATURE_ALERT_LIMITS,
                `${prefix.startsWith('low') ? 'low' : 'high'} temperature alert`,
              )
            : humidity(text(field), (message) => add(field, message));
        if (value !== undefined) {
          alert.value = value;
          values[name] = value;
        }
      }
      alerts[name] = alert;
    }
    const { lowTemperatureAlert: low, highTemperatureAlert: high } = values;
    if (low !== undefined && high !== undefined && high - low < SMALLEST_HEAT_COOL_GAP) {
      add(
        'highTemperatureValue',
        `Keep the high temperature alert at least ${formatDelta(SMALLEST_HEAT_COOL_GAP, unit)} above the low one (${degrees(low)}).`,
      );
    }
    const { lowHumidityAlert: lowH, highHumidityAlert: highH } = values;
    if (lowH !== undefined && highH !== undefined && highH - lowH < HUMIDITY_MIN_GAP) {
      add(
        'highHumidityValue',
        `Keep the high humidity alert at least ${HUMIDITY_MIN_GAP} % above the low one (${lowH} %).`,
      );
    }
    input.alerts = alerts;
  }

  // Access control: on or off, and the locks. Never a passcode (each thermostat keeps its own).
  if (checked(INCLUDE_FIELDS.accessControl)) {
    const state = text(ACCESS_FIELD);
    if (state === 'off') input.accessControl = { enabled: false };
    else if (state === 'on') {
      input.accessControl = {
        enabled: true,
        settings: Object.fromEntries(LOCK_AREAS.map((area) => [area, checked(lockField(area))])),
      };
    } else add(ACCESS_FIELD, 'Choose whether access control is on or off.');
  }

  // Schedule ranges: each row with anything chosen; start and end are times (the end is the end
  // of the last half hour), a range never passes midnight.
  const rangeRowOf: number[] = [];
  if (checked(INCLUDE_FIELDS.scheduleRanges)) {
    const ranges: Record<string, unknown>[] = [];
    for (let row = 0; row < RANGE_ROWS; row++) {
      const field = (column: RangeColumn) => rangeField(row, column);
      const days = DAYS.filter((day) => checked(field(day)));
      const name = text(field('name')).trim();
      const from = text(field('from'));
      const to = text(field('to'));
      if (days.length === 0 && !name) continue;
      const first = halfHour(from, 0, BLOCKS_PER_DAY - 1);
      const end = halfHour(to, 1, BLOCKS_PER_DAY);
      if (days.length === 0) add(field('days'), 'Choose at least one day.');
      if (!name) add(field('name'), 'Name the comfort setting, or clear the row.');
      if (first === undefined) add(field('from'), 'Choose the start time.');
      if (end === undefined) add(field('to'), 'Choose the end time.');
      else if (first !== undefined && end <= first)
        add(field('to'), 'End after the start (a range never passes midnight).');
      rangeRowOf.push(row);
      ranges.push({
        days,
        firstSlot: first,
        lastSlot: end === undefined ? undefined : end - 1,
        name,
      });
    }
    input.scheduleRanges = ranges;
  }

  // Resident mode: on or off (off resets the rest, so the schema refuses it with other sections).
  if (checked(INCLUDE_FIELDS.residentMode)) {
    const state = text(RESIDENT_FIELD);
    if (state === 'on' || state === 'off') input.residentMode = state === 'on';
    else add(RESIDENT_FIELD, 'Choose whether resident mode is on or off.');
  }

  // The template's own settings inside its own ranges, said in the member's unit.
  const configuration = input.configuration as Template['configuration'];
  (input.comfortSettings as { desiredHeat?: number; desiredCool?: number }[] | undefined)?.forEach(
    (setting, index) => {
      const row = rowOf[index] ?? index;
      for (const [kind, range] of [
        ['Heat', configuration?.heatRange],
        ['Cool', configuration?.coolRange],
      ] as const) {
        const value = kind === 'Heat' ? setting.desiredHeat : setting.desiredCool;
        if (!range || value === undefined || (value >= range.min && value <= range.max)) continue;
        add(
          comfortField(row, kind === 'Heat' ? 'desiredHeat' : 'desiredCool'),
          `${kind} must be within this template’s ${kind.toLowerCase()} range, ${formatRange(range, unit)}.`,
        );
      }
    },
  );

  // The schema has the last word; what was said above in the member's unit comes first.
  const parsed = templateSchema.safeParse(input);
  const ticked = Object.values(INCLUDE_FIELDS).some(checked);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      // A ticked section that was refused is why there is none: its own errors say so.
      if (issue.message === NO_SECTION && ticked) continue;
      const field = fieldOfPath(issue.path, rowOf, rangeRowOf);
      // The schedule is captured, never typed: any fault in it means the capture went wrong.
      const message = field === 'schedule' ? BROKEN_SCHEDULE : issue.message;
      if (!errors[field]?.includes(message) && (!errors[field] || field === 'form'))
        add(field, message);
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, fieldErrors: errors };
  return { ok: true, template: parsed.data };
}

/** A half-hour boundary posted as its block number, within limits; undefined when not one. */
function halfHour(raw: string, min: number, max: number): number | undefined {
  if (!/^\d{1,2}$/.test(raw)) return undefined;
  const value = Number(raw);
  return value >= min && value <= max ? value : undefined;
}

function humidity(raw: string, fail: (message: string) => void): number | undefined {
  const value = readNumber(raw);
  if (value === undefined || Number.isNaN(value) || !Number.isInteger(value)) {
    fail('Enter a whole percent.');
    return undefined;
  }
  return value;
}

/** The posted °F of pre-filled values: finite numbers by field name, anything else dropped. */
function postedOriginals(raw: string): Originals {
  if (raw === '' || raw.length > MAX_HIDDEN_LENGTH) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  return Object.fromEntries(
    Object.entries(parsed).filter(
      (entry): entry is [string, number] =>
        TEMPLATE_FORM_FIELDS.includes(entry[0]) &&
        typeof entry[1] === 'number' &&
        Number.isFinite(entry[1]),
    ),
  );
}

/** The form field for a schema issue's path (a section's name for the section as a whole). */
function fieldOfPath(
  path: readonly PropertyKey[],
  rowOf: readonly number[],
  rangeRowOf: readonly number[] = [],
): string {
  const [head, ...rest] = path;
  switch (head) {
    case undefined:
      return 'form';
    case 'name':
      return 'name';
    case 'comfortSettings': {
      const [index, column] = rest;
      if (typeof index === 'number' && typeof column === 'string') {
        return comfortField(rowOf[index] ?? index, column as ComfortColumn);
      }
      return 'comfortSettings';
    }
    case 'schedule':
      return 'schedule';
    case 'scheduleRanges': {
      const [index, key] = rest;
      const column = ({ days: 'days', firstSlot: 'from', lastSlot: 'to', name: 'name' } as const)[
        String(key) as 'days'
      ];
      return typeof index === 'number' && column
        ? rangeField(rangeRowOf[index] ?? index, column)
        : 'scheduleRanges';
    }
    case 'configuration': {
      const field = configurationFieldOf(rest.map(String).join('.'));
      return field === 'form' ? 'configuration' : field;
    }
    case 'alerts': {
      const field = alertFieldOf(rest.map(String).join('.'));
      return field === 'form' ? 'alerts' : field;
    }
    case 'residentMode':
      return RESIDENT_FIELD;
    case 'accessControl': {
      const [settings, area] = rest;
      return settings === 'settings' && typeof area === 'string'
        ? lockField(area as (typeof LOCK_AREAS)[number])
        : ACCESS_FIELD;
    }
    default:
      return 'form';
  }
}
