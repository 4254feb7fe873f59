// `npm run worker`: the background jobs (the poller, bulk runs, pruning) in a process of their
// own, for a deployment of several app instances on PostgreSQL (set JOBS_RUNNER=worker on the app
// instances, so that they only queue jobs). Several workers may run: each job goes to one.
import { logConnectionEnds } from '../lib/activity/sink';
import { getDatabase } from '../lib/db/client';
import { getEnv } from '../lib/platform/env';
import { startJobRunner } from '../lib/jobs/runner';
import { stopBoss } from '../lib/queue/queue';

const env = getEnv();
if (!env.DATABASE_URL) {
  console.error(
    'npm run worker needs DATABASE_URL (PostgreSQL). With the embedded PGlite database, jobs run inside the app.',
  );
  process.exit(2);
}
const database = await getDatabase();
logConnectionEnds();
await startJobRunner();
console.log('Setpoint worker: running jobs. Ctrl-C stops it after the jobs in hand.');

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await stopBoss();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
