import Form from 'next/form';
import Link from 'next/link';
import { buttonClass } from '@/components/ui/button';
import {
  type BuildingView,
  DEFAULT_VIEW,
  isFiltered,
  PAGE_SIZES,
  viewQuery,
} from '@/lib/readings/view';
import { HVAC_MODES } from '@/lib/thermostat-api/schemas';
import { modeName } from '@/lib/words';

const fieldClass =
  'min-h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-900';

/**
 * Search and filters as a GET form to the page itself: the view lives in the address, so it can
 * be linked, and the form works without JavaScript (with it, next/form navigates in place).
 */
export function BuildingFilters({ view, path }: { view: BuildingView; path: string }) {
  return (
    <Form action={path} className="flex flex-wrap items-end gap-3" scroll={false}>
      <div className="grid gap-1 text-sm">
        <label htmlFor="filter-q" className="font-medium">
          Search
        </label>
        <input
          type="search"
          id="filter-q"
          name="q"
          defaultValue={view.q}
          maxLength={64}
          placeholder="Unit or id"
          className={`${fieldClass} w-44 px-3`}
        />
      </div>
      <Choice
        name="mode"
        label="Mode"
        value={view.mode}
        options={[['', 'All modes'], ...HVAC_MODES.map((mode) => [mode, modeName(mode)] as const)]}
      />
      <Choice
        name="connection"
        label="Connection"
        value={view.connection}
        options={[
          ['', 'All'],
          ['online', 'Online'],
          ['offline', 'Offline'],
          ['unread', 'Could not read'],
        ]}
      />
      <Choice
        name="resident"
        label="Resident mode"
        value={view.resident}
        options={[
          ['', 'On or off'],
          ['on', 'On'],
          ['off', 'Off'],
        ]}
      />
      <Choice
        name="per"
        label="Per page"
        value={String(view.per)}
        options={PAGE_SIZES.map((size) => [String(size), String(size)] as const)}
      />
      {/* The order stays as it was; a new search starts on the first page. */}
      {view.sort !== DEFAULT_VIEW.sort ? (
        <input type="hidden" name="sort" value={view.sort} />
      ) : null}
      {view.dir !== DEFAULT_VIEW.dir ? <input type="hidden" name="dir" value={view.dir} /> : null}
      <button type="submit" className={buttonClass('secondary')}>
        Apply
      </button>
      {isFiltered(view) ? (
        <Link
          href={`${path}${viewQuery(view, { q: '', mode: undefined, connection: undefined, resident: undefined })}`}
          scroll={false}
          className="min-h-10 content-center text-sm font-medium underline"
        >
          Clear filters
        </Link>
      ) : null}
    </Form>
  );
}

/** A labelled select of the form; the empty value means "any". */
function Choice({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string | undefined;
  options: readonly (readonly [value: string, text: string])[];
}) {
  return (
    <div className="grid gap-1 text-sm">
      <label htmlFor={`filter-${name}`} className="font-medium">
        {label}
      </label>
      <select id={`filter-${name}`} name={name} defaultValue={value ?? ''} className={fieldClass}>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
