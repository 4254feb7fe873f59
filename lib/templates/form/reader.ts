import {
  DECIMALS,
  formatRange,
  formatTemperature,
  type TemperatureRange,
  type TemperatureUnit,
  toDisplay,
  toServiceFahrenheit,
} from '@/lib/platform/units';
import { hasAtMostDecimals, readNumber } from '@/lib/settings/form-data';
import { TEMPLATE_FORM_FIELDS } from './fields';
import type { Originals, TemplateFormErrors } from './types';

/**
 * What each section is read with, the posted form into a template: the posted text, the errors
 * so far by field, and temperatures typed in the member's unit read as °F.
 */
export type FormReader = {
  form: FormData;
  unit: TemperatureUnit;
  errors: TemplateFormErrors;
  add: (field: string, message: string) => void;
  text: (field: string) => string;
  checked: (field: string) => boolean;
  /** A temperature typed in the member's unit, as the °F to store; undefined after an error. */
  temperature: (field: string, limits: TemperatureRange, what: string) => number | undefined;
  /** The exact °F behind a value left as it was shown (configuration is read by its own rules). */
  exact: (field: string, fahrenheit: number) => number;
  degrees: (fahrenheit: number) => string;
};

export const MALFORMED =
  'The form was not sent as expected; nothing was saved. Reload the page and try again.';
/** Far more than a week of names or a full form's numbers; anything longer is not ours. */
export const MAX_HIDDEN_LENGTH = 64_000;

/** A posted field's text ('' when absent). */
export const textOf = (form: FormData) => (field: string) => {
  const value = form.get(field);
  return typeof value === 'string' ? value : '';
};

export function formReader(
  form: FormData,
  unit: TemperatureUnit,
  originals: Originals,
): FormReader {
  const errors: TemplateFormErrors = {};
  const add = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  const text = textOf(form);
  const checked = (field: string) => text(field) === 'on';

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
  const exact = (field: string, fahrenheit: number) => {
    const original = originals[field];
    const entered = readNumber(text(field));
    return original !== undefined && entered !== undefined && toDisplay(original, unit) === entered
      ? original
      : fahrenheit;
  };
  const degrees = (fahrenheit: number) => formatTemperature(fahrenheit, unit);

  return { form, unit, errors, add, text, checked, temperature, exact, degrees };
}

/** The posted °F of pre-filled values: finite numbers by field name, anything else dropped. */
export function postedOriginals(raw: string): Originals {
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
