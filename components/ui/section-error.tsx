'use client';

import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';

type BoundaryProps = { error: Error & { digest?: string }; reset: () => void };

/**
 * What an error boundary shows: a heading, what to do (with the reference of the server's log
 * line, when there is one), and a way to try again.
 */
export function ErrorPanel({
  heading,
  children,
  reset,
}: {
  heading: ReactNode;
  children: ReactNode;
  reset: () => void;
}) {
  return (
    <Card className="grid gap-3">
      {heading}
      <p className="text-sm text-muted">{children}</p>
      <div>
        <Button onClick={reset}>Try again</Button>
      </div>
    </Card>
  );
}

/** The error boundary of one section: the page around it (navigation, tabs) stays usable. */
export function SectionError({ error, reset }: BoundaryProps) {
  return (
    <ErrorPanel
      heading={<h2 className="text-lg font-semibold">This section could not be shown</h2>}
      reset={reset}
    >
      Nothing was changed. Try again{error.digest ? ` (reference ${error.digest})` : ''}.
    </ErrorPanel>
  );
}
