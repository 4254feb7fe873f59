import type { Metadata } from 'next';
import { AddFromCsvForm, AddFromListForm, ImportDemoForm } from '@/components/portfolio/add-forms';
import { Card } from '@/components/ui/card';
import { NotAllowed } from '@/components/ui/not-allowed';
import { can, refusal } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { isSandboxService } from '@/lib/portfolio/sandbox-demo';

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
  return (
    <div className="grid max-w-3xl gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Add thermostats</h1>
        <p className="mt-1 text-sm text-muted">
          The service does not list your thermostats, so tell Setpoint which ones you manage. Their
          buildings are added with them.
        </p>
      </div>
      {isSandboxService() ? (
        <Card className="grid gap-3">
          <h2 className="text-lg font-medium">Demo data</h2>
          <p className="text-sm text-muted">
            You are connected to the local sandbox. Add its demo portfolio (several buildings,
            dozens of thermostats) in one click.
          </p>
          <ImportDemoForm />
        </Card>
      ) : null}
      <Card className="grid gap-3">
        <h2 className="text-lg font-medium">By id or list</h2>
        <AddFromListForm />
      </Card>
      <Card className="grid gap-3">
        <h2 className="text-lg font-medium">From a CSV file</h2>
        <AddFromCsvForm />
      </Card>
    </div>
  );
}
