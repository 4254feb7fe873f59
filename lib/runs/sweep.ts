import 'server-only';
import { getDatabase } from '@/lib/db/client';
import { logWarning } from '@/lib/platform/log';
import { getBoss, sendJob } from '@/lib/queue/queue';
import { clearBulkRunLeases, listUnfinishedRuns, setBulkRunJob } from './store';

/**
 * Every run has a worker coming: its job is queued when it starts (or when a pause ends), and
 * the sweep queues one again for a run whose job was lost. The queue (`bulk-run`, payload
 * `{ runId }`) is one for every kind of run.
 */

/** Queues the job that works a run; a run whose job could not be queued waits for the sweep. */
export async function queueRun(runId: string, startAfter?: Date): Promise<void> {
  try {
    const jobId = await sendJob('bulk-run', { runId }, startAfter ? { startAfter } : {});
    if (jobId) await setBulkRunJob({ runId, jobId });
  } catch (error) {
    logWarning(`run ${runId}: its job could not be queued; the sweep will`, String(error));
  }
}

/**
 * Makes sure every unfinished run has a worker coming: a run no live lease holds, not waiting
 * for later, whose job is not queued any more (lost, failed, or taken by a worker that died) gets
 * a new job. At the start of a process on the embedded database every lease is a dead
 * process's (PGlite is opened by one process), so they are dropped first and the runs resume at
 * once; on PostgreSQL another instance may be alive, so its leases are waited out. Returns how
 * many runs were queued.
 */
export async function resumeRuns(options: { atStartUp?: boolean } = {}): Promise<number> {
  if (options.atStartUp && (await getDatabase()).kind === 'pglite') await clearBulkRunLeases();
  const boss = await getBoss();
  let queued = 0;
  let recheck: number | null = null;
  for (const run of await listUnfinishedRuns()) {
    if (run.leaseLive) {
      // Held now; should its holder be gone, look again once the lease has run out.
      const at = (run.leaseUntil?.getTime() ?? Date.now()) + 1000;
      recheck = recheck === null ? at : Math.min(recheck, at);
      continue;
    }
    if (run.waiting) continue; // a job is queued for when it may go on
    if (run.jobId) {
      const job = await boss.getJobById('bulk-run', run.jobId).catch(() => null);
      if (job && (job.state === 'created' || job.state === 'retry')) continue;
    }
    await queueRun(run.id);
    queued += 1;
  }
  if (recheck !== null) {
    await sendJob('resume-bulk-runs', {}, { startAfter: new Date(recheck) }).catch(
      (error: unknown) => logWarning('runs: recheck not queued', String(error)),
    );
  }
  return queued;
}
