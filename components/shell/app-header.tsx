import { Link } from '@/components/ui/link';
import { Logo } from '@/components/ui/logo';
import { ROLE_NAMES } from '@/lib/auth/permissions';
import type { Member } from '@/lib/db/queries';
import { NavLinks } from './nav-links';
import { UserMenu } from './user-menu';

export function AppHeader({ member, csrfToken }: { member: Member; csrfToken: string }) {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-900/90">
      {/* The logo and the menu on one row, the navigation on its own below (its links do not
          fit beside them even on a wide laptop), scrolling sideways when narrower than its links. */}
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 px-4 sm:px-6">
        {/* Not prefetched: the navigation's Overview link prefetches the same page on hover. */}
        <Link
          href="/"
          prefetch={false}
          aria-label="Setpoint home"
          className="flex-1 rounded-md py-3"
        >
          <Logo className="text-lg" />
        </Link>
        <div className="relative order-last -mx-4 w-[calc(100%+2rem)] min-w-0 border-t border-slate-100 sm:-mx-6 sm:w-[calc(100%+3rem)] dark:border-slate-800">
          {/* Below `lg` the list is as wide as its links, and its end padding lets the last link
              scroll clear of the fade below. */}
          <nav
            aria-label="Main"
            className="overflow-x-auto px-3 py-1.5 max-lg:[&>ul]:w-max max-lg:[&>ul]:pr-8 sm:px-4"
          >
            <NavLinks />
          </nav>
          {/* The row scrolls sideways when narrow: a fade at its right edge says there is more. */}
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-y-0 right-0 w-10 bg-linear-to-l from-white to-transparent lg:hidden dark:from-slate-900"
          />
        </div>
        <UserMenu
          name={member.name}
          email={member.email}
          organization={`${member.orgName} · ${ROLE_NAMES[member.role]}`}
          csrfToken={csrfToken}
        />
      </div>
    </header>
  );
}
