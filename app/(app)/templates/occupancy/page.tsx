import type { Metadata } from 'next';
import { PolicyForm } from '@/components/units/policy-form';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { PolicyTable } from '@/components/units/policy-table';
import { can } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { policyView } from '@/lib/units/manage-policies';
import { policyFormRows } from '@/lib/units/policies';
import { saveOrganisationPolicy } from './actions';

export const metadata: Metadata = { title: 'Occupancy policies' };

/** The organisation's occupancy policy: what each state of a unit means for its thermostat. */
export default async function OccupancyPoliciesPage() {
  const member = await requireMember();
  const view = await policyView({ orgId: member.orgId, buildingId: '' });
  const manages = can(member, 'manage_policies');
  return (
    <div className="grid gap-6">
      <PageHeader title="Occupancy policies">
        What each state of a unit means for its thermostat: a template to apply and resident mode.
        This is the organisation’s policy; a building may set its own for any state, on its units
        page. When a unit changes state, Setpoint puts its thermostat in that state’s settings as
        one run (a move-out: a snapshot, resident mode off, the template, a read back), and each
        unit says whether its thermostat matches.
      </PageHeader>
      <PolicyTable view={view} />
      {manages ? (
        <Card>
          <PolicyForm
            action={saveOrganisationPolicy}
            whose="the organisation"
            follows="Setpoint’s default"
            templates={view.templates}
            states={policyFormRows(view, 'organisation')}
          />
        </Card>
      ) : null}
    </div>
  );
}
