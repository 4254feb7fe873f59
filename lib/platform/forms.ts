/** The one shape every form's server action returns (fits `useActionState`). */
export type FormState<Field extends string = string> = {
  status: 'idle' | 'success' | 'error';
  message?: string;
  fieldErrors?: Partial<Record<Field, string[]>>;
  /** Non-secret values to refill the form with; never passwords, passcodes or tokens. */
  values?: Partial<Record<Field, string>>;
  /** For forms that act on many items (imports, bulk changes): one line per item. */
  report?: ReportRow[];
  /** A link the member must pass on (a new invitation's), shown once. */
  link?: string;
  /**
   * A secret the member must copy into another system (a new webhook's signing secret), shown
   * once: only its sealed form is kept, and no later page can show it.
   */
  secret?: string;
};

export type ReportRow = {
  /** Where the item came from (a line number), or its position. */
  line: number;
  subject: string;
  outcome: 'done' | 'unchanged' | 'failed' | 'not_attempted';
  detail: string;
};

export const initialFormState: FormState = { status: 'idle' };

/** zod's flattened field errors, as the form state carries them. */
export function fieldErrorsOf<Field extends string>(error: {
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>;
}): Partial<Record<Field, string[]>> {
  const errors: Partial<Record<Field, string[]>> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'form') as Field;
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  return errors;
}

/**
 * A form's checks across its fields (`superRefine(check, ACROSS_FIELDS)`) run even where a field
 * failed its own, so that the member is told every problem at once: zod skips them by default.
 * They read the fields through `passedFields`. A field's own check must not abort (`abort: true`
 * or `fatal`): that still skips them.
 */
export const ACROSS_FIELDS = { when: () => true };

/**
 * A form's values as its checks across fields may read them: only the fields that passed their
 * own checks (one refused may hold its input half read), and which were refused (said already).
 */
export function passedFields<Values extends object>(
  values: Values,
  ctx: { issues: ReadonlyArray<{ path?: PropertyKey[] }> },
): { passed: Partial<Values>; refused: (field: keyof Values) => boolean } {
  const refused = new Set(ctx.issues.map((issue) => issue.path?.[0]));
  const passed = Object.fromEntries(
    Object.entries(values).filter(([field]) => !refused.has(field)),
  ) as Partial<Values>;
  return { passed, refused: (field) => refused.has(field) };
}

/**
 * A server action as a form receives it: bound to its record in the server page (so the form
 * posts without JavaScript too), ready for `useActionState`.
 */
export type FormAction<Field extends string = string> = (
  previous: FormState<Field>,
  form: FormData,
) => Promise<FormState<Field>>;

/** What a form refused before anything was sent says, above its highlighted fields. */
export const CHECK_FIELDS = 'Check the highlighted fields; nothing was sent.';
