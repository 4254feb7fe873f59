'use client';

import { usePathname } from 'next/navigation';
import { Link } from '@/components/ui/link';
import { currentSection, NAV_ITEMS } from './nav-items';

const LINK_CLASS =
  'block rounded-md px-3 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 aria-[current=page]:bg-brand-50 aria-[current=page]:text-brand-700 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white dark:aria-[current=page]:bg-slate-800 dark:aria-[current=page]:text-brand-100';

/** Laid out in a row (a laptop's header) or as a menu's list (a phone's, large enough to tap). */
const LAYOUTS = {
  row: { list: 'flex items-center gap-1', link: 'py-2 whitespace-nowrap' },
  menu: { list: 'grid gap-1 sm:grid-cols-2 md:grid-cols-3', link: 'py-3' },
} as const;

/** The sections, the current one marked (`aria-current`) by the page's path. */
export function NavLinks({ layout = 'row' }: { layout?: keyof typeof LAYOUTS }) {
  const current = currentSection(usePathname());
  const classes = LAYOUTS[layout];
  return (
    <ul className={classes.list}>
      {NAV_ITEMS.map((item) => (
        <li key={item.href}>
          <Link
            href={item.href}
            aria-current={item.href === current ? 'page' : undefined}
            className={`${LINK_CLASS} ${classes.link}`}
          >
            {item.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}
