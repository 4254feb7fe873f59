import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Database, DatabaseTarget } from '@/lib/db/client';
import * as schema from '@/lib/db/schema';

/**
 * For testing a migration on a database that the earlier migrations made and the earlier app
 * filled: the migrations folder as it was up to a point, and a database migrated as
 * lib/db/client.ts migrates.
 */
export const MIGRATIONS = path.join(process.cwd(), 'lib', 'db', 'migrations');

type JournalEntry = { idx: number; tag: string; when: number };
const journal = JSON.parse(
  readFileSync(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8'),
) as {
  entries: JournalEntry[];
};

/** How many migrations there are. */
export const migrationCount = (): number => journal.entries.length;

/** Where a migration is in the journal (its index: how many come before it). */
export function migrationIndex(tag: string): number {
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  if (at < 0) throw new Error(`${tag} is not in the migrations journal`);
  return at;
}

/** The migrations folder as it was with its first `length` migrations, journal and all. */
export function migrationsUpTo(folder: string, length: number) {
  const entries = journal.entries.slice(0, length);
  mkdirSync(path.join(folder, 'meta'), { recursive: true });
  for (const entry of entries) {
    cpSync(path.join(MIGRATIONS, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  }
  writeFileSync(
    path.join(folder, 'meta', '_journal.json'),
    JSON.stringify({ ...journal, entries }),
  );
}

export type Opened = {
  db: Database;
  kind: DatabaseTarget['kind'];
  migrate: (folder: string) => Promise<void>;
  close: () => Promise<void>;
};

/** A database with no migrations applied, migrated as lib/db/client.ts migrates. */
export async function openUnmigrated(target: DatabaseTarget): Promise<Opened> {
  if (target.kind === 'pglite') {
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    const client = new PGlite(target.dataDir);
    await client.waitReady;
    const db = drizzle({ client, schema });
    return {
      db: db as unknown as Database,
      kind: 'pglite',
      migrate: (migrationsFolder) => migrate(db, { migrationsFolder }),
      close: () => client.close(),
    };
  }
  const { Pool } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new Pool({ connectionString: target.url, max: 4 });
  const db = drizzle({ client: pool, schema });
  return {
    db: db as unknown as Database,
    kind: 'postgres',
    migrate: (migrationsFolder) => migrate(db, { migrationsFolder }),
    close: () => pool.end(),
  };
}
