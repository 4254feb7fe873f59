import type { ReactNode } from 'react';
import { RunActionForm } from '@/components/runs/run-action-form';
import { RunResults } from '@/components/runs/run-results';
import { buttonClass } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';
import { outcomeClass } from '@/components/ui/outcome-label';
import { ProgressBar } from '@/components/ui/progress-bar';
import { When } from '@/components/ui/when';
import type { Member } from '@/lib/auth/store';
import type { FormAction } from '@/lib/platform/forms';
import type { RunProgress } from '@/lib/runs/progress';
import { mayCancel } from '@/lib/runs/requests';
import type { BulkRunItemRow, RunInView } from '@/lib/runs/store';
import { countsInWords, RESULT_FILTERS, runTitleAsSeen, thermostatCount } from '@/lib/runs/words';

/**
 * The parts every run's page shares, whatever its kind: its heading, its progress with Cancel,
 * the result (or plan) of each thermostat a page at a time, and the confirmation step of any
 * action. Each kind's page (components/bulk/configuration-run.tsx,
 * components/templates/planned-run.tsx) adds what only it has.
 */

export const RUN_PAGE_SIZE = 100;

/** Where the page is: which results it shows, which page of them, which step it asks to confirm. */
export type RunView = {
  show: string;
  page: number;
  confirm: string;
  /** This page's address with some of that changed (a new filter starts at its first page). */
  href(extra: { show?: string; page?: number; confirm?: string }): string;
};

/** What the run page gives each kind's part: the run as the member sees it, and its actions. */
export type RunPageParts = {
  member: Member;
  run: RunInView;
  progress: RunProgress;
  view: RunView;
  /** The thermostats of this page of results, and whether more follow. */
  items: { shown: BulkRunItemRow[]; more: boolean };
  /** The run's own actions, bound to it by the page. */
  actions: { cancel: FormAction; retry: FormAction; apply: FormAction; undo: FormAction };
};

/** The run's title, who started it and when, and what it does, a line each. */
export function RunHeader({
  member,
  run,
  back,
  planned,
  words,
  children,
}: {
  member: Member;
  run: RunInView;
  back: { href: string; label: string };
  /** Planned and waiting (or being planned), not started yet. */
  planned: boolean;
  words: readonly string[];
  /** Said after who started it and when. */
  children?: ReactNode;
}) {
  return (
    <div>
      <Link href={back.href} className="text-sm hover:underline">
        {back.label}
      </Link>
      <h1 className="mt-1 text-2xl font-semibold tracking-tight">{runTitleAsSeen(run)}</h1>
      <p className="mt-1 text-sm text-muted">
        {planned ? 'Planned' : 'Started'} by {run.startedByName},{' '}
        <When at={run.createdAt} zone={member.timeZone} />
        {run.finishedAt ? (
          <>
            ; finished <When at={run.finishedAt} zone={member.timeZone} />
          </>
        ) : null}
        .{children}
      </p>
      <ul className="mt-2 list-disc pl-5 text-sm">
        {words.map((change) => (
          <li key={change}>{change}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * How far the run has come, with Cancel while it goes on (confirmed first), and what the kind
 * offers once it has finished (`children`: Retry, Undo).
 */
export function ProgressCard({
  member,
  run,
  progress,
  view,
  cancel,
  skipped,
  children,
}: Pick<RunPageParts, 'member' | 'run' | 'progress' | 'view'> & {
  cancel: FormAction;
  /** A planned run counts the thermostats that already matched, and those it could not change. */
  skipped: boolean;
  children?: ReactNode;
}) {
  const { counts } = progress;
  const done = counts.total - counts.pending;
  const cancellable = !progress.finished && !progress.cancelRequested && mayCancel(member, run);
  return (
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
                ...(skipped ? { unchanged: counts.unchanged, blocked: counts.blocked } : {}),
              })
            : `${done} of ${counts.total} thermostats have a result…`}
        </p>
        {run.partView ? (
          // A building manager sees only their buildings' share of someone else's run.
          <p className="text-sm text-muted">
            Counting the {thermostatCount(counts.total)} of this run in your buildings.
          </p>
        ) : null}
      </div>
      {progress.note ? <Notice tone="warning">{progress.note}</Notice> : null}
      {!progress.finished ? (
        <p className="text-sm text-muted">
          The run goes on whether or not this page is open.{' '}
          <Link href={view.href({ page: view.page })} className="underline">
            Refresh
          </Link>
        </p>
      ) : null}
      {cancellable ? (
        <Confirmed
          view={view}
          step="cancel"
          ask={{ label: 'Cancel run…', variant: 'secondary' }}
          tone="warn"
          backLabel="Keep it running"
          question={
            <>
              Cancel this run? The requests already in flight finish and are recorded; the{' '}
              {thermostatCount(counts.pending)} still to do are not sent.
            </>
          }
        >
          <RunActionForm
            action={cancel}
            label="Yes, cancel the run"
            pending="Cancelling…"
            variant="danger"
          />
        </Confirmed>
      ) : null}
      {children}
    </Card>
  );
}

/**
 * Each thermostat's result, a page at a time; while a run is planned, its plan instead (`plan`,
 * drawn by the kind of run that plans).
 */
export function RunItems({
  view,
  items,
  plan = null,
}: Pick<RunPageParts, 'view' | 'items'> & { plan?: ReactNode }) {
  const { page } = view;
  const planning = plan !== null;
  return (
    <section aria-labelledby="results-heading" className="grid gap-3">
      <h2 id="results-heading" className="text-lg font-medium">
        {planning ? 'Plan for each thermostat' : 'Result for each thermostat'}
      </h2>
      <nav aria-label="Show" hidden={planning} className="flex flex-wrap gap-3 text-sm">
        {Object.entries(RESULT_FILTERS).map(([key, option]) =>
          key === view.show ? (
            <span key={key} aria-current="page" className="font-semibold">
              {option.label}
            </span>
          ) : (
            <Link key={key} href={view.href({ show: key, page: 1 })} className="underline">
              {option.label}
            </Link>
          ),
        )}
      </nav>
      {items.shown.length === 0 ? (
        <p className="text-sm text-muted">None.</p>
      ) : planning ? (
        plan
      ) : (
        <RunResults items={items.shown} caption="Result for each thermostat" />
      )}
      {page > 1 || items.more ? (
        <nav aria-label="Pages" className="flex gap-3 text-sm">
          {page > 1 ? (
            <Link href={view.href({ page: page - 1 })} className="underline">
              Previous {RUN_PAGE_SIZE}
            </Link>
          ) : null}
          <span>Page {page}</span>
          {items.more ? (
            <Link href={view.href({ page: page + 1 })} className="underline">
              Next {RUN_PAGE_SIZE}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

/**
 * An action of the page behind its confirmation: a link to the step, or, on the step (`?confirm=`
 * names it), the question, what acts and the way back. A step of the page, so it works without
 * JavaScript too.
 */
export function Confirmed({
  view,
  step,
  ask,
  question,
  backLabel,
  tone,
  children,
}: {
  view: RunView;
  /** The step's name in the address. */
  step: string;
  /** The link to the step. */
  ask: { label: string; variant: 'primary' | 'secondary' };
  question: ReactNode;
  backLabel?: string;
  tone?: 'warn';
  children: ReactNode;
}) {
  if (view.confirm !== step) {
    return (
      <div>
        <Link
          href={view.href({ page: view.page, confirm: step })}
          className={buttonClass(ask.variant)}
        >
          {ask.label}
        </Link>
      </div>
    );
  }
  return (
    <ConfirmStep
      back={view.href({ page: view.page })}
      backLabel={backLabel}
      tone={tone}
      question={question}
    >
      {children}
    </ConfirmStep>
  );
}

/** A step of the page that asks before it acts: the question, what acts, and the way back. */
export function ConfirmStep({
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
