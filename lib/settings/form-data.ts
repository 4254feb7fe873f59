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
