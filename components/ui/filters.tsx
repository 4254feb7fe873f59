import { Link } from '@/components/ui/link';

/**
 * The parts of a page's filter form (a GET form to the page itself, so the view lives in the
 * address and works without JavaScript): labelled fields, and Filter with a way back to all.
 */

const fieldClass =
  'min-h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-900';

export type FilterOption = { value: string; label: string };

/** A choice among `options`, the first choice (an empty value) meaning "all". */
export function FilterSelect({
  label,
  name,
  value,
  all,
  options,
}: {
  label: string;
  name: string;
  value?: string;
  all: string;
  options: readonly FilterOption[];
}) {
  return (
    <label className="grid gap-1 text-sm">
      <span className="font-medium">{label}</span>
      <select name={name} defaultValue={value} className={fieldClass}>
        <option value="">{all}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A typed filter: a search, or a date. */
export function FilterInput({
  label,
  name,
  value,
  type,
  placeholder,
}: {
  label: string;
  name: string;
  value?: string;
  type: 'search' | 'date';
  placeholder?: string;
}) {
  return (
    <label className="grid gap-1 text-sm">
      <span className="font-medium">{label}</span>
      <input
        type={type}
        name={name}
        defaultValue={value}
        placeholder={placeholder}
        className={`${fieldClass} ${type === 'search' ? 'w-44' : ''}`}
      />
    </label>
  );
}

/** The form's Filter button, and "Clear filters" back to `clearHref` while any filter is set. */
export function FilterButtons({ filtered, clearHref }: { filtered: boolean; clearHref: string }) {
  return (
    <>
      <button
        type="submit"
        className="min-h-10 rounded-lg border border-slate-300 px-4 text-sm font-medium dark:border-slate-700"
      >
        Filter
      </button>
      {filtered ? (
        <Link href={clearHref} className="min-h-10 px-2 py-2 text-sm underline">
          Clear filters
        </Link>
      ) : null}
    </>
  );
}
