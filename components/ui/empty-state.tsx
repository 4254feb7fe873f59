import type { ReactNode } from 'react';
import { Card } from './card';

/**
 * What a page shows where its list is empty: an icon (an SVG path on a 24 × 24 grid, drawn as a
 * line), what is empty, why or what to do, and a way on when there is one.
 */
export function EmptyState({
  icon,
  iconClassName,
  title,
  children,
  action,
}: {
  icon: string;
  iconClassName: string;
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Card className="grid place-items-center gap-3 py-12 text-center">
      <svg viewBox="0 0 24 24" aria-hidden="true" className={`size-10 ${iconClassName}`}>
        <path fill="none" stroke="currentColor" strokeWidth="1.5" d={icon} />
      </svg>
      <h2 className="text-lg font-medium">{title}</h2>
      <p className="max-w-md text-sm text-muted">{children}</p>
      {action}
    </Card>
  );
}
