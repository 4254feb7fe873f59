import { CLIENT_ADDRESS_MARK } from '@/lib/platform/client-address';
import { getDatabase } from '@/lib/db/client';
import { ConfigError, getEnv } from '@/lib/platform/env';

/**
 * Server start-up: a bad configuration stops the process with a message naming the variable,
 * the database is opened and migrated before the first request instead of during it, the activity
 * log starts listening for a connection's end (the service tier only tells of it), and the job
 * runner starts here unless a separate worker runs the jobs (JOBS_RUNNER=worker).
 */
export async function startUp(): Promise<void> {
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  try {
    const env = getEnv();
    if (
      env.NODE_ENV === 'production' &&
      !(globalThis as Record<symbol, unknown>)[CLIENT_ADDRESS_MARK]
    ) {
      console.warn(
        '[setpoint] Started without server.ts (`npm start`): client addresses cannot be known, so sign-in attempts are not limited per client.',
      );
    }
    if (env.SERVICE_ALLOW_REDIRECT_PORT) {
      console.warn(
        `[setpoint] The redirect URI port rule is relaxed (SERVICE_ALLOW_REDIRECT_PORT) for the local sandbox at ${env.SERVICE_BASE_URL}. The real service refuses ports.`,
      );
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`\n${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  await getDatabase();
  const { logConnectionEnds } = await import('@/lib/activity/sink');
  logConnectionEnds();
  if (getEnv().JOBS_RUNNER === 'app') {
    const { startJobRunner } = await import('./runner');
    await startJobRunner();
  }
}
