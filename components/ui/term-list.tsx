import type { ReactNode } from 'react';

/**
 * Facts as terms and their values, a pair a row (the list's grid, in `className`, sets the two
 * columns): a connection's or a thermostat's status.
 */
export function TermList({
  rows,
  className,
}: {
  rows: readonly (readonly [term: string, value: ReactNode])[];
  className: string;
}) {
  return (
    <dl className={className}>
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-muted">{term}</dt>
          <dd className="font-medium">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
