import { notFound, redirect } from 'next/navigation';
import { ConfigurationRun } from '@/components/bulk/configuration-run';
import { RunRefresher } from '@/components/bulk/run-refresher';
import { RUN_PAGE_SIZE, type RunView } from '@/components/runs/run-parts';
import { PlannedRun } from '@/components/templates/planned-run';
import { OccupancyRun } from '@/components/units/occupancy-run';
import { requireMember } from '@/lib/auth/session';
import { runPath, runSection } from '@/lib/runs/requests';
import { readRunProgress } from '@/lib/runs/progress';
import { findBulkRun, listBulkRunItems } from '@/lib/runs/store';
import { progressSignature, RESULT_FILTERS } from '@/lib/runs/words';
import { applyPlan, cancelRun, retryRun, undoRun } from './actions';

/** What a run's page is given (`runs/[runId]` and `template-runs/[runId]` alike). */
export type RunPageProps = {
  params: Promise<{ runId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const one = (value: string | string[] | undefined) => (typeof value === 'string' ? value : '');

/**
 * One run for every member who may see it, on any device: its progress (refreshed while it
 * goes on), a result per thermostat a page at a time, and its actions, each confirmed first (a
 * step of the page, so it works without JavaScript too). Each kind of run has its own part: a
 * configuration change (components/bulk/configuration-run.tsx: Retry) and a planned run
 * (components/templates/planned-run.tsx: the plan, Apply, Undo), on the parts every run shares
 * (components/runs/run-parts.tsx). Shown in its run's section (`runSection`): a run asked for in
 * the other one (an older link, an action's answer) is sent to its own address, query and all.
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

  const show = RESULT_FILTERS[one(query.show)] ? one(query.show) : 'all';
  const page = Math.max(1, Math.min(1000, Number.parseInt(one(query.page), 10) || 1));
  const view: RunView = {
    show,
    page,
    confirm: one(query.confirm),
    href: (extra) => {
      const target = { show, page: 1, confirm: '', ...extra };
      const search = new URLSearchParams();
      if (target.show !== 'all') search.set('show', target.show);
      if (target.page > 1) search.set('page', String(target.page));
      if (target.confirm) search.set('confirm', target.confirm);
      const text = search.toString();
      return text ? `${here}?${text}` : here;
    },
  };
  const items = await listBulkRunItems({
    scope: member,
    run,
    outcomes: RESULT_FILTERS[show]?.outcomes,
    offset: (page - 1) * RUN_PAGE_SIZE,
    limit: RUN_PAGE_SIZE + 1,
  });
  const parts = {
    member,
    run,
    progress,
    view,
    items: { shown: items.slice(0, RUN_PAGE_SIZE), more: items.length > RUN_PAGE_SIZE },
    actions: {
      cancel: cancelRun.bind(null, run.id),
      retry: retryRun.bind(null, run.id),
      apply: applyPlan.bind(null, run.id),
      undo: undoRun.bind(null, run.id),
    },
  };

  return (
    <div className="grid gap-6">
      {run.kind === 'configuration' ? (
        <ConfigurationRun {...parts} />
      ) : run.kind === 'occupancy' ? (
        <OccupancyRun {...parts} />
      ) : (
        <PlannedRun {...parts} />
      )}
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
