import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { TemplateForm } from '@/components/templates/template-form';
import { TemplateWeek } from '@/components/templates/template-week';
import { buttonClass } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDisclosure } from '@/components/ui/confirm-disclosure';
import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';
import { PageHeader } from '@/components/ui/page-header';
import { RedirectNotice } from '@/components/ui/redirect-notice';
import { When } from '@/components/ui/when';
import { can } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { readNotice } from '@/lib/platform/notice';
import { findTemplate } from '@/lib/templates/store';
import { describeTemplate } from '@/lib/templates/describe';
import { templateFormValues } from '@/lib/templates/form';
import { deleteTemplateAction, updateTemplateAction } from '../actions';

export const metadata: Metadata = { title: 'Template' };

type Props = {
  params: Promise<{ templateId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/**
 * One template: what it sets, in words and in the member's unit; the way to plan it on
 * thermostats; and, for owners and admins, the form to change it and a confirmed delete.
 */
export default async function TemplatePage({ params, searchParams }: Props) {
  const member = await requireMember();
  const { templateId } = await params;
  const notice = readNotice(await searchParams, member);
  const stored = await findTemplate({ orgId: member.orgId, templateId });
  if (!stored) notFound();
  const { template } = stored;
  const unit = member.temperatureUnit;
  const manages = can(member, 'manage_templates');
  const sections = describeTemplate(template, unit);
  const week = template.schedule ? (
    <TemplateWeek week={template.schedule} settings={template.comfortSettings} unit={unit} />
  ) : null;

  return (
    <div className="grid gap-6">
      <PageHeader
        title={stored.name}
        actions={
          <Link href={`/templates/${stored.id}/plan`} className={buttonClass()}>
            Plan on thermostats
          </Link>
        }
      >
        Last changed by {stored.updatedByName},{' '}
        <When at={stored.updatedAt} zone={member.timeZone} />.{' '}
        <Link href="/templates" className="underline">
          All templates
        </Link>
      </PageHeader>

      <RedirectNotice notice={notice} />

      <Card className="grid gap-4">
        <h2 className="text-lg font-medium">What it sets</h2>
        <p className="text-sm text-muted">
          What a template leaves out stays as each thermostat has it. Planning reads each thermostat
          first and lists only what would change.
        </p>
        <dl className="grid gap-4 sm:grid-cols-2">
          {sections.map((section) => (
            <div key={section.title} className="grid content-start gap-1">
              <dt className="font-medium">{section.title}</dt>
              {section.lines.map((line) => (
                <dd key={line} className="text-sm text-slate-700 dark:text-slate-300">
                  {line}
                </dd>
              ))}
            </div>
          ))}
        </dl>
        {week && !manages ? (
          <section aria-labelledby="week-heading" className="grid gap-3">
            <h3 id="week-heading" className="font-medium">
              The week
            </h3>
            {week}
          </section>
        ) : null}
      </Card>

      {manages ? (
        <Card className="grid gap-4">
          <h2 className="text-lg font-medium">Change the template</h2>
          <TemplateForm
            action={updateTemplateAction.bind(null, stored.id)}
            initial={templateFormValues(template, unit).values}
            unit={unit}
            mode="edit"
            schedule={week}
          />
        </Card>
      ) : (
        <Notice tone="info">Only owners and admins can change or delete templates.</Notice>
      )}

      {manages ? (
        <Card className="grid gap-3">
          <h2 className="text-lg font-medium">Delete the template</h2>
          <ConfirmDisclosure
            label="Delete this template…"
            confirm={`Delete “${stored.name}”`}
            action={deleteTemplateAction.bind(null, stored.id)}
          >
            The template is removed from the library. Thermostats keep their settings, and runs
            already planned or applied keep their own copy of it.
          </ConfirmDisclosure>
        </Card>
      ) : null}
    </div>
  );
}
