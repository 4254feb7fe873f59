import type { Metadata } from 'next';
import { PolicyForm } from '@/components/units/policy-form';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { PolicyTable } from '@/components/units/policy-table';
import { can } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { policyView } from '@/lib/units/manage-policies';
import { policyFormRows } from '@/lib/units/policies';
import { saveMoveInLeadAction, saveOrganisationPolicy } from './actions';
import { LeadForm } from '@/components/units/lead-form';
import { readMoveInLead } from '@/lib/units/policy-store';

export const metadata: Metadata = { title: 'Occupancy policies' };

/** The organisation's occupancy policy: what each state of a unit means for its thermostat. */
export default async function OccupancyPoliciesPage() {
  const member = await requireMember();
  const [view, lead] = await Promise.all([
    policyView({ orgId: member.orgId, buildingId: '' }),
    readMoveInLead({ orgId: member.orgId }),
  ]);
  const manages = can(member, 'manage_policies');
  return (
    <div className="grid gap-6">
      <PageHeader title="Occupancy policies">
        What each state of a unit means for its thermostat: a template to apply and resident mode.
        This is the organisation’s policy; a building may set its own for any state, on its units
        page. Until one is set, vacant and make-ready apply a template named “Vacant unit” and
        occupied one named “Occupied unit”, where the organisation has them. When a unit changes
        state, Setpoint puts its thermostat in that state’s settings as one run (a move-out: a
        snapshot, resident mode off, the template, a read back), and each unit says whether its
        thermostat matches.
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
      <section aria-labelledby="lead-heading" className="grid gap-3">
        <h2 id="lead-heading" className="text-lg font-semibold">
          Scheduled move-ins
        </h2>
        <p className="text-sm text-muted">
          A scheduled move-in is prepared ahead: {lead / 60} hour{lead === 60 ? '' : 's'} before it,
          the occupied policy’s template is applied (resident mode as it is); at the move-in,
          Setpoint records it and turns resident mode on.
        </p>
        {manages ? (
          <Card>
            <LeadForm action={saveMoveInLeadAction} hours={lead / 60} />
          </Card>
        ) : null}
      </section>
    </div>
  );
}
