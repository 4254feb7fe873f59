import type { Metadata } from 'next';
import { Card } from '@/components/ui/card';
import { requireUser } from '@/lib/auth/session';

export const metadata: Metadata = { title: 'Overview' };

export default async function OverviewPage() {
  const user = await requireUser();
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Overview</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Signed in as {user.name}. Your buildings and thermostats at a glance.
        </p>
      </div>
      <Card className="grid place-items-center gap-3 py-16 text-center">
        <svg viewBox="0 0 24 24" aria-hidden="true" className="size-10 text-slate-400">
          <path
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
            d="M3 21h18M5 21V8l7-5 7 5v13M9 21v-6h6v6"
          />
        </svg>
        <h2 className="text-lg font-medium">No buildings yet</h2>
        <p className="max-w-md text-sm text-slate-600 dark:text-slate-400">
          Your portfolio is empty. The buildings and thermostats you manage will appear here with
          their live status.
        </p>
      </Card>
    </div>
  );
}
