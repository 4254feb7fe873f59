/** The header row of the bulk tables: one column heading each. */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead className="bg-slate-50 text-xs text-slate-600 uppercase dark:bg-slate-900 dark:text-slate-400">
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col" className="px-3 py-2">
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}
