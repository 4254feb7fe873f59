import type { ReactNode } from 'react';
import { When } from './when';

export type Column<Row> = {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Classes for this column's cells, besides the padding every cell has. */
  className?: string;
  /** The column that names its row (a row header for screen readers, a phone's row title). */
  names?: boolean;
};

/**
 * On a phone a table as wide as its columns would hide most of them off to the side, its key
 * column (what happened, which thermostat, where it went) too. Below `sm` each row is therefore
 * a card of its own: the naming column as its title (first, wherever it stands), then every other cell under its column's
 * heading (a CSS label from `data-label`, so it adds nothing to the text of the cell); the
 * headings row stays for screen readers only. The explicit roles keep it a table for them while
 * its rows are laid out as blocks (some browsers drop a table's semantics with its display).
 */
const PHONE = {
  table: 'max-sm:block max-sm:min-w-0',
  head: 'max-sm:sr-only',
  body: 'max-sm:block',
  row: 'max-sm:grid max-sm:gap-1.5 max-sm:px-3 max-sm:py-3',
  cell: [
    'max-sm:grid max-sm:grid-cols-[6rem_minmax(0,1fr)] max-sm:items-baseline max-sm:gap-x-3 max-sm:p-0 max-sm:text-left',
    'max-sm:before:content-[attr(data-label)] max-sm:before:font-sans max-sm:before:text-xs max-sm:before:font-medium max-sm:before:tracking-normal max-sm:before:whitespace-normal max-sm:before:text-slate-600 max-sm:before:uppercase dark:max-sm:before:text-slate-400',
  ].join(' '),
  title: 'max-sm:order-first max-sm:block max-sm:p-0 max-sm:text-left max-sm:font-medium',
} as const;

/**
 * One line per item of work, whatever came of it (an import's lines, a bulk run's thermostats,
 * the activity log's entries): the same frame, headings and rows everywhere, a card per row on
 * a phone. Each caller says its columns; the outcome column shows an `OutcomeLabel`.
 */
export function ResultTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  className = '',
}: {
  /** The table's accessible name (not shown). */
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Classes for the table, e.g. a minimum width before it scrolls sideways (not on a phone). */
  className?: string;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
      {/* biome-ignore lint/a11y/noRedundantRoles: kept for browsers that drop a table's roles once its display is a block's (the phone's cards). */}
      <table role="table" className={`w-full text-left text-sm ${className} ${PHONE.table}`}>
        <caption className="sr-only">{caption}</caption>
        <thead
          // biome-ignore lint/a11y/noRedundantRoles: as above.
          role="rowgroup"
          className={`bg-slate-50 text-xs text-slate-600 uppercase dark:bg-slate-900 dark:text-slate-400 ${PHONE.head}`}
        >
          {/* biome-ignore lint/a11y/noRedundantRoles: as above. */}
          <tr role="row">
            {columns.map((column) => (
              // biome-ignore lint/a11y/noRedundantRoles: as above.
              <th key={column.header} role="columnheader" scope="col" className="px-3 py-2">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody
          // biome-ignore lint/a11y/noRedundantRoles: as above.
          role="rowgroup"
          className={`divide-y divide-slate-100 dark:divide-slate-800 ${PHONE.body}`}
        >
          {rows.map((row) => (
            // biome-ignore lint/a11y/noRedundantRoles: as above.
            <tr key={rowKey(row)} role="row" className={PHONE.row}>
              {columns.map((column) => {
                const className = `px-3 py-2 ${column.className ?? ''}`;
                // On a phone the cell's content is one item beside its label, however many
                // elements it holds; elsewhere the wrapper is no box at all.
                const content = (
                  <div key="content" className="min-w-0 sm:contents">
                    {column.cell(row)}
                  </div>
                );
                return column.names ? (
                  <th
                    key={column.header}
                    // biome-ignore lint/a11y/noRedundantRoles: as above.
                    role="rowheader"
                    scope="row"
                    className={`font-normal ${className} ${PHONE.title}`}
                  >
                    {content}
                  </th>
                ) : (
                  <td
                    key={column.header}
                    // biome-ignore lint/a11y/noRedundantRoles: as above.
                    role="cell"
                    data-label={column.header}
                    className={`${className} ${PHONE.cell}`}
                  >
                    {content}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A column of times, in one zone (the member's), named in every cell. */
export function timeColumn<Row>(header: string, at: (row: Row) => Date, zone: string): Column<Row> {
  return {
    header,
    cell: (row) => <When at={at(row)} zone={zone} />,
    className: 'whitespace-nowrap text-muted',
  };
}
