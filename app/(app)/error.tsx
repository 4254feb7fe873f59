'use client';

import { ErrorPanel } from '@/components/ui/section-error';

export default function AppError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <ErrorPanel
      heading={<h1 className="text-lg font-semibold">Something went wrong on this page</h1>}
      reset={reset}
    >
      Nothing you saved is lost. Try again; if it keeps happening, tell your administrator
      {error.digest ? ` and mention reference ${error.digest}` : ''}.
    </ErrorPanel>
  );
}
