import { Link } from '@/components/ui/link';
import { Logo } from '@/components/ui/logo';
import { ROLE_NAMES } from '@/lib/auth/permissions';
import type { Member } from '@/lib/auth/store';
import { NavLinks } from './nav-links';
import { NavMenu } from './nav-menu';
import { UserMenu } from './user-menu';

export function AppHeader({ member, csrfToken }: { member: Member; csrfToken: string }) {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-900/90">
      {/* The logo, the phone's menu and the account menu on one row. On a laptop the sections
          sit on their own row below (they do not fit beside the rest even on a wide laptop); on
          anything narrower they are the menu's, every one in view once it is open. */}
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 px-4 sm:px-6">
        {/* Not prefetched: the navigation's Overview link prefetches the same page on hover. */}
        <Link
          href="/"
          prefetch={false}
          aria-label="Setpoint home"
          className="mr-auto rounded-md py-3"
        >
          <Logo className="text-lg" />
        </Link>
        <NavMenu />
        <UserMenu
          name={member.name}
          email={member.email}
          organization={`${member.orgName} · ${ROLE_NAMES[member.role]}`}
          csrfToken={csrfToken}
        />
        <div className="order-last -mx-6 w-[calc(100%+3rem)] min-w-0 border-t border-slate-100 max-lg:hidden dark:border-slate-800">
          <nav aria-label="Main" className="overflow-x-auto px-4 py-1.5">
            <NavLinks />
          </nav>
        </div>
      </div>
    </header>
  );
}
