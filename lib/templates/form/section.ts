import { z } from 'zod';
import type { TemperatureRange, TemperatureUnit } from '@/lib/platform/units';
import { temperature, typedField } from '@/lib/settings/form-data';
import type { Originals } from './types';

/**
 * What each section's schema is built from: the member's unit, the exact °F behind the values
 * the form was filled with, and the pieces a section's fields are read with. A section's schema
 * reads the posted text (lib/templates/form/posted.ts) and gives the section as the template
 * takes it, or its refusals under their fields.
 */

export type SectionContext = { unit: TemperatureUnit; originals: Originals };

/** A field's text as posted ('' when absent). */
export const postedField = z
  .unknown()
  .optional()
  .transform((value) => (typeof value === 'string' ? value : ''));

/** A box of this form: ticked only when it posts 'on'. */
export const box = z
  .unknown()
  .optional()
  .transform((value) => value === 'on');

/**
 * A temperature typed in the member's unit (a decimal comma taken as a point), as the °F to
 * store; one left as it was shown keeps its exact °F. Undefined when blank: where it is required
 * depends on the rest of the row, so the section says so.
 */
export function temperatureField(
  { unit, originals }: SectionContext,
  field: string,
  limits: TemperatureRange,
  what: string,
) {
  const example = unit === 'F' ? '68' : '20';
  return typedField(
    z
      .string()
      .transform((typed) => typed.replace(',', '.'))
      .pipe(
        temperature({
          unit,
          limits,
          kept: originals[field],
          example,
          words: {
            notANumber: `Enter a number, such as ${example}.`,
            outside: (between) => `The ${what} must be between ${between}.`,
          },
        }),
      ),
  );
}

/**
 * The template schema's word on a section as far as it was read (`value`), told with the
 * section's own refusals: each issue under its field (`fieldOf` its path within the section),
 * where nothing was said of that field yet, so that the member hears of every problem at once.
 */
export function templateSays(
  ctx: z.RefinementCtx,
  schema: z.ZodType,
  value: unknown,
  fieldOf: (path: readonly PropertyKey[]) => string,
) {
  const parsed = schema.safeParse(value);
  if (parsed.success) return;
  for (const issue of parsed.error.issues) {
    const field = fieldOf(issue.path);
    if (ctx.issues.some((said) => said.path?.[0] === field)) continue;
    ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
  }
}
