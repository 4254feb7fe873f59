import { randomBytes } from 'node:crypto';
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
