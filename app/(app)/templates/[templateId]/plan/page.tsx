import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PlanForm } from '@/components/templates/plan-form';
import { Card } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { PageHeader } from '@/components/ui/page-header';
import { WhenMayChange } from '@/components/bulk/when-may-change';
import { can } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { resolveGroups } from '@/lib/groups/store';
import { listBuildings, listThermostats } from '@/lib/portfolio/store';
import { findTemplate } from '@/lib/templates/store';
import { describeTemplate } from '@/lib/templates/describe';
import { askedIdsOf, inScope, thermostatsByBuilding } from '@/lib/groups/selection';
import { planTemplate } from './actions';

export const metadata: Metadata = { title: 'Plan a template' };

type Props = {
  params: Promise<{ templateId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/**
 * Choose the thermostats a template is planned on (the member's own buildings only), under what
 * the template sets, one line per section (the settings of each folded below it). The plan itself
 * is a run: read, planned and shown on its page before anything is sent, again one line per
 * section first (components/templates/plan-view.tsx).
 */
export default async function PlanTemplatePage({ params, searchParams }: Props) {
  const member = await requireMember();
  const { templateId } = await params;
  const stored = await findTemplate({ orgId: member.orgId, templateId });
  if (!stored) notFound();
  const mayChange = can(member, 'change_thermostat');
  // Rows ticked elsewhere (a building's page) may arrive as `?ids=…`; only those in scope count.
  const asked = (await searchParams).ids;
  const askedIds = askedIdsOf(asked);
  const [buildings, thermostats, groups] = await Promise.all([
    mayChange ? listBuildings({ scope: member }) : [],
    mayChange ? listThermostats({ scope: member }) : [],
    mayChange ? resolveGroups({ scope: member }) : [],
  ]);
  const byBuilding = thermostatsByBuilding(buildings, thermostats);
  const sections = describeTemplate(stored.template, member.temperatureUnit);

  return (
    <div className="grid gap-6">
      <div>
        <Link href={`/templates/${stored.id}`} className="text-sm hover:underline">
          ← {stored.name}
        </Link>
        <PageHeader title={`Plan “${stored.name}”`}>
          Choose the thermostats. Setpoint reads each one and plans the fewest changes that make it
          match; you see every change, the calls it costs and the time it takes before applying.
        </PageHeader>
      </div>
      <Card className="grid gap-2">
        <h2 className="text-lg font-medium">What it sets</h2>
        {/* One line per section; a section of several settings folds them below its line. */}
        <ul className="grid gap-2 text-sm">
          {sections.map((section) => (
            <li key={section.title}>
              <p>
                <span className="font-medium">{section.title}:</span> {section.brief}
              </p>
              {section.lines.length > 1 ? (
                <details className="mt-1">
                  <summary className="cursor-pointer text-muted">
                    Each setting<span className="sr-only"> of {section.title.toLowerCase()}</span>
                  </summary>
                  <ul className="mt-1 grid list-disc gap-1 pl-5">
                    {section.lines.map((line) => (
                      <li key={line} className="break-words">
                        {line}
                      </li>
                    ))}
                  </ul>
                </details>
              ) : null}
            </li>
          ))}
        </ul>
      </Card>
      <Card>
        <WhenMayChange
          mayChange={mayChange}
          role={member.role}
          thermostatCount={thermostats.length}
        >
          <PlanForm
            buildings={byBuilding}
            groups={groups}
            initialSelected={inScope(thermostats, askedIds)}
            plan={planTemplate.bind(null, stored.id)}
          />
        </WhenMayChange>
      </Card>
    </div>
  );
}
