/**
 * What a page shows while its server render is on the way (client navigations only). Pages with
 * forms meant to work without JavaScript (the schedule, comfort settings) have no loading
 * boundary: without JavaScript its fallback would stay on screen.
 */
export function PageSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-live="polite" className="grid gap-4">
      <span className="sr-only">{label}</span>
      <div className="h-8 w-48 animate-pulse rounded-md bg-slate-200 dark:bg-slate-800" />
      <div className="h-40 animate-pulse rounded-xl bg-slate-200 dark:bg-slate-800" />
    </div>
  );
}
