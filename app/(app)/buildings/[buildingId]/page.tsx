import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { BuildingDetailsForm } from '@/components/buildings/building-details-form';
import { BuildingTable } from '@/components/buildings/building-table';
import { Button, buttonClass } from '@/components/ui/button';
import { can } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { findBuilding, listThermostats } from '@/lib/db/queries';
import { buildingRows } from '@/lib/readings/rows';
import { buildingIdSchema } from '@/lib/thermostat-api/schemas';
import { refreshBuilding, updateBuildingDetails } from './actions';

type Props = { params: Promise<{ buildingId: string }> };

export const metadata: Metadata = { title: 'Building' };

export default async function BuildingPage({ params }: Props) {
  const member = await requireMember();
  const { buildingId } = await params;
  if (!buildingIdSchema.safeParse(buildingId).success) notFound();
  const [building, thermostats] = await Promise.all([
    findBuilding({ scope: member, buildingId }),
    listThermostats({ scope: member, buildingId }),
  ]);
  if (!building) notFound();
  const manages = can(member, 'manage_building', building);

  // From the readings store at once; stale rows are read again (within the call budget) and
  // stream in, so the page shell never waits for the service.
  const rows = await buildingRows({ scope: member, buildingId: building.buildingId, thermostats });

  return (
    <div className="grid gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <p className="text-sm text-slate-600 dark:text-slate-400">
            <Link href="/" className="hover:underline">
              Overview
            </Link>{' '}
            /
          </p>
          <h1 className="text-2xl font-semibold tracking-tight">{building.name}</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {[building.address, building.timeZone.replace(/_/g, ' ')].filter(Boolean).join(' · ')}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <form action={refreshBuilding.bind(null, building.buildingId)}>
            <Button type="submit" variant="secondary">
              Refresh statuses
            </Button>
          </form>
          {manages ? (
            <Link
              href={`/buildings/${building.buildingId}/new-thermostat`}
              className={buttonClass('secondary')}
            >
              New thermostat
            </Link>
          ) : null}
        </div>
      </div>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          No thermostats in this building yet.
          {can(member, 'manage_portfolio') ? (
            <>
              {' '}
              <Link href="/portfolio/add" className="font-medium underline">
                Add some
              </Link>
              .
            </>
          ) : null}
        </p>
      ) : (
        <BuildingTable rows={rows} unit={member.temperatureUnit} timeZone={building.timeZone} />
      )}
      {manages ? (
        <details className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
          <summary className="cursor-pointer text-sm font-medium">
            Edit building name and address
          </summary>
          <div className="mt-4">
            <BuildingDetailsForm
              action={updateBuildingDetails.bind(null, building.buildingId)}
              name={building.name}
              address={building.address}
            />
          </div>
        </details>
      ) : null}
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Readings are kept fresh in the background within the service’s rate limits; each row says
        when it was read (in the building’s time zone), and older ones are read again as you look.
      </p>
    </div>
  );
}
