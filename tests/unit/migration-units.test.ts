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
 * 0020: units. Every thermostat already in a portfolio becomes a unit of its own in its building,
 * labelled as it was (its id where it had no label), occupied; a thermostat removed later leaves
 * its unit empty, with the unit kept.
 */
const UNITS = '0020_units';
const ORG = '77777777-7777-4777-8777-777777777777';
const BUILDING = 'aaaaaaaaaaaaaaaaaaaaaaaa';

describe.each(databaseTargets)('the units migration on $name', ({ target }) => {
  let folder: string;
  let opened: Opened;
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await opened.db.execute(query)) as unknown as { rows: T[] }).rows;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'setpoint-migrations-'));
    migrationsUpTo(folder, migrationIndex(UNITS));
    opened = await openUnmigrated(await target());
    await opened.migrate(folder);
    const run = (query: ReturnType<typeof sql>) => opened.db.execute(query);
    await run(sql`insert into organizations (id, name) values (${ORG}, 'Reyes Property')`);
    await run(sql`insert into buildings (org_id, building_id, name, time_zone)
      values (${ORG}, ${BUILDING}, 'Harbor View', 'America/New_York')`);
    await run(sql`insert into thermostats (org_id, thermostat_id, building_id, unit_label)
      values (${ORG}, '100000000001', ${BUILDING}, 'Unit 101'),
             (${ORG}, '100000000002', ${BUILDING}, '')`);
    await opened.migrate(MIGRATIONS);
  });
  afterAll(async () => {
    await opened?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('makes each thermostat a unit of its own, labelled as it was, occupied', async () => {
    const made = await rows<{ label: string; thermostat_id: string; building_id: string }>(
      sql`select label, thermostat_id, building_id from units order by thermostat_id`,
    );
    expect(made).toEqual([
      { label: 'Unit 101', thermostat_id: '100000000001', building_id: BUILDING },
      { label: '100000000002', thermostat_id: '100000000002', building_id: BUILDING },
    ]);
    expect(await rows(sql`select * from unit_occupancy`)).toEqual([]);
  });

  it('keeps a unit, empty, when its thermostat leaves the portfolio', async () => {
    await opened.db.execute(
      sql`delete from thermostats where org_id = ${ORG} and thermostat_id = '100000000002'`,
    );
    const left = await rows<{ label: string; thermostat_id: string | null; org_id: string }>(
      sql`select label, thermostat_id, org_id from units where label = '100000000002'`,
    );
    expect(left).toEqual([{ label: '100000000002', thermostat_id: null, org_id: ORG }]);
  });
});
