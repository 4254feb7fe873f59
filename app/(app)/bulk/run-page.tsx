import { notFound, redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { RunActionForm } from '@/components/bulk/run-action-form';
import { RunRefresher } from '@/components/bulk/run-refresher';
import { RunResults } from '@/components/bulk/run-results';
import { ApplyForm } from '@/components/templates/apply-form';
import { PlanItems, PlanSummaryView } from '@/components/templates/plan-view';
import { buttonClass } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';
import { outcomeClass } from '@/components/ui/outcome-label';
import { ProgressBar } from '@/components/ui/progress-bar';
import { When } from '@/components/ui/when';
import { can } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { readRunProgress } from '@/lib/runs/progress';
import { listRetryable, mayCancel, runPath, runSection } from '@/lib/bulk/runs';
import {
  changesInWords,
  countsInWords,
  progressSignature,
  RESULT_FILTERS,
  thermostatCount,
} from '@/lib/runs/words';
import { countPlanStates, findBulkRun, listBulkRunItems, listBulkRuns } from '@/lib/runs/store';
import { describeTemplate } from '@/lib/templates/describe';
import { planSummaryAsSeen } from '@/lib/templates/run-store';
import { isOneOff, runTitleAsSeen } from '@/lib/runs/words';
import { noteWords, runChangesSchema } from '@/lib/templates/run-words';
import { templateSchema } from '@/lib/templates/schema';
import type { SettingsChanges } from '@/lib/service/resources';
import { applyPlan, cancelRun, retryRun, undoRun } from './actions';

/** What a run's page is given (`runs/[runId]` and `template-runs/[runId]` alike). */
export type RunPageProps = {
  params: Promise<{ runId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const PAGE_SIZE = 100;

const one = (value: string | string[] | undefined) => (typeof value === 'string' ? value : '');

/**
 * One bulk run for every member who may see it, on any device: its progress (refreshed while it
 * goes on), a result per thermostat a page at a time, Cancel while it runs and Retry of the
 * failed ones once it has finished, each confirmed first (a step of the page, so it works
 * without JavaScript too). Shown in its run's section (`runSection`): a run asked for in the
 * other one (an older link, an action's answer) is sent to its own address, query and all.
 */
export async function RunPage({
  params,
  searchParams,
  section,
}: RunPageProps & { section: 'bulk' | 'templates' }) {
  const member = await requireMember();
  const { runId } = await params;
  const query = await searchParams;
  const progress = await readRunProgress(member, runId);
  if (!progress) notFound();
  const run = await findBulkRun({ scope: member, runId: progress.runId });
  if (!run) notFound();
  const here = runPath(run);
  if (runSection(run) !== section) redirect(withQuery(here, query));
  const planned = run.kind !== 'configuration';
  // A one-off change is a template run with no template: it was started from /bulk.
  const fromTemplates = run.kind === 'template' && !isOneOff(run);
  const planning = run.state === 'planning' || run.state === 'planned';

  const show = RESULT_FILTERS[one(query.show)] ? one(query.show) : 'all';
  const page = Math.max(1, Math.min(1000, Number.parseInt(one(query.page), 10) || 1));
  const { counts } = progress;
  const [items, retries, retryable, planStates, summary] = await Promise.all([
    listBulkRunItems({
      scope: member,
      run,
      outcomes: RESULT_FILTERS[show]?.outcomes,
      offset: (page - 1) * PAGE_SIZE,
      limit: PAGE_SIZE + 1,
    }),
    listBulkRuns({ scope: member, retryOf: run.id }),
    progress.finished && can(member, 'change_thermostat') && !planned
      ? listRetryable(member, run)
      : [],
    planned ? countPlanStates({ scope: member, run }) : null,
    planSummaryAsSeen({ scope: member, run }),
  ]);
  const more = items.length > PAGE_SIZE;
  const shown = items.slice(0, PAGE_SIZE);
  const words = describeRun(run, member.temperatureUnit);
  const done = counts.total - counts.pending;
  // A building manager sees only their buildings' share of someone else's run (lib/db).
  const partial = run.partView;
  const confirm = one(query.confirm);
  const cancellable =
    !progress.finished && !progress.cancelRequested && mayCancel(member, run) && !planning;
  const appliable = run.state === 'planned' && mayCancel(member, run);
  // Any thermostat with at least one change made: an undo can put it back.
  const undoable =
    planned &&
    progress.finished &&
    (planStates?.changed ?? 0) > 0 &&
    can(member, 'change_thermostat');
  const href = (extra: { show?: string; page?: number; confirm?: string }) => {
    const target = { show, page: 1, confirm: '', ...extra };
    const search = new URLSearchParams();
    if (target.show !== 'all') search.set('show', target.show);
    if (target.page > 1) search.set('page', String(target.page));
    if (target.confirm) search.set('confirm', target.confirm);
    const text = search.toString();
    return text ? `${here}?${text}` : here;
  };

  return (
    <div className="grid gap-6">
      <div>
        <Link href={fromTemplates ? '/templates' : '/bulk'} className="text-sm hover:underline">
          {fromTemplates ? '← Templates' : '← Bulk changes'}
        </Link>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">{runTitleAsSeen(run)}</h1>
        <p className="mt-1 text-sm text-muted">
          {planning ? 'Planned' : 'Started'} by {run.startedByName},{' '}
          <When at={run.createdAt} zone={member.timeZone} />
          {run.finishedAt ? (
            <>
              ; finished <When at={run.finishedAt} zone={member.timeZone} />
            </>
          ) : null}
          .
          {run.retryOf ? (
            <>
              {' '}
              A retry of the failed ones of{' '}
              <Link href={`/bulk/runs/${run.retryOf}`} className="underline">
                an earlier run
              </Link>
              .
            </>
          ) : null}
        </p>
        <ul className="mt-2 list-disc pl-5 text-sm">
          {words.map((change) => (
            <li key={change}>{change}</li>
          ))}
        </ul>
      </div>

      {planning && planStates ? (
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
                Setpoint reads each thermostat through the service’s call budget, then shows the
                plan here. It goes on whether or not this page is open.{' '}
                <Link href={href({ page })} className="underline">
                  Refresh
                </Link>
              </p>
              {mayCancel(member, run) && !progress.cancelRequested ? (
                <div>
                  <RunActionForm
                    action={cancelRun.bind(null, run.id)}
                    label="Stop planning"
                    pending="Stopping…"
                    variant="secondary"
                  />
                </div>
              ) : null}
            </>
          ) : summary ? (
            <PlanSummaryView
              summary={summary}
              warnings={planStates.warnings}
              changes={run.changes}
            />
          ) : null}
          {progress.note ? <Notice tone="warning">{progress.note}</Notice> : null}
          {appliable ? (
            confirm === 'discard' ? (
              <ConfirmStep
                back={href({ page })}
                backLabel="Keep it"
                question={
                  <>
                    Discard this plan? Nothing has been sent; to make the change later, plan it
                    again (Setpoint reads every thermostat again).
                  </>
                }
              >
                <RunActionForm
                  action={cancelRun.bind(null, run.id)}
                  label="Discard the plan"
                  pending="Discarding…"
                  variant="danger"
                />
              </ConfirmStep>
            ) : confirm === 'apply' ? (
              <ConfirmStep
                back={href({ page })}
                question={
                  <>
                    Apply this plan to the {thermostatCount(summary?.changing ?? 0)} that change? It
                    runs as a job: every member can follow it here, and it can be cancelled and
                    undone.
                  </>
                }
              >
                <ApplyForm
                  action={applyPlan.bind(null, run.id)}
                  askPasscode={(summary?.callsByKind.accessControl ?? 0) > 0}
                />
              </ConfirmStep>
            ) : (
              <div className="flex flex-wrap gap-3">
                {(summary?.changing ?? 0) > 0 ? (
                  <Link href={href({ page, confirm: 'apply' })} className={buttonClass('primary')}>
                    Apply to {thermostatCount(summary?.changing ?? 0)}…
                  </Link>
                ) : (
                  <p className="text-sm">Nothing to change: every thermostat already matches.</p>
                )}
                <Link
                  href={href({ page, confirm: 'discard' })}
                  className={buttonClass('secondary')}
                >
                  Discard the plan…
                </Link>
              </div>
            )
          ) : null}
        </Card>
      ) : null}

      {planning ? null : (
        <Card className="grid gap-3">
          <h2 className={`text-lg font-semibold ${outcomeClass(progress.outcome)}`}>
            {progress.label}
          </h2>
          <div className="grid gap-2">
            <ProgressBar id="bulk-progress" label="Progress" value={done} max={counts.total} />
            <p role="status" aria-live="polite" className="text-sm">
              {progress.finished
                ? countsInWords({
                    ...counts,
                    failed: counts.failed + counts.unconfirmed,
                    unconfirmed: counts.unconfirmed,
                    notSent: counts.not_sent,
                    ...(planned ? { unchanged: counts.unchanged, blocked: counts.blocked } : {}),
                  })
                : `${done} of ${counts.total} thermostats have a result…`}
            </p>
            {partial ? (
              <p className="text-sm text-muted">
                Counting the {thermostatCount(counts.total)} of this run in your buildings.
              </p>
            ) : null}
          </div>
          {progress.note ? <Notice tone="warning">{progress.note}</Notice> : null}
          {!progress.finished ? (
            <p className="text-sm text-muted">
              The run goes on whether or not this page is open.{' '}
              <Link href={href({ page })} className="underline">
                Refresh
              </Link>
            </p>
          ) : null}

          {cancellable ? (
            confirm === 'cancel' ? (
              <ConfirmStep
                tone="warn"
                back={href({ page })}
                backLabel="Keep it running"
                question={
                  <>
                    Cancel this run? The requests already in flight finish and are recorded; the{' '}
                    {thermostatCount(counts.pending)} still to do are not sent.
                  </>
                }
              >
                <RunActionForm
                  action={cancelRun.bind(null, run.id)}
                  label="Yes, cancel the run"
                  pending="Cancelling…"
                  variant="danger"
                />
              </ConfirmStep>
            ) : (
              <div>
                <Link href={href({ page, confirm: 'cancel' })} className={buttonClass('secondary')}>
                  Cancel run…
                </Link>
              </div>
            )
          ) : null}

          {retryable.length > 0 ? (
            confirm === 'retry' ? (
              <ConfirmStep
                back={href({ page })}
                question={
                  <>
                    Apply to {thermostatCount(retryable.length)} again? The same change (
                    {words.join('; ')}) goes to the ones that failed or were not sent, as a new run.
                  </>
                }
              >
                <RunActionForm
                  action={retryRun.bind(null, run.id)}
                  label={`Retry ${thermostatCount(retryable.length)}`}
                  pending="Starting…"
                />
              </ConfirmStep>
            ) : (
              <div>
                <Link href={href({ page, confirm: 'retry' })} className={buttonClass('primary')}>
                  Retry the {retryable.length} that did not apply…
                </Link>
              </div>
            )
          ) : null}

          {undoable ? (
            confirm === 'undo' ? (
              <ConfirmStep
                back={href({ page })}
                question={
                  <>
                    Plan an undo? Setpoint reads each thermostat this run changed and plans putting
                    back what it replaced; you see that plan, and any thermostat that changed since,
                    before anything is sent.
                  </>
                }
              >
                <RunActionForm
                  action={undoRun.bind(null, run.id)}
                  label="Plan the undo"
                  pending="Planning…"
                />
              </ConfirmStep>
            ) : (
              <div>
                <Link href={href({ page, confirm: 'undo' })} className={buttonClass('secondary')}>
                  Undo this run…
                </Link>
              </div>
            )
          ) : null}

          {retries.length > 0 ? (
            <p className="text-sm">
              Retried in{' '}
              {retries.map((retry, index) => (
                <span key={retry.id}>
                  {index > 0 ? ', ' : ''}
                  <Link href={`/bulk/runs/${retry.id}`} className="underline">
                    a run of {thermostatCount(retry.total)}
                  </Link>
                </span>
              ))}
              .
            </p>
          ) : null}
        </Card>
      )}

      <section aria-labelledby="results-heading" className="grid gap-3">
        <h2 id="results-heading" className="text-lg font-medium">
          {planning ? 'Plan for each thermostat' : 'Result for each thermostat'}
        </h2>
        <nav aria-label="Show" hidden={planning} className="flex flex-wrap gap-3 text-sm">
          {Object.entries(RESULT_FILTERS).map(([key, option]) =>
            key === show ? (
              <span key={key} aria-current="page" className="font-semibold">
                {option.label}
              </span>
            ) : (
              <Link key={key} href={href({ show: key, page: 1 })} className="underline">
                {option.label}
              </Link>
            ),
          )}
        </nav>
        {shown.length === 0 ? (
          <p className="text-sm text-muted">None.</p>
        ) : planning ? (
          <PlanItems items={shown} unit={member.temperatureUnit} />
        ) : (
          <RunResults items={shown} caption="Result for each thermostat" />
        )}
        {page > 1 || more ? (
          <nav aria-label="Pages" className="flex gap-3 text-sm">
            {page > 1 ? (
              <Link href={href({ page: page - 1 })} className="underline">
                Previous {PAGE_SIZE}
              </Link>
            ) : null}
            <span>Page {page}</span>
            {more ? (
              <Link href={href({ page: page + 1 })} className="underline">
                Next {PAGE_SIZE}
              </Link>
            ) : null}
          </nav>
        ) : null}
      </section>

      {progress.finished || run.state === 'planned' ? null : (
        <RunRefresher runId={run.id} signature={progressSignature(progress)} />
      )}
    </div>
  );
}

/** The same address's query on another path (one value each, as this page reads them). */
function withQuery(path: string, query: Record<string, string | string[] | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (typeof value === 'string') search.set(key, value);
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** What the run does, in the member's unit. */
function describeRun(
  run: { kind: string; changes: Record<string, unknown>; undoOf: string | null },
  unit: 'F' | 'C',
): string[] {
  if (run.kind === 'configuration') return changesInWords(run.changes as SettingsChanges, unit);
  if (run.kind === 'undo') {
    const notes = runChangesSchema.safeParse(run.changes).data?.notes ?? [];
    return [
      'Puts back, on each thermostat, what the undone change replaced (as far as it can).',
      ...notes.map((note) => noteWords(note, unit)),
    ];
  }
  const changes = runChangesSchema.safeParse(run.changes);
  const template = templateSchema.safeParse(changes.data?.template);
  return template.success
    ? describeTemplate(template.data, unit).map(
        (section) => `${section.title}: ${section.lines.join('; ')}`,
      )
    : [];
}

/** A step of the page that asks before it acts: the question, what acts, and the way back. */
function ConfirmStep({
  question,
  back,
  backLabel = 'Not now',
  tone,
  children,
}: {
  question: ReactNode;
  back: string;
  backLabel?: string;
  /** Said with a warning's colour (cancelling work under way). */
  tone?: 'warn';
  children: ReactNode;
}) {
  return (
    <div
      className={`grid gap-3 rounded-lg border p-4 ${tone === 'warn' ? 'border-amber-300 dark:border-amber-800' : 'border-slate-300 dark:border-slate-700'}`}
    >
      <p className="text-sm font-medium">{question}</p>
      <div className="flex flex-wrap items-start gap-3">
        {children}
        <Link href={back} className={buttonClass('secondary')}>
          {backLabel}
        </Link>
      </div>
    </div>
  );
}
