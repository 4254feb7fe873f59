import type { ReactNode } from 'react';
import { Notice } from '@/components/ui/notice';
import type { FormState } from '@/lib/forms';

/** The form-level message (a live region via Notice). */
export function FormMessage({ state }: { state: FormState }) {
  if (!state.message) return null;
  return <Notice tone={state.status === 'success' ? 'success' : 'error'}>{state.message}</Notice>;
}

/** A field's errors in a live region, referenced by the field's aria-describedby. */
export function ErrorList({ id, errors }: { id: string; errors?: string[] }) {
  return (
    <div id={id} aria-live="polite" className="text-sm text-danger">
      {errors?.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  );
}

/** A labelled checkbox with an optional description and its errors. */
export function Checkbox({
  name,
  label,
  description,
  defaultChecked,
  checked,
  onChange,
  errors,
  disabled,
}: {
  name: string;
  label: string;
  description?: ReactNode;
  defaultChecked?: boolean;
  checked?: boolean;
  onChange?: (checked: boolean) => void;
  errors?: string[];
  disabled?: boolean;
}) {
  const id = `field-${name}`;
  const describedBy = [description ? `${id}-hint` : '', `${id}-errors`].join(' ').trim();
  return (
    <div className="grid gap-1">
      <div className="flex items-start gap-2">
        <input
          id={id}
          type="checkbox"
          name={name}
          defaultChecked={defaultChecked}
          checked={checked}
          onChange={onChange ? (event) => onChange(event.currentTarget.checked) : undefined}
          disabled={disabled}
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={describedBy}
          className="mt-0.5 size-4 shrink-0 accent-brand-600"
        />
        <div className="grid gap-0.5">
          <label htmlFor={id} className="text-sm font-medium">
            {label}
          </label>
          {description ? (
            <p id={`${id}-hint`} className="text-xs text-muted">
              {description}
            </p>
          ) : null}
        </div>
      </div>
      <ErrorList id={`${id}-errors`} errors={errors} />
    </div>
  );
}

export const selectClass =
  'min-h-10 rounded-lg border border-slate-300 bg-white px-2 text-base text-slate-900 aria-invalid:border-red-600 sm:text-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100';

export function Fieldset({
  legend,
  description,
  children,
  disabled,
}: {
  legend: string;
  description?: ReactNode;
  children: ReactNode;
  disabled?: boolean;
}) {
  return (
    <fieldset
      disabled={disabled}
      className="grid content-start gap-3 rounded-lg border border-slate-200 p-4 disabled:opacity-60 dark:border-slate-800"
    >
      <legend className="px-1 text-sm font-semibold">{legend}</legend>
      {description ? <p className="-mt-1 text-xs text-muted">{description}</p> : null}
      {children}
    </fieldset>
  );
}
