import 'server-only';
import type { PgBoss } from 'pg-boss';
import { getDatabase } from '@/lib/db/client';
import { vacuumHotTables } from '@/lib/db/upkeep';

/** Hourly, off the hour and away from the readings' pruning (minute 17). */
export const VACUUM_CRON = '43 * * * *';

/**
 * The embedded database's upkeep: PGlite has no autovacuum, so a job vacuums and analyses its
 * hot tables every hour (lib/db/upkeep.ts). PostgreSQL has autovacuum: there it is not scheduled
 * (and a schedule left from before is removed). Called by the job runner, never at build time.
 */
export async function startUpkeep(boss: PgBoss): Promise<boolean> {
  const { kind } = await getDatabase();
  if (kind !== 'pglite') {
    await boss.unschedule('vacuum-database');
    return false;
  }
  await boss.work('vacuum-database', { pollingIntervalSeconds: 60 }, async () => {
    await vacuumHotTables();
  });
  await boss.schedule('vacuum-database', VACUUM_CRON, {}, { singletonKey: 'vacuum' });
  return true;
}
