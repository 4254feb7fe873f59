import type { Metadata } from 'next';
import { AddBuildingForm } from '@/components/portfolio/add-building-form';
import { AddFromCsvForm, AddFromListForm, ImportDemoForm } from '@/components/portfolio/add-forms';
import { Card } from '@/components/ui/card';
import { NotAllowed } from '@/components/ui/not-allowed';
import { can, refusal } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { listOrganizationBuildings } from '@/lib/portfolio/store';
import { timeZoneChoices } from '@/lib/portfolio/buildings';
import { isSandboxService } from '@/lib/portfolio/sandbox-demo';
import { addBuildingAction, addFromCsv, addFromList, importSandboxDemo } from './actions';

export const metadata: Metadata = { title: 'Add thermostats' };

export default async function AddThermostatsPage() {
  const member = await requireMember();
  if (!can(member, 'manage_portfolio')) {
    return (
      <NotAllowed
        title="Add thermostats"
        message={refusal(member.role, 'manage_portfolio').replace(' Nothing was changed.', '')}
      />
    );
  }
  const buildings = (await listOrganizationBuildings({ orgId: member.orgId })).map(
    ({ buildingId, name }) => ({ buildingId, name }),
  );
  const timeZones = timeZoneChoices().map((zone) => ({
    value: zone,
    label: zone.replace(/_/g, ' '),
  }));
  // Before the thermostats, always in one place (its answer stays through the page's refresh).
  const addBuilding = (
    <Card className="grid gap-3">
      <h2 className="text-lg font-medium">Add a building</h2>
      <p className="text-sm text-muted">
        The service does not list your buildings either: add each once, with the id the service
        knows it by, before adding its thermostats.
        {buildings.length > 0 ? ` Your portfolio has ${buildings.length}.` : ''}
      </p>
      <AddBuildingForm
        action={addBuildingAction}
        timeZones={timeZones}
        defaultTimeZone="America/New_York"
      />
    </Card>
  );
  return (
    <div className="grid max-w-3xl gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Add thermostats</h1>
        <p className="mt-1 text-sm text-muted">
          The service does not list your thermostats or say which building each is in, so tell
          Setpoint which ones you manage, and where.
        </p>
      </div>
      {isSandboxService() ? (
        <Card className="grid gap-3">
          <h2 className="text-lg font-medium">Demo data</h2>
          <p className="text-sm text-muted">
            You are connected to the local sandbox. Add its demo portfolio (several buildings,
            dozens of thermostats) in one click.
          </p>
          <ImportDemoForm action={importSandboxDemo} />
        </Card>
      ) : null}
      {addBuilding}
      <Card className="grid gap-3">
        <h2 className="text-lg font-medium">By id or list</h2>
        <AddFromListForm action={addFromList} buildings={buildings} />
      </Card>
      <Card className="grid gap-3">
        <h2 className="text-lg font-medium">From a CSV file</h2>
        <AddFromCsvForm action={addFromCsv} buildings={buildings} />
      </Card>
    </div>
  );
}
