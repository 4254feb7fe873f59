import 'server-only';
import { z } from 'zod';
import type { Scope } from '@/lib/db/scope';
import {
  type BulkRun,
  countBulkRunItems,
  countPlanStates,
  findBulkRun,
  listBulkRunItems,
  type OutcomeCounts,
} from './store';
import type { OutcomeKind } from '@/lib/outcomes';
import { runStatus } from './words';

export const runIdSchema = z.uuid();

export type RunProgress = {
  runId: string;
  state: BulkRun['state'];
  label: string;
  /** The kind of outcome the label is shown as. */
  outcome: OutcomeKind;
  finished: boolean;
  cancelRequested: boolean;
  note: string | null;
  /** Of the thermostats the member sees (a building manager: their buildings' in others' runs). */
  counts: OutcomeCounts;
  /**
   * A template or an undo: how many thermostats have been read and planned. An occupancy run:
   * how many of its steps are done (so a page following it sees each step).
   */
  planned: number;
};

/** A run the member may see, with its counts as they see them; null for anything else. */
export async function findRunInView(
  member: Scope,
  runId: unknown,
): Promise<{ run: BulkRun; counts: OutcomeCounts } | null> {
  const id = runIdSchema.safeParse(runId);
  if (!id.success) return null;
  const run = await findBulkRun({ scope: member, runId: id.data });
  if (!run) return null;
  return { run, counts: await countBulkRunItems({ scope: member, run }) };
}

export async function readRunProgress(member: Scope, runId: unknown): Promise<RunProgress | null> {
  const found = await findRunInView(member, runId);
  if (!found) return null;
  const { run, counts } = found;
  const status = runStatus({
    ...run,
    applied: counts.applied,
    // Those that may have been applied count with the failed, as the run's own counts do.
    failed: counts.failed + counts.unconfirmed,
    notSent: counts.not_sent,
    cancelled: counts.cancelled,
    skipped: counts.unchanged + counts.blocked,
    blocked: counts.blocked,
    total: counts.total,
  });
  return {
    runId: run.id,
    state: run.state,
    label: status.label,
    outcome: status.outcome,
    finished: run.state === 'done' || run.state === 'cancelled',
    cancelRequested: run.cancelRequestedAt !== null,
    note: run.note,
    counts,
    planned:
      run.state === 'planning'
        ? counts.total - (await countPlanStates({ scope: member, run })).pending
        : run.kind === 'occupancy'
          ? await stepsDone(member, run)
          : 0,
  };
}

/** How many steps of an occupancy run's one thermostat are done. */
async function stepsDone(member: Scope, run: BulkRun): Promise<number> {
  const [item] = await listBulkRunItems({ scope: member, run, limit: 1 });
  const steps = (item?.plan as { steps?: { done?: unknown }[] } | null)?.steps ?? [];
  return steps.filter((step) => step.done).length;
}
