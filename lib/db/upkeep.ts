import 'server-only';
import { sql } from 'drizzle-orm';
import { getDatabase, rowsOf } from './client';

/**
 * The tables written all day: readings and their history (every poll), the call budget (every
 * service call, pruned as it goes), pending mode changes and notifications, and the job queue's
 * own (pg-boss: a job row per poll, per delivery, per schedule tick).
 */
export const HOT_TABLES = [
  'readings',
  'reading_history',
  'service_calls',
  'service_budget',
  'service_demand',
  'pending_mode_changes',
  'notifications',
  'pgboss.job',
  'pgboss.queue',
] as const;

/**
 * What PostgreSQL's autovacuum does on its own and PGlite does not: reclaims the dead rows of
 * the hot tables and refreshes their planner statistics (`VACUUM (ANALYZE)`, table by table, so
 * the embedded database's one connection is never held for long). On PostgreSQL it does nothing.
 * Returns the tables it went through.
 */
export async function vacuumHotTables(): Promise<string[]> {
  const database = await getDatabase();
  if (database.kind !== 'pglite') return [];
  const done: string[] = [];
  for (const table of HOT_TABLES) {
    const found = rowsOf<{ found: boolean }>(
      await database.db.execute(sql`select to_regclass(${table}) is not null as found`),
    )[0];
    if (!found?.found) continue;
    // VACUUM cannot run in a transaction: each is a statement of its own. The names are ours.
    await database.db.execute(sql.raw(`VACUUM (ANALYZE) ${table}`));
    done.push(table);
  }
  return done;
}
