import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { NewThermostatForm } from '@/components/buildings/new-thermostat-form';
import { Card } from '@/components/ui/card';
import { requireUser } from '@/lib/auth/session';
import { findBuilding } from '@/lib/db/queries';
import { buildingIdSchema } from '@/lib/thermostat-api/schemas';
import { createThermostatInBuilding } from './actions';

export const metadata: Metadata = { title: 'New thermostat' };

export default async function NewThermostatPage({
  params,
}: {
  params: Promise<{ buildingId: string }>;
}) {
  const user = await requireUser();
  const { buildingId } = await params;
  const id = buildingIdSchema.safeParse(buildingId);
  const building = id.success ? await findBuilding({ userId: user.id, buildingId: id.data }) : null;
  if (!building) notFound();
  return (
    <div className="grid max-w-xl gap-6">
      <div>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          <Link href={`/buildings/${building.buildingId}`} className="hover:underline">
            {building.name}
          </Link>{' '}
          /
        </p>
        <h1 className="text-2xl font-semibold tracking-tight">New thermostat</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Registers a thermostat in {building.name} at the service and adds it to your portfolio.
        </p>
      </div>
      <Card>
        <NewThermostatForm action={createThermostatInBuilding.bind(null, building.buildingId)} />
      </Card>
    </div>
  );
}
