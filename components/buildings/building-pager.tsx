import { Link } from '@/components/ui/link';
import { type BuildingView, viewQuery } from '@/lib/readings/view';

/** Links to the pages of a long table: first, previous, a few around this one, next, last. */
export function BuildingPager({
  view,
  path,
  page,
  pages,
}: {
  view: BuildingView;
  path: string;
  page: number;
  pages: number;
}) {
  if (pages <= 1) return null;
  const near = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, pages])]
    .filter((n) => n >= 1 && n <= pages)
    .sort((a, b) => a - b);
  const href = (n: number) => `${path}${viewQuery(view, { page: n })}`;
  const linkClass =
    'inline-flex min-h-10 min-w-10 items-center justify-center rounded-lg border border-slate-300 px-3 text-sm hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800';
  return (
    <nav aria-label="Pages of thermostats" className="flex flex-wrap items-center gap-2">
      {page > 1 ? (
        <Link href={href(page - 1)} prefetch={false} className={linkClass} rel="prev">
          Previous
        </Link>
      ) : null}
      {near.map((n, index) => (
        <span key={n} className="contents">
          {index > 0 && n - (near[index - 1] ?? n) > 1 ? (
            <span aria-hidden="true" className="px-1 text-slate-500">
              …
            </span>
          ) : null}
          {n === page ? (
            <span
              aria-current="page"
              className={`${linkClass} border-brand-600 bg-brand-600 font-medium text-white hover:bg-brand-600 dark:hover:bg-brand-600`}
            >
              <span className="sr-only">Page </span>
              {n}
            </span>
          ) : (
            <Link href={href(n)} prefetch={false} className={linkClass}>
              <span className="sr-only">Page </span>
              {n}
            </Link>
          )}
        </span>
      ))}
      {page < pages ? (
        <Link href={href(page + 1)} prefetch={false} className={linkClass} rel="next">
          Next
        </Link>
      ) : null}
    </nav>
  );
}
