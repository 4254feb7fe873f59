import { type TemperatureUnit, toDisplay } from '@/lib/platform/units';
import type { Originals, TemplateFormValues } from './types';

/**
 * What each section's values are written with, a template (or draft) into the form's values: the
 * values so far, the exact °F behind each temperature shown, and how a box is ticked.
 */
export type FormWriter = {
  values: TemplateFormValues;
  originals: Originals;
  /** A section's include box: ticked when the draft has it, unless `tick: 'none'`. */
  tick: (present: boolean) => string;
  /** A temperature in the member's unit, its exact °F kept; blank when there is none. */
  temperature: (field: string, fahrenheit: number | undefined) => void;
  /** A switch's box. */
  on: (flag: boolean | undefined) => string;
};

const shown = (fahrenheit: number, unit: TemperatureUnit) => String(toDisplay(fahrenheit, unit));

export function formWriter(
  values: TemplateFormValues,
  unit: TemperatureUnit,
  options: { tick?: 'present' | 'none' },
): FormWriter {
  const originals: Originals = {};
  const tick = (present: boolean) => (present && options.tick !== 'none' ? 'on' : '');
  const temperature = (field: string, fahrenheit: number | undefined) => {
    values[field] = '';
    if (fahrenheit === undefined) return;
    values[field] = shown(fahrenheit, unit);
    originals[field] = fahrenheit;
  };
  const on = (flag: boolean | undefined) => (flag ? 'on' : '');
  return { values, originals, tick, temperature, on };
}
