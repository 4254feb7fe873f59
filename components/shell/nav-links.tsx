'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useState } from 'react';
import { NAV_ITEMS } from './nav-items';

/**
 * Every page is dynamic, so a prefetch is a server render with its database reads: prefetched
 * when they came into view, the header's nine links cost each page view nine more renders,
 * twice over (again after hydration). A link is prefetched once the pointer is over it or it
 * has the keyboard's focus instead (the Next.js prefetching guide's hover pattern), still ahead
 * of the click.
 */
function NavLink({
  href,
  current,
  children,
}: {
  href: string;
  current: boolean;
  children: string;
}) {
  const [wanted, setWanted] = useState(false);
  return (
    <Link
      href={href}
      prefetch={wanted ? null : false}
      onMouseEnter={() => setWanted(true)}
      onFocus={() => setWanted(true)}
      aria-current={current ? 'page' : undefined}
      className="block rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap text-slate-600 hover:bg-slate-100 hover:text-slate-900 aria-[current=page]:bg-brand-50 aria-[current=page]:text-brand-700 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white dark:aria-[current=page]:bg-slate-800 dark:aria-[current=page]:text-brand-100"
    >
      {children}
    </Link>
  );
}

export function NavLinks() {
  const pathname = usePathname();
  return (
    <ul className="flex items-center gap-1">
      {NAV_ITEMS.map((item) => {
        const current = item.href === '/' ? pathname === '/' : pathname.startsWith(item.href);
        return (
          <li key={item.href}>
            <NavLink href={item.href} current={current}>
              {item.label}
            </NavLink>
          </li>
        );
      })}
    </ul>
  );
}
