'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useRef } from 'react';
import { NavLinks } from './nav-links';

/**
 * The navigation on a phone or a tablet, where its nine links do not fit a row: a "Menu" that
 * opens every section at once, rather than a row that hides most of them off-screen. A native
 * <details>, so it opens and closes without JavaScript, by keyboard too, and says whether it is
 * open; with JavaScript it also closes on Escape, on a click elsewhere or on one of its links,
 * and on any change of page (the header stays on screen between pages, and so would the menu).
 */
export function NavMenu() {
  const pathname = usePathname();
  const menu = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    // The path is the reason to close: a page was reached through the menu (or otherwise).
    void pathname;
    if (menu.current) menu.current.open = false;
  }, [pathname]);

  useEffect(() => {
    const close = (focus: boolean) => {
      const details = menu.current;
      if (!details?.open) return;
      details.open = false;
      if (focus) details.querySelector('summary')?.focus();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close(true);
    };
    // A click elsewhere, or on one of its links (the current page's too, which changes no path).
    const onClick = (event: MouseEvent) => {
      const target = event.target as Element;
      if (!menu.current?.contains(target) || target.closest('nav a')) close(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, []);

  return (
    <details ref={menu} className="group lg:hidden">
      <summary className="flex min-h-10 cursor-pointer list-none items-center gap-2 rounded-lg border border-slate-300 px-3 text-sm font-medium text-slate-700 hover:bg-slate-100 group-open:bg-slate-100 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800 dark:group-open:bg-slate-800 [&::-webkit-details-marker]:hidden">
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.75"
          strokeLinecap="round"
          className="size-5"
        >
          {/* Three bars when closed, a cross when open. */}
          <path d="M3 5.5h14M3 10h14M3 14.5h14" className="group-open:hidden" />
          <path d="M5 5l10 10M15 5L5 15" className="hidden group-open:inline" />
        </svg>
        Menu
      </summary>
      {/* Below the whole header (the sticky header is the nearest positioned box), over the page. */}
      <nav
        aria-label="Main"
        className="absolute inset-x-0 top-full max-h-[calc(100dvh-4rem)] overflow-y-auto border-b border-slate-200 bg-white shadow-lg dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="mx-auto max-w-6xl px-4 py-3 sm:px-6">
          <NavLinks layout="menu" />
        </div>
      </nav>
    </details>
  );
}
