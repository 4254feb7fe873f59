import { RunActionForm } from '@/components/runs/run-action-form';
import {
  Confirmed,
  ProgressCard,
  RunHeader,
  RunItems,
  type RunPageParts,
} from '@/components/runs/run-parts';
import { ApplyForm } from '@/components/templates/apply-form';
import { PlanItems, PlanSummaryView } from '@/components/templates/plan-view';
import { Card } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';
import { outcomeClass } from '@/components/ui/outcome-label';
import { ProgressBar } from '@/components/ui/progress-bar';
import { can } from '@/lib/auth/permissions';
import { mayCancel } from '@/lib/runs/requests';
import { countPlanStates } from '@/lib/runs/store';
import { isOneOff, thermostatCount } from '@/lib/runs/words';
import type { PlanSummaryWithSections } from '@/lib/templates/summary';
import { planSummaryAsSeen } from '@/lib/templates/runs';
import { plannedRunInWords } from '@/lib/templates/run-words';

/**
 * A planned run's page (a template, a one-off change, an undo): while it is read and planned,
 * its progress; once planned, the plan to apply or discard (each confirmed first), nothing sent
 * yet; once applied, what every run shows, and Undo of what it changed.
 */
export async function PlannedRun(parts: RunPageParts) {
  const { member, run, progress, actions } = parts;
  const planning = run.state === 'planning' || run.state === 'planned';
  const [planStates, summary] = await Promise.all([
    countPlanStates({ scope: member, run }),
    planSummaryAsSeen({ scope: member, run }),
  ]);
  // A one-off change is a template run with no template: it was started from /bulk.
  const fromTemplates = run.kind === 'template' && !isOneOff(run);
  // Any thermostat with at least one change made: an undo can put it back.
  const undoable = progress.finished && planStates.changed > 0 && can(member, 'change_thermostat');
  return (
    <>
      <RunHeader
        member={member}
        run={run}
        back={
          fromTemplates
            ? { href: '/templates', label: '← Templates' }
            : { href: '/bulk', label: '← Bulk changes' }
        }
        planned={planning}
        words={plannedRunInWords(run, member.temperatureUnit)}
      />
      {planning ? (
        <PlanCard {...parts} planStates={planStates} summary={summary} />
      ) : (
        <ProgressCard
          run={run}
          progress={progress}
          view={parts.view}
          member={member}
          cancel={actions.cancel}
          skipped
        >
          {undoable ? (
            <Confirmed
              view={parts.view}
              step="undo"
              ask={{ label: 'Undo this run…', variant: 'secondary' }}
              question={
                <>
                  Plan an undo? Setpoint reads each thermostat this run changed and plans putting
                  back what it replaced; you see that plan, and any thermostat that changed since,
                  before anything is sent.
                </>
              }
            >
              <RunActionForm action={actions.undo} label="Plan the undo" pending="Planning…" />
            </Confirmed>
          ) : null}
        </ProgressCard>
      )}
      <RunItems
        view={parts.view}
        items={parts.items}
        plan={
          planning ? <PlanItems items={parts.items.shown} unit={member.temperatureUnit} /> : null
        }
      />
    </>
  );
}

/** While the run is read and planned, how far it has come; then the plan, to apply or discard. */
function PlanCard({
  member,
  run,
  progress,
  view,
  actions,
  planStates,
  summary,
}: RunPageParts & {
  planStates: Awaited<ReturnType<typeof countPlanStates>>;
  summary: PlanSummaryWithSections | null;
}) {
  const { counts } = progress;
  const changing = summary?.changing ?? 0;
  const apply =
    changing > 0 ? (
      <Confirmed
        view={view}
        step="apply"
        ask={{ label: `Apply to ${thermostatCount(changing)}…`, variant: 'primary' }}
        question={
          <>
            Apply this plan to the {thermostatCount(changing)} that change? It runs as a job: every
            member can follow it here, and it can be cancelled and undone.
          </>
        }
      >
        <ApplyForm
          action={actions.apply}
          askPasscode={(summary?.callsByKind.accessControl ?? 0) > 0}
        />
      </Confirmed>
    ) : (
      <p className="text-sm">Nothing to change: every thermostat already matches.</p>
    );
  const discard = (
    <Confirmed
      view={view}
      step="discard"
      ask={{ label: 'Discard the plan…', variant: 'secondary' }}
      backLabel="Keep it"
      question={
        <>
          Discard this plan? Nothing has been sent; to make the change later, plan it again
          (Setpoint reads every thermostat again).
        </>
      }
    >
      <RunActionForm
        action={actions.cancel}
        label="Discard the plan"
        pending="Discarding…"
        variant="danger"
      />
    </Confirmed>
  );
  return (
    <Card className="grid gap-4">
      <h2 className={`text-lg font-semibold ${outcomeClass(progress.outcome)}`}>
        {run.state === 'planning'
          ? `Reading and planning: ${counts.total - planStates.pending} of ${counts.total}`
          : 'The plan: nothing has been sent yet'}
      </h2>
      {run.state === 'planning' ? (
        <>
          <ProgressBar
            id="plan-progress"
            label="Planning"
            value={counts.total - planStates.pending}
            max={counts.total}
          />
          <p className="text-sm text-muted">
            Setpoint reads each thermostat through the service’s call budget, then shows the plan
            here. It goes on whether or not this page is open.{' '}
            <Link href={view.href({ page: view.page })} className="underline">
              Refresh
            </Link>
          </p>
          {mayCancel(member, run) && !progress.cancelRequested ? (
            <div>
              <RunActionForm
                action={actions.cancel}
                label="Stop planning"
                pending="Stopping…"
                variant="secondary"
              />
            </div>
          ) : null}
        </>
      ) : summary ? (
        <PlanSummaryView summary={summary} warnings={planStates.warnings} changes={run.changes} />
      ) : null}
      {progress.note ? <Notice tone="warning">{progress.note}</Notice> : null}
      {run.state === 'planned' && mayCancel(member, run) ? (
        view.confirm === 'apply' && changing > 0 ? (
          apply
        ) : view.confirm === 'discard' ? (
          discard
        ) : (
          <div className="flex flex-wrap gap-3">
            {apply}
            {discard}
          </div>
        )
      ) : null}
    </Card>
  );
}
