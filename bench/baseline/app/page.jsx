import rows from './rows.json';

// Rendered on every request, as the building page is: the cost of a bare Next.js page drawing
// the same rows, with no session, database or budget behind it.
export const dynamic = 'force-dynamic';

const COLUMNS = [
  'Unit',
  'Temperature',
  'Humidity',
  'Mode',
  'Heat to',
  'Cool to',
  'Resident mode',
  'Connection',
  'Last read',
];

export default function Page() {
  return (
    <main>
      <h1>Baseline: {rows.length} rows</h1>
      <table>
        <thead>
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row">
                <a href={`/thermostats/${row.id}`}>{row.unit}</a>
                <small>{row.id}</small>
              </th>
              {row.cells.map((cell, index) => (
                <td key={COLUMNS[index + 1]}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
