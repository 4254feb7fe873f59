import type { FormState } from '@/lib/forms';

/** The named fields of a submitted form as strings ('' when absent), for validation and refill. */
export function formStrings<Field extends string>(
  form: FormData,
  fields: readonly Field[],
): Record<Field, string> {
  return Object.fromEntries(
    fields.map((field) => {
      const value = form.get(field);
      return [field, typeof value === 'string' ? value : ''];
    }),
  ) as Record<Field, string>;
}

export const NOT_YOURS: FormState = {
  status: 'error',
  message: 'That thermostat is not in your portfolio.',
};

export const CHECK_FIELDS = 'Check the highlighted fields; nothing was sent.';

/** A number typed into a form: finite, or undefined when blank; NaN when not a number. */
export function readNumber(raw: unknown): number | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const text = raw.trim();
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return Number.NaN;
  return Number(text);
}

export function hasAtMostDecimals(value: number, decimals: number): boolean {
  const scaled = value * 10 ** decimals;
  return Math.abs(Math.round(scaled) - scaled) < 1e-6;
}
