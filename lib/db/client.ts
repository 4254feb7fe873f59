import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { getEnv } from '../platform/env';
import * as schema from './schema';

/** One type for both drivers: PGlite and node-postgres expose the same Drizzle API. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  | { kind: 'pglite'; dataDir: string };

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseTarget['kind'];
  /** The embedded database itself, for the job queue's adapter (PGlite only). */
  pglite?: import('@electric-sql/pglite').PGlite;
  /** The server's URL, for the job queue's own connections (PostgreSQL only). */
  url?: string;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = path.join(process.cwd(), 'lib', 'db', 'migrations');
// Any constant shared by every instance: concurrent start-ups migrate one at a time.
const MIGRATION_LOCK_KEY = 727_001;

/**
 * Opens a database and applies the committed migrations. PGlite (embedded default) keeps its
 * files in `<dataDir>/pglite`; `memory://` opens a throwaway in-memory database for tests.
 */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (process.env.NEXT_PHASE === 'phase-production-build') {
    throw new Error('The database must not be opened while Next.js builds the app.');
  }
  return target.kind === 'postgres' ? openPostgres(target.url) : openPglite(target.dataDir);
}

async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let location = dataDir;
  if (!dataDir.startsWith('memory://')) {
    location = path.resolve(dataDir, 'pglite');
    // PGlite does not create parent folders.
    mkdirSync(location, { recursive: true });
  }
  const client = new PGlite(location);
  await client.waitReady;
  const db = drizzle({ client, schema });
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    pglite: client,
    close: () => client.close(),
  };
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const { Pool } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new Pool({ connectionString: url, max: 10 });
  const db = drizzle({ client: pool, schema });
  const lock = await pool.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    lock.release();
  }
  return { db: db as unknown as Database, kind: 'postgres', url, close: () => pool.end() };
}

/** Where the configuration points: PostgreSQL when DATABASE_URL is set, PGlite otherwise. */
export function configuredTarget(env: { DATABASE_URL?: string; DATA_DIR: string }): DatabaseTarget {
  return env.DATABASE_URL
    ? { kind: 'postgres', url: env.DATABASE_URL }
    : { kind: 'pglite', dataDir: env.DATA_DIR };
}

// Kept on globalThis so that hot reloads in development reuse the one open PGlite instance: two
// instances on one data folder would corrupt it.
const holder = globalThis as typeof globalThis & { __setpointDb?: Promise<DatabaseHandle> };

/** The process-wide database, opened and migrated on first use. A failed open is not cached. */
export function getDatabase(): Promise<DatabaseHandle> {
  if (!holder.__setpointDb) {
    const opening = openDatabase(configuredTarget(getEnv()));
    holder.__setpointDb = opening;
    opening.catch(() => {
      if (holder.__setpointDb === opening) holder.__setpointDb = undefined;
    });
  }
  return holder.__setpointDb;
}

export async function getDb(): Promise<Database> {
  return (await getDatabase()).db;
}

/** The rows of a raw `execute` result: node-postgres and PGlite both answer `{ rows }`. */
export function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}
