import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';
import { ErrorList } from '@/components/ui/form-parts';

const controlClass =
  'min-h-10 w-full min-w-0 rounded-lg border border-slate-300 bg-white text-base text-slate-900 aria-invalid:border-red-600 sm:text-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:aria-invalid:border-red-400';

/**
 * A label above its control (which carries `id`), for a control with nothing to report: a filter,
 * a search box. Field and SelectField add a hint and the errors.
 */
export function Labelled({
  id,
  label,
  children,
}: {
  id: string;
  label: string;
  children: ReactNode;
}) {
  // content-start: stretched to a taller neighbour's height (one with an error or a hint), the
  // label and control stay at the top instead of spreading out. min-w-0 lets the control shrink
  // with a narrow column instead of keeping its intrinsic width and overflowing it.
  return (
    <div className="grid min-w-0 content-start gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      {children}
    </div>
  );
}

/** A labelled search box that filters what a page shows; it is not a field of a record. */
export function SearchField({
  id,
  label,
  className = '',
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { id: string; label: string }) {
  return (
    <Labelled id={id} label={label}>
      <input
        id={id}
        type="search"
        className={`min-h-10 rounded-lg border border-slate-300 bg-white px-3 text-base sm:text-sm dark:border-slate-700 dark:bg-slate-900 ${className}`}
        {...input}
      />
    </Labelled>
  );
}

type FieldText = { label: string; name: string; errors?: string[]; hint?: ReactNode };

/** A control's id and name, and the attributes that tie it to its hint and its errors. */
function controlProps({ id, name, hint, errors }: Omit<FieldText, 'label'> & { id?: string }) {
  const controlId = id ?? `field-${name}`;
  return {
    id: controlId,
    name,
    'aria-invalid': errors?.length ? true : undefined,
    'aria-describedby': `${hint ? `${controlId}-hint` : ''} ${controlId}-errors`.trim(),
  } as const;
}

/** A labelled control with its hint, and its errors in a live region. */
function Described({
  id,
  label,
  hint,
  errors,
  children,
}: Omit<FieldText, 'name'> & { id: string; children: ReactNode }) {
  return (
    <Labelled id={id} label={label}>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
      <ErrorList id={`${id}-errors`} errors={errors} />
    </Labelled>
  );
}

/** A labelled input with its errors in a live region tied to it by aria-describedby. */
export function Field({
  label,
  name,
  errors,
  hint,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & FieldText) {
  const control = controlProps({ id: input.id, name, hint, errors });
  return (
    <Described id={control.id} label={label} hint={hint} errors={errors}>
      <input
        {...control}
        className={`${controlClass} px-3 shadow-xs placeholder:text-slate-400`}
        {...input}
      />
    </Described>
  );
}

export type Option = { value: string; label: string; disabled?: boolean };

/** A labelled select of the given options, with its hint and errors as Field has them. */
export function SelectField({
  label,
  name,
  errors,
  hint,
  options,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & FieldText & { options: readonly Option[] }) {
  const control = controlProps({ id: select.id, name, hint, errors });
  return (
    <Described id={control.id} label={label} hint={hint} errors={errors}>
      <select {...control} className={`${controlClass} px-2`} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </select>
    </Described>
  );
}
