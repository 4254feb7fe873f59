import type { ReactNode } from 'react';

/** A page's title, a line under it, and the page's main actions (a link or two) beside it. */
export function PageHeader({
  title,
  children,
  actions,
}: {
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end gap-4">
      <div className="flex-1">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {children ? <p className="mt-1 text-sm text-muted">{children}</p> : null}
      </div>
      {actions}
    </div>
  );
}
