'use client';

import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';

/** The error boundary of one section: the page around it (navigation, tabs) stays usable. */
export function SectionError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <Card className="grid gap-3">
      <h2 className="text-lg font-semibold">This section could not be shown</h2>
      <p className="text-sm text-muted">
        Nothing was changed. Try again{error.digest ? ` (reference ${error.digest})` : ''}.
      </p>
      <div>
        <Button onClick={reset}>Try again</Button>
      </div>
    </Card>
  );
}
