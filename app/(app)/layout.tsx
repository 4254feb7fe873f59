import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { ConnectionBanner } from '@/components/connection/connection-banner';
import { AppHeader } from '@/components/shell/app-header';
import { CSRF_HEADER } from '@/lib/auth/csrf';
import { can } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { connectionAtRequestStart, markLayoutDrawn } from '@/lib/service/connection/connection';

// Every page under this layout needs a signed-in member; the check is in the data layer
// (requireMember), the proxy's redirect only saves a round trip.
export default async function AppLayout({ children }: { children: ReactNode }) {
  markLayoutDrawn();
  const member = await requireMember();
  const connection = await connectionAtRequestStart(member.orgId);
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 dark:focus:bg-slate-900"
      >
        Skip to content
      </a>
      <AppHeader member={member} csrfToken={(await headers()).get(CSRF_HEADER) ?? ''} />
      <ConnectionBanner
        connection={connection}
        canReconnect={can(member, 'manage_connection')}
        zone={member.timeZone}
      />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 sm:px-6 sm:py-8">
        {children}
      </main>
    </div>
  );
}
