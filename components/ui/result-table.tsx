import type { ReactNode } from 'react';
import { LocalTime } from './local-time';

export type Column<Row> = {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Classes for this column's cells, besides the padding every cell has. */
  className?: string;
  /** The column that names its row (a row header for screen readers). */
  names?: boolean;
};

/**
 * One line per item of work, whatever came of it (an import's lines, a bulk run's thermostats,
 * the activity log's entries): the same frame, headings and rows everywhere. Each caller says its
 * columns; the outcome column shows an `OutcomeLabel`.
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
  /** Classes for the table, e.g. a minimum width before it scrolls sideways. */
  className?: string;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
      <table className={`w-full text-left text-sm ${className}`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-xs text-slate-600 uppercase dark:bg-slate-900 dark:text-slate-400">
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className="px-3 py-2">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => {
                const className = `px-3 py-2 ${column.className ?? ''}`;
                return column.names ? (
                  <th key={column.header} scope="row" className={`font-normal ${className}`}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={column.header} className={className}>
                    {column.cell(row)}
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

/** A column of times, in the reader's time zone. */
export function timeColumn<Row>(header: string, at: (row: Row) => Date): Column<Row> {
  return {
    header,
    cell: (row) => <LocalTime value={at(row).toISOString()} />,
    className: 'whitespace-nowrap text-muted',
  };
}
