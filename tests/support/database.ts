import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type DatabaseHandle, type DatabaseTarget, openDatabase } from '@/lib/db/client';

/**
 * The databases the data-layer tests run against: always PGlite (in memory); PostgreSQL too when
 * TEST_DATABASE_URL names a server (CI starts one on loopback, see scripts/test-postgres.sh).
 */
export const databaseTargets: { name: string; target: () => Promise<DatabaseTarget> }[] = [
  { name: 'PGlite', target: async () => ({ kind: 'pglite', dataDir: 'memory://' }) },
];
const serverUrl = process.env.TEST_DATABASE_URL;
if (serverUrl) {
  databaseTargets.push({ name: 'PostgreSQL', target: () => createScratchDatabase(serverUrl) });
}

/** A fresh database on the test server, so test files running in parallel never share rows. */
async function createScratchDatabase(url: string): Promise<DatabaseTarget> {
  const name = `setpoint_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return { kind: 'postgres', url: scratch.toString() };
}

const holder = globalThis as typeof globalThis & { __setpointDb?: Promise<DatabaseHandle> };

/** Opens a migrated database and makes it the one the data layer (`getDb`) uses. */
export async function useDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  const handle = await openDatabase(target);
  holder.__setpointDb = Promise.resolve(handle);
  return handle;
}

/**
 * Gives every organisation in the database an active service connection (placeholder tokens,
 * valid for an hour, a refresh token for 30 days): enough for the queries that serve only
 * connected organisations (the poller's, the maintenance reader's), without the service.
 */
export async function connectEveryOrganization(handle: DatabaseHandle): Promise<void> {
  await handle.db.execute(sql`
    insert into service_connections (org_id, status, scope, token_type, token_format,
      access_token_sealed, access_token_expires_at, refresh_token_sealed,
      refresh_token_issued_at, refresh_token_expires_at, connected_at)
    select id, 'active', 's', 'Bearer', 'jwt', 'x', now() + interval '1 hour', 'y', now(),
      now() + interval '30 days', now()
    from organizations`);
}
