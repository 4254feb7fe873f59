import type { InputHTMLAttributes, ReactNode } from 'react';
import { Notice } from '@/components/ui/notice';
import type { FormState } from '@/lib/platform/forms';

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

/**
 * A checkbox or radio button with its label, and a description under the label. It is described
 * by that description and, when given, the errors with the id `errorsId`.
 */
function ChoiceRow({
  id,
  label,
  description,
  errorsId,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & {
  id: string;
  label: string;
  description?: ReactNode;
  errorsId?: string;
}) {
  const describedBy = [description ? `${id}-hint` : '', errorsId ?? ''].join(' ').trim();
  return (
    <div className="flex items-start gap-2">
      <input
        id={id}
        aria-describedby={describedBy || undefined}
        className="mt-0.5 size-4 shrink-0 accent-brand-600"
        {...input}
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
  return (
    <div className="grid gap-1">
      <ChoiceRow
        id={id}
        type="checkbox"
        name={name}
        label={label}
        description={description}
        errorsId={`${id}-errors`}
        defaultChecked={defaultChecked}
        checked={checked}
        onChange={onChange ? (event) => onChange(event.currentTarget.checked) : undefined}
        disabled={disabled}
        aria-invalid={errors?.length ? true : undefined}
      />
      <ErrorList id={`${id}-errors`} errors={errors} />
    </div>
  );
}

/**
 * One radio button of a group, its label and description beside it; the group shows the errors
 * (`errorsId`) once, under all of its buttons.
 */
export function Radio(
  props: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
    id: string;
    name: string;
    label: string;
    description?: ReactNode;
    errorsId?: string;
  },
) {
  return <ChoiceRow type="radio" {...props} />;
}

/**
 * A short row of radio buttons under a legend, such as on and off, with an optional hint and the
 * group's errors; `onChange` hears the value chosen.
 */
export function RadioGroup({
  name,
  legend,
  hint,
  options,
  defaultValue,
  onChange,
  errors,
}: {
  name: string;
  legend: string;
  hint?: ReactNode;
  options: readonly { value: string; label: string }[];
  defaultValue?: string;
  onChange?: (value: string) => void;
  errors?: string[];
}) {
  const id = `field-${name}`;
  return (
    <fieldset
      className="grid gap-2"
      aria-describedby={`${hint ? `${id}-hint` : ''} ${id}-errors`.trim()}
    >
      <legend className="text-sm font-semibold">{legend}</legend>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-4">
        {options.map((option) => (
          <label key={option.value} className="flex min-h-10 items-center gap-2 text-sm">
            <input
              type="radio"
              name={name}
              value={option.value}
              defaultChecked={defaultValue === option.value}
              onChange={onChange ? () => onChange(option.value) : undefined}
              aria-invalid={errors?.length ? true : undefined}
              className="size-4 accent-brand-600"
            />
            {option.label}
          </label>
        ))}
      </div>
      <ErrorList id={`${id}-errors`} errors={errors} />
    </fieldset>
  );
}

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
