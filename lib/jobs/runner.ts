import { pruneApiRecords } from '@/lib/api/limits';
import { sendEventWebhooks } from '@/lib/notifications/events';
import 'server-only';
import { readDueReminders } from '@/lib/attention/maintenance';
import { syncPendingModeChanges } from '@/lib/attention/store';
import { workRun } from '@/lib/runs/engine';
import { resumeRuns } from '@/lib/runs/sweep';
import { pruneHistory } from '@/lib/readings/store';
import { logWarning } from '@/lib/platform/log';
import { workDeliveryJob } from '@/lib/notifications/delivery';
import { runNotificationRound, sendDueDigests } from '@/lib/notifications/incidents';
import { pollOnce } from '@/lib/readings/poller';
import { checkDrift } from '@/lib/templates/drift';
import { getBoss } from '@/lib/queue/queue';
import { settleArrivals } from '@/lib/units/arrivals';
import { runDueUnitSteps } from '@/lib/units/scheduled';
import { RUN_KINDS } from './run-kinds';
import { startUpkeep } from './upkeep';

/**
 * The job runner: the workers of every queue and the schedules. It runs in the app's process in
 * the embedded default (PGlite has one process), and in `npm run worker` for a deployment of
 * several instances (JOBS_RUNNER=worker on the app instances). pg-boss hands each job to one
 * worker of all those running, and keeps one schedule for them all.
 */
export async function startJobRunner(): Promise<void> {
  const boss = await getBoss();
  await boss.work('poll-round', { pollingIntervalSeconds: 5 }, async () => {
    const round = await pollOnce();
    if (round.failed > 0) logWarning(`poller: ${round.failed} of ${round.due} readings failed`);
  });
  await boss.work('prune-readings', { pollingIntervalSeconds: 30 }, async () => {
    await pruneHistory();
    await pruneApiRecords();
  });
  // Runs a restart interrupted go on now, not at the next minute (the schedule retries a
  // failure). Before this process works any run: on the embedded database this drops every
  // lease as a dead process's, and would drop the lease of a run this process had just taken.
  await resumeRuns({ atStartUp: true }).catch((error: unknown) =>
    logWarning('runs: not resumed at start-up', String(error)),
  );
  // Two runs at once per process; the call budget keeps them (and everything else) in bounds.
  await boss.work<{ runId: string }>(
    'bulk-run',
    { pollingIntervalSeconds: 1, localConcurrency: 2 },
    async ([job]) => {
      if (!job) return;
      await workRun({ runId: job.data.runId, signal: job.signal, kinds: RUN_KINDS });
    },
  );
  await boss.work('resume-bulk-runs', { pollingIntervalSeconds: 5 }, async () => {
    await resumeRuns();
  });
  await boss.work('unit-steps', { pollingIntervalSeconds: 5 }, async () => {
    await runDueUnitSteps();
    await settleArrivals();
  });
  await boss.work('read-maintenance', { pollingIntervalSeconds: 15 }, async () => {
    const round = await readDueReminders();
    if (round.failed > 0) {
      logWarning(`maintenance reminders: ${round.failed} of ${round.due} reads failed`);
    }
  });
  await boss.work('check-drift', { pollingIntervalSeconds: 15 }, async () => {
    await checkDrift();
  });
  await boss.work('track-pending-modes', { pollingIntervalSeconds: 15 }, async () => {
    await syncPendingModeChanges();
  });
  await boss.work('reconcile-incidents', { pollingIntervalSeconds: 15 }, async () => {
    await runNotificationRound();
    await sendEventWebhooks();
  });
  await boss.work('send-digests', { pollingIntervalSeconds: 30 }, async () => {
    await sendDueDigests();
  });
  await boss.work(
    'deliver-notification',
    { pollingIntervalSeconds: 2, localConcurrency: 2 },
    async ([job]) => {
      await workDeliveryJob(job?.data);
    },
  );
  // Every minute, and once now (readings of a fresh start need not wait a minute).
  await boss.schedule('poll-round', '* * * * *', {}, { singletonKey: 'poll' });
  await boss.schedule('prune-readings', '17 * * * *', {}, { singletonKey: 'prune' });
  await boss.schedule('read-maintenance', '* * * * *', {}, { singletonKey: 'maintenance' });
  await boss.schedule('check-drift', '* * * * *', {}, { singletonKey: 'drift' });
  await boss.schedule('track-pending-modes', '* * * * *', {}, { singletonKey: 'pending' });
  await boss.schedule('resume-bulk-runs', '* * * * *', {}, { singletonKey: 'resume' });
  await boss.schedule('unit-steps', '* * * * *', {}, { singletonKey: 'unit-steps' });
  await boss.schedule('reconcile-incidents', '* * * * *', {}, { singletonKey: 'incidents' });
  await boss.schedule('send-digests', '*/15 * * * *', {}, { singletonKey: 'digests' });
  // The embedded database's vacuum and statistics (PostgreSQL's autovacuum does this there).
  await startUpkeep(boss);
  await boss.send('poll-round', {}, { singletonKey: 'poll' });
  // A scheduled move-in's step that fell due while Setpoint was down runs now, and a thermostat
  // that came into a unit meanwhile is put in its settings.
  await boss.send('unit-steps', {}, { singletonKey: 'unit-steps' });
}
