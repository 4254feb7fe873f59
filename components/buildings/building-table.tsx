import type { CSSProperties } from 'react';
import { Link } from '@/components/ui/link';
import type { BuildingRow } from '@/lib/readings/row-types';
import { type BuildingView, type SortKey, viewQuery } from '@/lib/readings/view';
import { BuildingTableRow, type RowContext } from './building-row';
import { SelectAll } from './selection';

/**
 * The table's look, set once here rather than on each of its thousands of cells (see
 * building-row.tsx): padding, numbers in columns, the sticky header and first column, the small
 * second lines, and tones by `data-tone`.
 *
 * Its rows are grid rows on one set of column tracks rather than a table layout, so that a row
 * out of sight can skip its style and layout (`content-visibility: auto`): a table lays out every
 * cell of every row, again each time rows arrive, and on a phone that was most of the page's
 * work. The elements, and so what assistive technology reads, are still a table's.
 */
const TABLE_CLASS = [
  'block w-full text-left text-sm tabular-nums',
  '[&_thead]:sticky [&_thead]:top-0 [&_thead]:z-10 [&_thead]:block [&_tbody]:block',
  '[&_tr]:grid [&_tr]:grid-cols-(--row-columns)',
  '[&_td]:content-center [&_th]:content-center',
  '[&_td]:px-3 [&_td]:py-2 [&_th]:px-3 [&_th]:py-2',
  '[&_tbody_tr]:[content-visibility:auto] [&_tbody_tr]:[contain-intrinsic-size:auto_3.25rem]',
  '[&_small]:block [&_small]:text-xs [&_small]:font-normal [&_small]:text-slate-600 dark:[&_small]:text-slate-400',
  '[&_[data-tone=ok]]:text-emerald-700 dark:[&_[data-tone=ok]]:text-emerald-400',
  '[&_[data-tone=warn]]:text-amber-700 dark:[&_[data-tone=warn]]:text-amber-400',
  '[&_input]:size-4',
  '[&_tbody_a]:text-brand-700 [&_tbody_a:hover]:underline dark:[&_tbody_a]:text-brand-100',
  '[&_tbody_th]:sticky [&_tbody_th]:left-0 [&_tbody_th]:bg-white [&_tbody_th]:font-medium dark:[&_tbody_th]:bg-slate-900',
  '[&_tbody_th_small]:font-mono',
  '[&_tbody_td:last-child]:text-xs [&_tbody_td:last-child]:text-slate-600 dark:[&_tbody_td:last-child]:text-slate-400',
  '[&_thead_tr]:bg-slate-50 [&_thead_tr]:shadow-[inset_0_-1px_0] [&_thead_tr]:shadow-slate-200 dark:[&_thead_tr]:bg-slate-800 dark:[&_thead_tr]:shadow-slate-700',
  '[&_thead_th]:bg-inherit [&_thead_th]:text-xs [&_thead_th]:font-medium [&_thead_th]:whitespace-nowrap [&_thead_th]:text-slate-600 [&_thead_th]:uppercase dark:[&_thead_th]:text-slate-300',
  '[&_tbody_tr+tr]:border-t [&_tbody_tr+tr]:border-slate-100 dark:[&_tbody_tr+tr]:border-slate-800',
].join(' ');

/** The selection's column (rem), when there is one: its checkbox. */
const SELECT_WIDTH = 2.5;

/**
 * The columns, each with its track: never narrower than its heading (or than its usual values),
 * and sharing the room a wide screen leaves.
 */
const COLUMNS: { key: SortKey; label: string; min: number; share: number }[] = [
  { key: 'unit', label: 'Unit', min: 10, share: 1.6 },
  { key: 'temperature', label: 'Temperature', min: 7.25, share: 1 },
  { key: 'humidity', label: 'Humidity', min: 5.75, share: 0.8 },
  { key: 'mode', label: 'Mode', min: 10.5, share: 1.4 },
  { key: 'heat', label: 'Heat to', min: 5.25, share: 0.8 },
  { key: 'cool', label: 'Cool to', min: 5.5, share: 0.8 },
  { key: 'resident', label: 'Resident mode', min: 8.25, share: 1 },
  { key: 'connection', label: 'Connection', min: 7, share: 1.4 },
  { key: 'read', label: 'Last read', min: 6.5, share: 1 },
];

const TRACKS = COLUMNS.map((column) => `minmax(${column.min}rem,${column.share}fr)`).join(' ');
const MIN_WIDTH = COLUMNS.reduce((sum, column) => sum + column.min, 0);

/** The table's tracks and the width under which it scrolls sideways, with or without selection. */
function layoutStyle(selects: boolean): CSSProperties {
  return {
    '--row-columns': selects ? `${SELECT_WIDTH}rem ${TRACKS}` : TRACKS,
    minWidth: `${MIN_WIDTH + (selects ? SELECT_WIDTH : 0)}rem`,
  } as CSSProperties;
}

/**
 * One page of a building's thermostats, rendered on the server: the database has searched,
 * filtered, sorted and paged them, and the column headers are links to the other orders, so the
 * table works without JavaScript. It scrolls in its own window under a sticky header.
 */
export function BuildingTable({
  rows,
  view,
  path,
  context,
}: {
  rows: BuildingRow[];
  view: BuildingView;
  /** The building page's path, for the sort links. */
  path: string;
  context: RowContext;
}) {
  return (
    <section
      aria-labelledby="thermostats-caption"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the keyboard's focus to scroll without a mouse.
      tabIndex={0}
      className="max-h-[calc(100dvh-8rem)] overflow-auto rounded-xl border border-slate-200 bg-white focus-visible:outline-2 focus-visible:outline-brand-600 dark:border-slate-800 dark:bg-slate-900"
    >
      <table className={TABLE_CLASS} style={layoutStyle(context.selectionForm !== null)}>
        <caption id="thermostats-caption" className="sr-only">
          Thermostats and their live status
        </caption>
        <thead>
          <tr>
            {context.selectionForm ? (
              <th scope="col">
                <SelectAll form={context.selectionForm} />
              </th>
            ) : null}
            {COLUMNS.map((column) => {
              const active = view.sort === column.key;
              const next = active && view.dir === 'asc' ? 'desc' : 'asc';
              return (
                <th
                  key={column.key}
                  scope="col"
                  aria-sort={active ? (view.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                  className={column.key === 'unit' ? 'sticky left-0' : undefined}
                >
                  <Link
                    href={`${path}${viewQuery(view, { sort: column.key, dir: next })}`}
                    prefetch={false}
                    scroll={false}
                    className="inline-flex items-center gap-1 uppercase hover:text-slate-900 dark:hover:text-white"
                  >
                    {column.label}
                    <span aria-hidden="true">{active ? (view.dir === 'asc' ? '↑' : '↓') : ''}</span>
                  </Link>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <BuildingTableRow key={row.thermostatId} row={row} context={context} />
          ))}
        </tbody>
      </table>
    </section>
  );
}
