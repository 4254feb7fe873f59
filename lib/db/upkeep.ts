import 'server-only';
import { and, isNotNull, like, lt, or, sql } from 'drizzle-orm';
import { getDatabase, getDb, rowsOf } from './client';
import { RESET_REQUEST_PREFIX } from './password-resets';
import { passwordResets, signInAttempts } from './schema';

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

/** How long a spent or expired reset link is kept: clicked again, it says so, not "not valid". */
export const SPENT_RESET_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * Removes password reset links spent or expired more than a day ago, and the records of reset
 * requests older than a day (their throttle counts an hour). Run as links are asked for
 * (lib/auth/password-reset.ts), so the tables stay small on every database. Returns how many of
 * each went.
 */
export async function prunePasswordResets(
  input: { now?: Date } = {},
): Promise<{ links: number; requests: number }> {
  const db = await getDb();
  const before = new Date((input.now ?? new Date()).getTime() - SPENT_RESET_KEPT_MS);
  const links = await db
    .delete(passwordResets)
    .where(
      or(
        and(isNotNull(passwordResets.usedAt), lt(passwordResets.usedAt, before)),
        lt(passwordResets.expiresAt, before),
      ),
    )
    .returning({ id: passwordResets.id });
  const requests = await db
    .delete(signInAttempts)
    .where(
      and(
        like(signInAttempts.client, `${RESET_REQUEST_PREFIX}%`),
        lt(signInAttempts.createdAt, before),
      ),
    )
    .returning({ id: signInAttempts.id });
  return { links: links.length, requests: requests.length };
}
