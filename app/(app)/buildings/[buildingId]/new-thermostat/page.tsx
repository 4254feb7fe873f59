import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { NewThermostatForm } from '@/components/buildings/new-thermostat-form';
import { Card } from '@/components/ui/card';
import { NotAllowed } from '@/components/ui/not-allowed';
import { Trail } from '@/components/ui/trail';
import { can, refusal } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { scopedBuilding } from '@/lib/portfolio/guard';
import { createThermostatInBuilding } from './actions';

export const metadata: Metadata = { title: 'New thermostat' };

export default async function NewThermostatPage({
  params,
}: {
  params: Promise<{ buildingId: string }>;
}) {
  const member = await requireMember();
  const { buildingId } = await params;
  const building = await scopedBuilding(member, buildingId);
  if (!building) notFound();
  if (!can(member, 'manage_building', building)) {
    return (
      <NotAllowed
        title="New thermostat"
        message={refusal(member.role, 'manage_building').replace(' Nothing was changed.', '')}
      />
    );
  }
  return (
    <div className="grid max-w-xl gap-6">
      <div>
        <Trail steps={[{ href: `/buildings/${building.buildingId}`, label: building.name }]} />
        <h1 className="text-2xl font-semibold tracking-tight">New thermostat</h1>
        <p className="mt-1 text-sm text-muted">
          Registers a thermostat in {building.name} at the service and adds it to your portfolio.
        </p>
      </div>
      <Card>
        <NewThermostatForm action={createThermostatInBuilding.bind(null, building.buildingId)} />
      </Card>
    </div>
  );
}
