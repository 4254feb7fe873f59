import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { ConnectForm } from '@/components/connection/connect-form';
import { buttonClass } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { can } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { listBuildings } from '@/lib/db/queries';
import { getConnectionSummary } from '@/lib/oauth/connection';

export const metadata: Metadata = { title: 'Overview' };

export default async function OverviewPage() {
  const member = await requireMember();
  const [buildings, connection] = await Promise.all([
    listBuildings({ scope: member }),
    getConnectionSummary(member.orgId),
  ]);
  const thermostatCount = buildings.reduce((sum, building) => sum + building.thermostatCount, 0);

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-end gap-4">
        <div className="flex-1">
          <h1 className="text-2xl font-semibold tracking-tight">Overview</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {buildings.length
              ? `${buildings.length} building${buildings.length === 1 ? '' : 's'}, ${thermostatCount} thermostat${thermostatCount === 1 ? '' : 's'}.`
              : `Signed in as ${member.name}, ${member.orgName}.`}
          </p>
        </div>
        {connection && can(member, 'manage_portfolio') ? (
          <Link href="/portfolio/add" className={buttonClass('primary')}>
            Add thermostats
          </Link>
        ) : null}
      </div>

      {!connection ? (
        <Card className="grid gap-3">
          <h2 className="text-lg font-medium">Connect your thermostat service account</h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Setpoint reads and changes your thermostats through your organisation’s service account.{' '}
            {can(member, 'manage_connection')
              ? buildings.length
                ? 'Connect it to read and change them.'
                : 'Connect it to add your buildings.'
              : 'An owner or admin connects it.'}
          </p>
          {can(member, 'manage_connection') ? (
            <div>
              <Suspense>
                <ConnectForm label="Connect service account" returnTo="/portfolio/add" />
              </Suspense>
            </div>
          ) : null}
        </Card>
      ) : null}

      {buildings.length === 0 ? (
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
            Add the thermostats you manage; their buildings appear here with their live status.
          </p>
        </Card>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {buildings.map((building) => (
            <li key={building.buildingId}>
              <Link
                href={`/buildings/${building.buildingId}`}
                className="block h-full rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-500 hover:shadow dark:border-slate-800 dark:bg-slate-900"
              >
                <h2 className="font-medium">{building.name}</h2>
                <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                  {building.address || 'No address'}
                </p>
                <p className="mt-3 flex justify-between text-xs text-slate-600 dark:text-slate-400">
                  <span>
                    {building.thermostatCount} thermostat{building.thermostatCount === 1 ? '' : 's'}
                  </span>
                  <span>{building.timeZone.replace(/_/g, ' ')}</span>
                </p>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
