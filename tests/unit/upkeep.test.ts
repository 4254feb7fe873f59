import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, rowsOf } from '@/lib/db/client';
import { HOT_TABLES } from '@/lib/db/upkeep';
import { getBoss, stopBoss } from '@/lib/queue/queue';
import { startUpkeep, VACUUM_CRON } from '@/lib/jobs/upkeep';
import { databaseTargets, useDatabase } from '../support/database';

const until = async (check: () => Promise<boolean> | boolean, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

// PGlite has no autovacuum: its hot tables are vacuumed and analysed by a scheduled job. On
// PostgreSQL, autovacuum does that, and no such job is scheduled.
describe.each(databaseTargets)('database upkeep on $name', ({ name, target }) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await useDatabase(await target());
  });
  afterAll(async () => {
    await stopBoss();
    await handle.close();
  });

  const lastRuns = async (table: string) =>
    rowsOf<{ vacuumed: boolean; analysed: boolean }>(
      await handle.db.execute(sql`
        select coalesce(bool_and(s.last_vacuum is not null), false) as vacuumed,
          coalesce(bool_and(s.last_analyze is not null), false) as analysed
        from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        -- A partitioned table (the job queue's) is vacuumed through its partitions.
        where c.relkind <> 'p' and (s.relid = to_regclass(${table})
          or s.relid in (select relid from pg_partition_tree(to_regclass(${table}))))`),
    )[0];

  it(name === 'PGlite'
    ? 'schedules the vacuum hourly, and its job vacuums and analyses the hot tables'
    : 'leaves vacuuming to autovacuum: no job is scheduled', async () => {
    const boss = await getBoss();
    // Rows written and deleted, as the call budget does all day.
    await handle.db.execute(sql`
        insert into service_calls (kind, priority) select 'api', 0 from generate_series(1, 500)`);
    await handle.db.execute(sql`delete from service_calls where id % 2 = 0`);

    // Sent first, so the worker takes it at once rather than at its next poll (a minute).
    const id = name === 'PGlite' ? await boss.send('vacuum-database', {}) : null;
    const scheduled = await startUpkeep(boss);
    const schedules = await boss.getSchedules('vacuum-database');
    if (name !== 'PGlite') {
      expect(scheduled).toBe(false);
      expect(schedules).toEqual([]);
      return;
    }
    expect(scheduled).toBe(true);
    expect(schedules.map((schedule) => schedule.cron)).toEqual([VACUUM_CRON]);

    await until(
      async () => (await boss.getJobById('vacuum-database', id ?? ''))?.state === 'completed',
      60_000,
    );
    for (const table of HOT_TABLES) {
      expect([table, await lastRuns(table)]).toEqual([table, { vacuumed: true, analysed: true }]);
    }
    // The planner now knows the table's size.
    const [stats] = rowsOf<{ tuples: number }>(
      await handle.db.execute(
        sql`select reltuples::int as tuples from pg_class where oid = to_regclass('service_calls')`,
      ),
    );
    expect(stats?.tuples).toBe(250);
    await boss.offWork('vacuum-database');
  }, 90_000);
});
