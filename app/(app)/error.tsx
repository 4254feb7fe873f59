'use client';

import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';

export default function AppError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <Card className="grid gap-3">
      <h1 className="text-lg font-semibold">Something went wrong on this page</h1>
      <p className="text-sm text-muted">
        Nothing you saved is lost. Try again; if it keeps happening, tell your administrator
        {error.digest ? ` and mention reference ${error.digest}` : ''}.
      </p>
      <div>
        <Button onClick={reset}>Try again</Button>
      </div>
    </Card>
  );
}
