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

/**
 * The error boundary of one section: the page around it (navigation, tabs) stays usable. It never
 * says nothing was changed: the error may have come after a save was sent, so it sends the member
 * to what the thermostat shows now before saving again.
 */
export function SectionError({ error, reset }: BoundaryProps) {
  return (
    <ErrorPanel
      heading={<h2 className="text-lg font-semibold">This section could not be shown</h2>}
      reset={reset}
    >
      If you had just saved a change, it may have been made: try again to see what is in place
      before saving again{error.digest ? ` (reference ${error.digest})` : ''}.
    </ErrorPanel>
  );
}
