import { z } from 'zod';
import {
  DECIMALS,
  formatRange,
  type TemperatureRange,
  type TemperatureUnit,
  toServiceFahrenheit,
} from '@/lib/platform/units';
import { fieldErrorsOf } from '@/lib/platform/forms';

// These schemas also run in the browser (the bulk form checks before it posts; the access-control
// form's module builds its schema on load). There the CSP forbids eval, and zod's test for it,
// made when it builds an object schema, is reported as a violation even though zod catches it:
// in a browser, zod reads objects without compiling a parser.
if (typeof window !== 'undefined') z.config({ jitless: true });

/** A number as a form takes it: digits with an optional sign and decimal point, nothing else. */
const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;

/** A number typed into a form: finite, or undefined when blank; NaN when not a number. */
export function readNumber(raw: unknown): number | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const text = raw.trim();
  if (!NUMBER.test(text)) return Number.NaN;
  return Number(text);
}

export function hasAtMostDecimals(value: number, decimals: number): boolean {
  const scaled = value * 10 ** decimals;
  return Math.abs(Math.round(scaled) - scaled) < 1e-6;
}

/** A whole number within the limits (never NaN). */
export const isWholeIn = (value: number, limits: { min: number; max: number }) =>
  Number.isInteger(value) && value >= limits.min && value <= limits.max;

/*
 * The fields of the settings forms (configuration, alerts, access control) as zod reads them
 * from what was posted: text, or nothing.
 */

/** A field's text as typed, trimmed; undefined when blank, absent or not text at all (a file). */
export const typedText = z
  .unknown()
  .optional()
  .transform((value) =>
    typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined,
  );

/** A checkbox: ticked when it posts 'on' (or 'true', or true). */
export const tickedBox = z
  .unknown()
  .optional()
  .transform((value) => value === 'on' || value === 'true' || value === true);

/**
 * A field as typed, read by `read`. Left blank it is refused in the words `blank` where the form
 * requires it, and gives undefined where it does not. `read` never gives undefined itself: zod
 * drops the errors of a field not posted at all where its schema may give undefined, so a
 * required field left out of the post would pass.
 */
export function typedField<Out>(read: z.ZodType<Out, string>, blank?: string) {
  return typedText.pipe(blank === undefined ? read.optional() : z.string(blank).pipe(read));
}

/** A number typed as the form takes it (see `NUMBER`); anything else is refused with `message`. */
const typedNumber = (message: string) => z.string().regex(NUMBER, message).transform(Number);

/** A whole number within the limits; anything else is refused with `message`. */
export const wholeNumber = (limits: { min: number; max: number }, message: string) =>
  typedNumber(message).refine((value) => isWholeIn(value, limits), message);

/**
 * A temperature typed in the manager's unit, within `limits`, as the °F the service takes; one
 * left as it was shown is `kept` exactly. `example` is a number for the words of a refusal;
 * `limitsNote` follows the limits in theirs (" (the device’s heat limits)"). A form that names
 * the value it refuses gives its own words instead (`words`: for what is not a number, and for
 * the limits, said in the manager's unit).
 */
export function temperature(options: {
  unit: TemperatureUnit;
  limits: TemperatureRange;
  kept?: number;
  example: string;
  limitsNote?: string;
  words?: { notANumber: string; outside: (limits: string) => string };
}) {
  const { unit, limits, words } = options;
  const decimals = DECIMALS[unit];
  return typedNumber(words?.notANumber ?? `Enter a number, e.g. ${options.example}.`)
    .refine(
      (entered) => hasAtMostDecimals(entered, decimals),
      `Use at most ${decimals === 1 ? 'one decimal' : 'two decimals'}.`,
    )
    .transform((entered, ctx) => {
      const fahrenheit = toServiceFahrenheit(entered, unit, limits, options.kept);
      if (fahrenheit !== null) return fahrenheit;
      const between = formatRange(limits, unit, ' and ');
      ctx.addIssue({
        code: 'custom',
        message:
          words?.outside(between) ?? `Must be between ${between}${options.limitsNote ?? ''}.`,
      });
      return z.NEVER;
    });
}

/** Whether `high` is less than `gap` above `low`, where both are given. */
export const closerThan = (gap: number, low: number | undefined, high: number | undefined) =>
  low !== undefined && high !== undefined && high - low < gap;

/**
 * A settings form checked by its schema: what the schema gives (the changes to send), or the
 * errors by field it refused with.
 */
export function checkedBy<Field extends string, Out extends object>(
  schema: z.ZodType<Out>,
  input: unknown,
): ({ ok: true } & Out) | { ok: false; fieldErrors: Partial<Record<Field | 'form', string[]>> } {
  const parsed = schema.safeParse(input);
  return parsed.success
    ? { ok: true, ...parsed.data }
    : { ok: false, fieldErrors: fieldErrorsOf<Field | 'form'>(parsed.error) };
}
