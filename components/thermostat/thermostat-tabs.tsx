'use client';

import { useLinkStatus } from 'next/link';
import { usePathname } from 'next/navigation';
import { Link } from '@/components/ui/link';

/** The sections of a thermostat, each a page under /thermostats/[id]. */
export const THERMOSTAT_TABS = [
  { segment: '', label: 'Status' },
  { segment: '/schedule', label: 'Schedule' },
  { segment: '/comfort-settings', label: 'Comfort settings' },
  { segment: '/configuration', label: 'Configuration' },
  { segment: '/access-control', label: 'Access control' },
  { segment: '/alerts', label: 'Alerts' },
] as const;

export function ThermostatTabs({ thermostatId }: { thermostatId: string }) {
  const pathname = usePathname();
  const base = `/thermostats/${thermostatId}`;
  return (
    <div className="relative -mx-4 min-w-0 sm:mx-0">
      <nav aria-label="Thermostat sections" className="overflow-x-auto px-4 sm:px-0">
        {/* The end padding lets the last tab scroll clear of the fade below. */}
        <ul className="flex min-w-max gap-1 border-b border-slate-200 pr-8 md:pr-0 dark:border-slate-800">
          {THERMOSTAT_TABS.map((tab) => {
            const href = `${base}${tab.segment}`;
            const current = pathname === href;
            return (
              <li key={tab.label}>
                <Link
                  href={href}
                  aria-current={current ? 'page' : undefined}
                  className="-mb-px block border-b-2 border-transparent px-3 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 aria-[current=page]:border-brand-600 aria-[current=page]:text-brand-700 dark:text-slate-400 dark:hover:text-white dark:aria-[current=page]:text-brand-100"
                >
                  {tab.label}
                  <PendingMark />
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      {/* Below `md` the tabs can be wider than the window and scroll sideways: a fade at the right
          edge says there is more. It stops short of the underline, which stays crisp. */}
      <div
        aria-hidden="true"
        className="pointer-events-none absolute top-0 right-0 bottom-0.5 w-10 bg-linear-to-l from-slate-50 to-transparent md:hidden dark:from-slate-950"
      />
    </div>
  );
}

/**
 * The pages have no loading.tsx (its skeleton would stand in for the page until JavaScript
 * swapped it, and without JavaScript forever), so a tab being opened says so itself.
 */
function PendingMark() {
  const { pending } = useLinkStatus();
  return (
    <span
      aria-hidden="true"
      className={`ml-1.5 inline-block size-1.5 rounded-full bg-brand-600 align-middle ${pending ? 'animate-pulse' : 'invisible'}`}
    />
  );
}
