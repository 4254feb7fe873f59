import type { Metadata } from 'next';
import { buttonClass } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Link } from '@/components/ui/link';
import { PageHeader } from '@/components/ui/page-header';
import { RedirectNotice } from '@/components/ui/redirect-notice';
import { When } from '@/components/ui/when';
import { can } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { readNotice } from '@/lib/platform/notice';
import { listTemplates } from '@/lib/templates/store';
import { sectionsInWords } from '@/lib/templates/describe';

export const metadata: Metadata = { title: 'Templates' };

/** A stack of sliders: a profile of settings. */
const ICON = 'M6 4v16M12 4v16M18 4v16M4 8h4M10 15h4M16 10h4';

/**
 * The organisation's template library: named profiles of comfort settings, a weekly schedule,
 * configuration, alerts and access-control locks, each planned on thermostats before it is
 * applied. Everyone may read them; owners and admins make and change them.
 */
export default async function TemplatesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const member = await requireMember();
  const notice = readNotice(await searchParams, member);
  const manages = can(member, 'manage_templates');
  const templates = await listTemplates({ orgId: member.orgId });
  const newLink = manages ? (
    <Link href="/templates/new" className={buttonClass()}>
      New template
    </Link>
  ) : null;

  return (
    <div className="grid gap-6">
      <PageHeader title="Templates" actions={templates.length > 0 ? newLink : null}>
        A template is a named profile (such as “Vacant unit”) of comfort settings, a weekly
        schedule, configuration, alert settings and locks. Planning one on thermostats shows what it
        would change on each before anything is sent.{' '}
        <Link href="/templates/occupancy" className="underline">
          Occupancy policies
        </Link>{' '}
        say which template each state of a unit calls for.
      </PageHeader>

      <RedirectNotice notice={notice} />

      {templates.length === 0 ? (
        <EmptyState
          icon={ICON}
          iconClassName="text-brand-600"
          title="No templates yet"
          action={newLink}
        >
          {manages
            ? 'Start one from a thermostat that is set up the way you want (say, a vacant unit), adjust it, and save it.'
            : 'Owners and admins make templates; they will be listed here.'}
        </EmptyState>
      ) : (
        <Card>
          <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Templates">
            {templates.map((template) => (
              <li key={template.id} className="grid gap-1 py-4 first:pt-0 last:pb-0">
                <Link
                  href={`/templates/${template.id}`}
                  className="font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-100"
                >
                  {template.name}
                </Link>
                <p className="text-sm">{sentence(sectionsInWords(template.template))}</p>
                <p className="text-xs text-muted">
                  Last changed by {template.updatedByName},{' '}
                  <When at={template.updatedAt} zone={member.timeZone} />
                </p>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}

/** "3 comfort settings, a weekly schedule and configuration." */
function sentence(parts: string[]): string {
  if (parts.length === 0) return 'Sets nothing.';
  const words =
    parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  return `Sets ${words}.`;
}
