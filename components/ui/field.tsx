import type { InputHTMLAttributes } from 'react';

/** A labelled input with its errors in a live region tied to it by aria-describedby. */
export function Field({
  label,
  name,
  errors,
  hint,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  name: string;
  errors?: string[];
  hint?: string;
}) {
  const id = input.id ?? `field-${name}`;
  const errorId = `${id}-errors`;
  const hintId = `${id}-hint`;
  const invalid = Boolean(errors?.length);
  // content-start: stretched to a taller neighbour's height (one with an error or a hint), the
  // label and input stay at the top instead of spreading out. w-full with min-w-0 lets the input
  // shrink with a narrow column instead of keeping its intrinsic width and overflowing it.
  return (
    <div className="grid min-w-0 content-start gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      <input
        id={id}
        name={name}
        aria-invalid={invalid || undefined}
        aria-describedby={`${hint ? hintId : ''} ${errorId}`.trim()}
        className="min-h-10 w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 text-base text-slate-900 shadow-xs placeholder:text-slate-400 aria-invalid:border-red-600 sm:text-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:aria-invalid:border-red-400"
        {...input}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
      <div id={errorId} aria-live="polite" className="text-sm text-danger">
        {errors?.map((error) => (
          <p key={error}>{error}</p>
        ))}
      </div>
    </div>
  );
}
