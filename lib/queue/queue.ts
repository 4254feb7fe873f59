import 'server-only';
import { fromPglite, PgBoss } from 'pg-boss';
import { getDatabase } from '@/lib/db/client';
import { logWarning } from '@/lib/platform/log';

/**
 * Durable background jobs on the database (pg-boss): on PGlite through pg-boss's own adapter, in
 * the app's process; on PostgreSQL with pg-boss's own small pool, in any instance or a separate
 * worker (`npm run worker`). A job survives a restart and runs on exactly one instance (pg-boss
 * takes it with SKIP LOCKED); its state is kept in the database for every member to see.
 */

/** Every queue and how its jobs are kept. */
export const QUEUES = {
  /** One bulk change: applies to its thermostats a request at a time, resumable. */
  'bulk-run': { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 3600 },
  /** Gives every unfinished bulk run whose worker is gone (a restart, a crash) a new job. */
  'resume-bulk-runs': { policy: 'stately', retryLimit: 1, expireInSeconds: 300 },
  /**
   * The poller: spends the spare call budget keeping readings fresh. One round at a time in the
   * whole deployment (one running, one waiting): rounds that overlapped, on two workers when a
   * round outlasted its minute, read the same stalest thermostats twice.
   */
  'poll-round': { policy: 'stately', retryLimit: 0, expireInSeconds: 300 },
  /** Units: takes the scheduled move-ins' steps that are due (lib/units/scheduled.ts). */
  'unit-steps': { policy: 'stately', retryLimit: 1, expireInSeconds: 300 },
  /** Thins the readings history as it ages. */
  'prune-readings': { policy: 'stately', retryLimit: 1, expireInSeconds: 600 },
  /** Needs-attention: reads a few thermostats' maintenance reminders a minute (daily each). */
  'read-maintenance': { policy: 'stately', retryLimit: 0, expireInSeconds: 600 },
  /**
   * Needs-attention: reads a few thermostats a minute that a template was applied to, and keeps
   * what differs from it (each about every 6 hours).
   */
  'check-drift': { policy: 'stately', retryLimit: 0, expireInSeconds: 600 },
  /** Needs-attention: keeps the pending mode changes in step with the readings. */
  'track-pending-modes': { policy: 'stately', retryLimit: 0, expireInSeconds: 120 },
  /**
   * Notifications: opens and resolves incidents from what needs attention, releases notices held
   * by quiet hours, and requeues any notice no job carries.
   */
  'reconcile-incidents': { policy: 'stately', retryLimit: 0, expireInSeconds: 300 },
  /**
   * Notifications: sends one email (a member's notices of one round) or one webhook request.
   * A failed attempt is retried with backoff (30 s, 1 min, 2 min ... up to 30 min between): the
   * delivery gives up after its own count of attempts (lib/notifications/delivery.ts), within this.
   */
  'deliver-notification': {
    retryLimit: 8,
    retryDelay: 30,
    retryBackoff: true,
    retryDelayMax: 1800,
    expireInSeconds: 120,
  },
  /** Notifications: each member's daily digest, at their hour. */
  'send-digests': { policy: 'stately', retryLimit: 1, expireInSeconds: 300 },
  /** PGlite only (no autovacuum there): vacuums and analyses the hot tables, hourly. */
  'vacuum-database': { policy: 'stately', retryLimit: 0, expireInSeconds: 1800 },
} as const;

export type QueueName = keyof typeof QUEUES;

/**
 * Queues an earlier version made, deleted at start with their jobs and schedules. A queue's
 * policy cannot change once it is made, so a queue that needed another is made anew under
 * another name: 'poll-readings' took a round every minute whether the last had ended or not.
 */
const RETIRED_QUEUES = ['poll-readings'];

const holder = globalThis as typeof globalThis & { __setpointBoss?: Promise<PgBoss> };

/** The process's job queue, started (and its schema migrated) on first use. */
export function getBoss(): Promise<PgBoss> {
  if (!holder.__setpointBoss) {
    const starting = startBoss();
    holder.__setpointBoss = starting;
    starting.catch(() => {
      if (holder.__setpointBoss === starting) holder.__setpointBoss = undefined;
    });
  }
  return holder.__setpointBoss;
}

async function startBoss(): Promise<PgBoss> {
  const database = await getDatabase();
  const boss =
    database.kind === 'pglite' && database.pglite
      ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite' })
      : new PgBoss({ connectionString: database.url, max: 4, application_name: 'setpoint-jobs' });
  boss.on('error', (error) => logWarning('job queue', String(error)));
  await boss.start();
  for (const [name, options] of Object.entries(QUEUES)) {
    if (!(await boss.getQueue(name))) await boss.createQueue(name, options);
  }
  for (const name of RETIRED_QUEUES) await boss.deleteQueue(name);
  return boss;
}

/** Queues a job; returns its id. */
export async function sendJob(
  name: QueueName,
  data: object,
  options: { singletonKey?: string; startAfter?: Date | number } = {},
): Promise<string | null> {
  return (await getBoss()).send(name, data, options);
}

/** Stops the queue (workers finish their current job first), e.g. before the database closes. */
export async function stopBoss(): Promise<void> {
  const boss = holder.__setpointBoss;
  holder.__setpointBoss = undefined;
  if (boss) await (await boss).stop({ graceful: true, timeout: 10_000 });
}
