import Form from 'next/form';
import { buttonClass } from '@/components/ui/button';
import { Labelled, SearchField } from '@/components/ui/field';
import { Link } from '@/components/ui/link';
import {
  type BuildingView,
  DEFAULT_VIEW,
  isFiltered,
  PAGE_SIZES,
  viewQuery,
} from '@/lib/readings/view';
import { HVAC_MODES } from '@/lib/service/schemas';
import { modeName } from '@/lib/platform/words';

const fieldClass =
  'min-h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-900';

/** The filters and the page size; the empty value means "any". */
const CHOICES: {
  name: 'mode' | 'connection' | 'resident' | 'attention' | 'per';
  label: string;
  options: readonly (readonly [value: string, text: string])[];
}[] = [
  {
    name: 'mode',
    label: 'Mode',
    options: [['', 'All modes'], ...HVAC_MODES.map((mode) => [mode, modeName(mode)] as const)],
  },
  {
    name: 'connection',
    label: 'Connection',
    options: [
      ['', 'All'],
      ['online', 'Online'],
      ['offline', 'Offline'],
      ['unread', 'Could not read'],
    ],
  },
  {
    name: 'resident',
    label: 'Resident mode',
    options: [
      ['', 'On or off'],
      ['on', 'On'],
      ['off', 'Off'],
    ],
  },
  {
    // By the rules of Needs attention: offline, too cold or hot, maintenance due, and the rest.
    name: 'attention',
    label: 'Attention',
    options: [
      ['', 'All'],
      ['needs', 'Needs attention'],
    ],
  },
  {
    name: 'per',
    label: 'Per page',
    options: PAGE_SIZES.map((size) => [String(size), String(size)] as const),
  },
];

/**
 * Search and filters as a GET form to the page itself: the view lives in the address, so it can
 * be linked, and the form works without JavaScript (with it, next/form navigates in place).
 */
export function BuildingFilters({ view, path }: { view: BuildingView; path: string }) {
  return (
    <Form action={path} className="flex flex-wrap items-end gap-3" scroll={false}>
      <SearchField
        id="filter-q"
        label="Search"
        name="q"
        defaultValue={view.q}
        maxLength={64}
        placeholder="Unit or id"
        className="w-44"
      />
      {CHOICES.map(({ name, label, options }) => (
        <Labelled key={name} id={`filter-${name}`} label={label}>
          <select
            id={`filter-${name}`}
            name={name}
            defaultValue={String(view[name] ?? '')}
            className={fieldClass}
          >
            {options.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </Labelled>
      ))}
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
          href={`${path}${viewQuery(view, { q: '', mode: undefined, connection: undefined, resident: undefined, attention: undefined })}`}
          scroll={false}
          className="min-h-10 content-center text-sm font-medium underline"
        >
          Clear filters
        </Link>
      ) : null}
    </Form>
  );
}
