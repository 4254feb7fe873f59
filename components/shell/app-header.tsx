import Link from 'next/link';
import { Logo } from '@/components/ui/logo';
import type { PublicUser } from '@/lib/db/queries';
import { NavLinks } from './nav-links';
import { UserMenu } from './user-menu';

export function AppHeader({ user }: { user: PublicUser }) {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-900/90">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-4 px-4 sm:gap-8 sm:px-6">
        <Link href="/" aria-label="Setpoint home" className="rounded-md">
          <Logo className="text-lg" />
        </Link>
        <nav aria-label="Main" className="min-w-0 flex-1 overflow-x-auto">
          <NavLinks />
        </nav>
        <UserMenu name={user.name} email={user.email} />
      </div>
    </header>
  );
}
