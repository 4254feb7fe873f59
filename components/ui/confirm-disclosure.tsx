import type { ReactNode } from 'react';
import { Button } from './button';

/**
 * A destructive action behind a second step, without JavaScript: the summary ("Disconnect…")
 * opens what will happen and the one button that does it.
 */
export function ConfirmDisclosure({
  label,
  confirm,
  action,
  children,
}: {
  /** The summary, ending in "…": it only opens the confirmation. */
  label: string;
  /** The button that acts. */
  confirm: string;
  action: (form: FormData) => void | Promise<void>;
  /** What will happen, in words. */
  children: ReactNode;
}) {
  return (
    <details className="group">
      <ConfirmSummary>{label}</ConfirmSummary>
      <form
        action={action}
        className="mt-3 grid gap-3 rounded-lg border border-red-200 p-4 dark:border-red-900"
      >
        <div className="text-sm">{children}</div>
        <div>
          <Button type="submit" variant="danger">
            {confirm}
          </Button>
        </div>
      </form>
    </details>
  );
}

/** The summary that opens a confirmation ("Remove…"): it only opens, it never acts. */
export function ConfirmSummary({ children }: { children: ReactNode }) {
  return (
    <summary className="list-none [&::-webkit-details-marker]:hidden">
      <span className="inline-flex min-h-10 cursor-pointer items-center rounded-lg px-4 text-sm font-medium text-red-700 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950">
        {children}
      </span>
    </summary>
  );
}
