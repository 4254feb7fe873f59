import type { Metadata } from 'next';
import { TemplateForm } from '@/components/templates/template-form';
import { Card } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { NotAllowed } from '@/components/ui/not-allowed';
import { PageHeader } from '@/components/ui/page-header';
import { can, refusal } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { resolveGroups } from '@/lib/groups/store';
import { listBuildings, listThermostats } from '@/lib/portfolio/store';
import { templateFormValues } from '@/lib/templates/form';
import { askedIdsOf, inScope, thermostatsByBuilding } from '@/lib/groups/selection';
import { planOneOffChange } from './actions';

export const metadata: Metadata = { title: 'One-off change' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * A one-off change to many thermostats: any of a template's sections, without saving a
 * template, and the thermostats to plan it on. Planned like a template (read, the fewest calls,
 * the diff), applied from the run's page as a job, undoable there.
 */
export default async function OneOffChangePage({ searchParams }: Props) {
  const member = await requireMember();
  if (!can(member, 'change_thermostat')) {
    return (
      <NotAllowed title="One-off change" message={refusal(member.role, 'change_thermostat')} />
    );
  }
  // Rows ticked elsewhere (a building's page) may arrive as `?ids=…`; only those in scope count.
  const asked = (await searchParams).ids;
  const askedIds = askedIdsOf(asked);
  const [buildings, thermostats, groups] = await Promise.all([
    listBuildings({ scope: member }),
    listThermostats({ scope: member }),
    resolveGroups({ scope: member }),
  ]);
  const byBuilding = thermostatsByBuilding(buildings, thermostats);
  const { values } = templateFormValues({}, member.temperatureUnit);

  return (
    <div className="grid gap-6">
      <div>
        <Link href="/bulk" className="text-sm hover:underline">
          ← Bulk changes
        </Link>
        <PageHeader title="One-off change">
          Change any writable setting on many thermostats at once, without saving a template: tick
          the sections to change and the thermostats. Setpoint reads each thermostat, plans the
          fewest changes and shows them before anything is sent; applying runs as a job with a
          result per thermostat, and the whole change can be undone from its page.
        </PageHeader>
      </div>
      <Card>
        {thermostats.length === 0 ? (
          <p className="text-sm">Add thermostats to your portfolio first.</p>
        ) : (
          <TemplateForm
            action={planOneOffChange}
            initial={values}
            unit={member.temperatureUnit}
            mode="oneoff"
            schedule={null}
            picker={{
              buildings: byBuilding,
              groups,
              initialSelected: inScope(thermostats, askedIds),
            }}
          />
        )}
      </Card>
    </div>
  );
}
