import type { Metadata } from 'next';
import { ServiceProblem } from '@/components/connection/service-problem';
import { TemplateForm } from '@/components/templates/template-form';
import { TemplateWeek } from '@/components/templates/template-week';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { NotAllowed } from '@/components/ui/not-allowed';
import { Notice } from '@/components/ui/notice';
import { PageHeader } from '@/components/ui/page-header';
import { notYours } from '@/lib/access/not-yours';
import { can, refusal } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { listBuildings, listThermostats } from '@/lib/portfolio/store';
import { scopedThermostat } from '@/lib/portfolio/guard';
import { type TemplateDraft, templateFormValues } from '@/lib/templates/form';
import { type ReadProblem, readTemplateFromThermostat } from '@/lib/templates/from-thermostat';
import { createTemplateAction } from '../actions';

export const metadata: Metadata = { title: 'New template' };

const selectClass =
  'min-h-10 w-full min-w-0 rounded-lg border border-slate-300 bg-white px-2 text-base text-slate-900 sm:text-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100';

/**
 * A new template, blank or started from a thermostat (`?from=`): its comfort settings, schedule,
 * configuration and alert settings are read from the service for the member waiting, and fill
 * the form to adjust and save. No section starts ticked: the member ticks the ones the template
 * is for (a template meant to change the fan on-time must not rewrite the schedule too), and
 * those are filled in already. Access control cannot be read, so it starts empty.
 */
export default async function NewTemplatePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const member = await requireMember();
  if (!can(member, 'manage_templates')) {
    return <NotAllowed title="New template" message={refusal(member.role, 'manage_templates')} />;
  }
  const { from } = await searchParams;
  const [buildings, thermostats, source] = await Promise.all([
    listBuildings({ scope: member }),
    listThermostats({ scope: member }),
    typeof from === 'string' && from ? scopedThermostat(member, from) : Promise.resolve(null),
  ]);
  const asked = typeof from === 'string' && from !== '';
  const label = source ? source.unitLabel || source.thermostatId : '';
  const read = source
    ? await readTemplateFromThermostat({
        orgId: member.orgId,
        thermostatId: source.thermostatId,
        name: `Like ${label}`.slice(0, 64),
      })
    : null;
  const draft: TemplateDraft = read?.draft ?? { name: '' };
  const { values } = templateFormValues(draft, member.temperatureUnit, { tick: 'none' });
  const failures = (read?.problems ?? []).filter(
    (problem): problem is Extract<ReadProblem, { error: unknown }> => 'error' in problem,
  );
  const notes = (read?.problems ?? []).filter(
    (problem): problem is Extract<ReadProblem, { note: string }> => 'note' in problem,
  );

  return (
    <div className="grid gap-6">
      <PageHeader title="New template">
        The quickest way: start from a thermostat that is already set up the way you want, adjust
        what differs, and save.{' '}
        <Link href="/templates" className="underline">
          Back to templates
        </Link>
      </PageHeader>

      <Card className="grid gap-3">
        <h2 className="text-lg font-medium">Start from a thermostat</h2>
        <p className="text-sm text-muted">
          Reads its comfort settings, weekly schedule, configuration and alert settings from the
          service and fills them in below, with no section ticked: tick only those the template is
          for. Access control cannot be read, so set it below if the template needs it.
        </p>
        {thermostats.length === 0 ? (
          <p className="text-sm">No thermostats in your portfolio yet.</p>
        ) : (
          <form method="get" action="/templates/new" className="flex flex-wrap items-end gap-3">
            <div className="grid min-w-0 flex-1 gap-1.5 sm:max-w-md">
              <label htmlFor="field-from" className="text-sm font-medium">
                Thermostat
              </label>
              <select
                id="field-from"
                name="from"
                defaultValue={source?.thermostatId ?? ''}
                className={selectClass}
              >
                <option value="" disabled>
                  Choose a thermostat
                </option>
                {buildings.map((building) => (
                  <optgroup key={building.buildingId} label={building.name}>
                    {thermostats
                      .filter((t) => t.buildingId === building.buildingId)
                      .map((t) => (
                        <option key={t.thermostatId} value={t.thermostatId}>
                          {t.unitLabel || t.thermostatId}
                        </option>
                      ))}
                  </optgroup>
                ))}
              </select>
            </div>
            <Button type="submit" variant="secondary">
              Start from this thermostat
            </Button>
          </form>
        )}
        {asked && !source ? <Notice tone="error">{notYours('thermostat')}</Notice> : null}
        {source && failures.length === 0 ? (
          <Notice tone="success">
            Filled in from {label}. Tick the sections the template should set (the others stay as
            each thermostat has them), adjust them, name it and save.
          </Notice>
        ) : null}
        {failures[0] ? (
          <ServiceProblem
            error={failures[0].error}
            member={member}
            lead={`Could not read the ${failures.map((f) => f.section).join(', ')} of ${label}.`}
            trail={
              failures.length < 4
                ? 'The rest is filled in; you can try again or set those by hand.'
                : 'Try again, or fill in the template by hand.'
            }
          />
        ) : null}
        {notes.map((note) => (
          <Notice key={note.section} tone="warning">
            {note.note}
          </Notice>
        ))}
      </Card>

      <Card>
        <TemplateForm
          action={createTemplateAction}
          initial={values}
          unit={member.temperatureUnit}
          mode="new"
          schedule={
            draft.schedule ? (
              <TemplateWeek
                week={draft.schedule}
                settings={(draft.comfortSettings ?? []).map((s) => ({
                  ...s,
                  fanHeat: s.fanHeat === 'on' ? 'on' : 'auto',
                  fanCool: s.fanCool === 'on' ? 'on' : 'auto',
                }))}
                unit={member.temperatureUnit}
              />
            ) : null
          }
        />
      </Card>
    </div>
  );
}
