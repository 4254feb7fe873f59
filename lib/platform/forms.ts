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
 * A server action as a form receives it: bound to its record in the server page (so the form
 * posts without JavaScript too), ready for `useActionState`.
 */
export type FormAction<Field extends string = string> = (
  previous: FormState<Field>,
  form: FormData,
) => Promise<FormState<Field>>;

/** What a form refused before anything was sent says, above its highlighted fields. */
export const CHECK_FIELDS = 'Check the highlighted fields; nothing was sent.';
