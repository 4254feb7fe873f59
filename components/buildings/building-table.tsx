import Link from 'next/link';
import type { BuildingRow } from '@/lib/readings/row-types';
import { type BuildingView, type SortKey, viewQuery } from '@/lib/readings/view';
import { BuildingTableRow, type RowContext } from './building-row';
import { SelectAll } from './selection';

/**
 * The table's look, set once here rather than on each of its thousands of cells (see
 * building-row.tsx): padding, numbers in columns, the sticky header and first column, the small
 * second lines, and tones by `data-tone`.
 */
const TABLE_CLASS = [
  'w-full min-w-[60rem] text-left text-sm tabular-nums',
  '[&_td]:px-3 [&_td]:py-2 [&_th]:px-3 [&_th]:py-2 [&_th]:whitespace-nowrap',
  '[&_small]:block [&_small]:text-xs [&_small]:font-normal [&_small]:text-slate-600 dark:[&_small]:text-slate-400',
  '[&_[data-tone=ok]]:text-emerald-700 dark:[&_[data-tone=ok]]:text-emerald-400',
  '[&_[data-tone=warn]]:text-amber-700 dark:[&_[data-tone=warn]]:text-amber-400',
  '[&_input]:size-4 [&_input]:align-middle',
  '[&_tbody_a]:text-brand-700 [&_tbody_a:hover]:underline dark:[&_tbody_a]:text-brand-100',
  '[&_tbody_th]:sticky [&_tbody_th]:left-0 [&_tbody_th]:bg-white [&_tbody_th]:font-medium dark:[&_tbody_th]:bg-slate-900',
  '[&_tbody_th_small]:font-mono',
  '[&_tbody_td:last-child]:text-xs [&_tbody_td:last-child]:text-slate-600 dark:[&_tbody_td:last-child]:text-slate-400',
  '[&_thead_th]:sticky [&_thead_th]:top-0 [&_thead_th]:z-10 [&_thead_th]:bg-slate-50 [&_thead_th]:text-xs [&_thead_th]:font-medium [&_thead_th]:text-slate-600 [&_thead_th]:uppercase dark:[&_thead_th]:bg-slate-800 dark:[&_thead_th]:text-slate-300',
  '[&_thead_th]:shadow-[inset_0_-1px_0] [&_thead_th]:shadow-slate-200 dark:[&_thead_th]:shadow-slate-700',
  '[&_tbody_tr+tr]:border-t [&_tbody_tr+tr]:border-slate-100 dark:[&_tbody_tr+tr]:border-slate-800',
].join(' ');

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: 'unit', label: 'Unit' },
  { key: 'temperature', label: 'Temperature' },
  { key: 'humidity', label: 'Humidity' },
  { key: 'mode', label: 'Mode' },
  { key: 'heat', label: 'Heat to' },
  { key: 'cool', label: 'Cool to' },
  { key: 'resident', label: 'Resident mode' },
  { key: 'connection', label: 'Connection' },
  { key: 'read', label: 'Last read' },
];

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
      <table className={TABLE_CLASS}>
        <caption id="thermostats-caption" className="sr-only">
          Thermostats and their live status
        </caption>
        <thead>
          <tr>
            {context.selectionForm ? (
              <th scope="col" className="w-10">
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
                  className={column.key === 'unit' ? 'left-0 z-20' : undefined}
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
