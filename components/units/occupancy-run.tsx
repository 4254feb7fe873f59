import { RunActionForm } from '@/components/runs/run-action-form';
import { Confirmed, ProgressCard, RunHeader, type RunPageParts } from '@/components/runs/run-parts';
import { Card } from '@/components/ui/card';
import { OutcomeLabel } from '@/components/ui/outcome-label';
import { When } from '@/components/ui/when';
import { can } from '@/lib/auth/permissions';
import type { OutcomeKind } from '@/lib/outcomes';
import { countPlanStates } from '@/lib/runs/store';
import { STATE_WORDS } from '@/lib/units/lifecycle';
import { unitPath } from '@/lib/units/paths';
import {
  occupancyChangesSchema,
  type StepStatus,
  stepsAsShown,
  type TurnoverPlan,
} from '@/lib/units/turnover/steps';

const STATUS_KIND: Record<StepStatus, { kind: OutcomeKind; label: string }> = {
  done: { kind: 'done', label: 'Done' },
  failed: { kind: 'failed', label: 'Failed' },
  stopped: { kind: 'not_sent', label: 'Stopped' },
  waiting: { kind: 'sending', label: 'Under way' },
  'to do': { kind: 'pending', label: 'To do' },
};

/**
 * An occupancy run's page (a turnover, a move-in's settings): the unit's thermostat put in its
 * state's settings a step at a time, each step with what it found; Cancel while it goes on, and
 * Undo once it has changed something.
 */
export async function OccupancyRun(parts: RunPageParts) {
  const { member, run, progress, actions, items, view } = parts;
  const changes = occupancyChangesSchema.safeParse(run.changes);
  const item = items.shown[0];
  const planStates = await countPlanStates({ scope: member, run });
  const undoable = progress.finished && planStates.changed > 0 && can(member, 'change_thermostat');
  const words = changes.success
    ? [
        changes.data.prepare
          ? `${changes.data.unitLabel} is prepared for its move-in with the ${STATE_WORDS[changes.data.state].toLowerCase()} policy’s template${changes.data.template ? `, “${changes.data.template.name}”` : ''}; resident mode is turned on at the move-in itself.`
          : `${changes.data.unitLabel} is ${STATE_WORDS[changes.data.state].toLowerCase()}: its policy asks for ${policyWords(changes.data)}.`,
      ]
    : [];
  const steps =
    changes.success && item
      ? stepsAsShown({
          plan: item.plan as TurnoverPlan | null,
          changes: changes.data,
          outcome: item.outcome,
          detail: item.detail,
          note: progress.note,
        })
      : [];
  return (
    <>
      <RunHeader
        member={member}
        run={run}
        back={
          changes.success
            ? { href: unitPath({ id: changes.data.unitId }), label: `← ${changes.data.unitLabel}` }
            : { href: '/buildings', label: '← Buildings' }
        }
        planned={false}
        words={words}
      />
      <ProgressCard
        run={run}
        progress={progress}
        view={view}
        member={member}
        cancel={actions.cancel}
        skipped={false}
      >
        {undoable ? (
          <Confirmed
            view={view}
            step="undo"
            ask={{ label: 'Undo this run…', variant: 'secondary' }}
            question={
              <>
                Plan an undo? Setpoint reads the thermostat and plans putting back the snapshot this
                run kept, and says what the service does not let it put back, before anything is
                sent. The unit’s occupancy stays as it is.
              </>
            }
          >
            <RunActionForm action={actions.undo} label="Plan the undo" pending="Planning…" />
          </Confirmed>
        ) : null}
      </ProgressCard>
      <Card className="grid gap-3">
        <h2 className="text-lg font-medium">
          Steps{item ? ` on thermostat ${item.unitLabel || item.thermostatId}` : ''}
        </h2>
        <ol className="grid gap-3">
          {steps.map((step, index) => {
            const status = STATUS_KIND[step.status];
            return (
              <li key={step.step} className="grid gap-1 text-sm">
                <p>
                  <span className="font-medium">
                    {index + 1}. {step.words}
                  </span>
                  {' — '}
                  <OutcomeLabel kind={status.kind} label={status.label} />
                  {step.at ? (
                    <span className="text-muted">
                      {' '}
                      (<When at={new Date(step.at)} zone={member.timeZone} />)
                    </span>
                  ) : null}
                </p>
                {step.detail ? <p className="text-muted">{step.detail}</p> : null}
              </li>
            );
          })}
        </ol>
      </Card>
    </>
  );
}

function policyWords(changes: {
  template: { name: string } | null;
  residentMode: boolean | null;
}): string {
  const template = changes.template ? `the “${changes.template.name}” template` : 'no template';
  const resident =
    changes.residentMode === null
      ? 'resident mode as it is'
      : `resident mode ${changes.residentMode ? 'on' : 'off'}`;
  return `${template} with ${resident}`;
}
