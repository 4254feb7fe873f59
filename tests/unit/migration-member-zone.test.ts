import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../support/database';
import {
  MIGRATIONS,
  migrationIndex,
  migrationsUpTo,
  type Opened,
  openUnmigrated,
} from '../support/migrations';

/**
 * 0019: one clock for members who chose a zone before members had one of their own. The zone of
 * their notification email becomes theirs for every page; a member with none keeps the
 * buildings' guess, and a zone already chosen is kept.
 */
const ZONES = '0019_member_zone_from_subscriptions';
const ORG = '55555555-5555-4555-8555-555555555555';
const EMAILED = '66666666-6666-4666-8666-666666666661';
const SILENT = '66666666-6666-4666-8666-666666666662';
const CHOSEN = '66666666-6666-4666-8666-666666666663';

describe.each(databaseTargets)('the member-zone migration on $name', ({ target }) => {
  let folder: string;
  let opened: Opened;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'setpoint-migrations-'));
    migrationsUpTo(folder, migrationIndex(ZONES));
    opened = await openUnmigrated(await target());
    await opened.migrate(folder);
    const run = (query: ReturnType<typeof sql>) => opened.db.execute(query);
    await run(sql`insert into organizations (id, name) values (${ORG}, 'Reyes Property')`);
    for (const [id, zone] of [
      [EMAILED, null],
      [SILENT, null],
      [CHOSEN, 'Europe/Berlin'],
    ] as const) {
      await run(sql`insert into users (id, email, name, time_zone)
        values (${id}, ${`${id.slice(-1)}@example.com`}, 'Member', ${zone})`);
      await run(
        sql`insert into memberships (user_id, org_id, role) values (${id}, ${ORG}, 'admin')`,
      );
    }
    for (const id of [EMAILED, CHOSEN]) {
      await run(sql`insert into notification_subscriptions (user_id, org_id, mode, kinds, time_zone)
        values (${id}, ${ORG}, 'digest', '["offline"]'::jsonb, 'America/Denver')`);
    }
    await opened.migrate(MIGRATIONS);
  });
  afterAll(async () => {
    await opened?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('gives a member the zone of their email, and leaves the others as they were', async () => {
    const result = (await opened.db.execute(
      sql`select id, time_zone from users order by id`,
    )) as unknown as { rows: { id: string; time_zone: string | null }[] };
    expect(Object.fromEntries(result.rows.map((row) => [row.id, row.time_zone]))).toEqual({
      [EMAILED]: 'America/Denver',
      [SILENT]: null,
      [CHOSEN]: 'Europe/Berlin',
    });
  });
});
