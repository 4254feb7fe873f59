import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isActivityAction } from '@/lib/activity/actions';
import type { Database, DatabaseHandle } from '@/lib/db/client';
import { listActivity } from '@/lib/activity/store';
import { findSessionMember } from '@/lib/auth/store';
import { listBuildings, listThermostats } from '@/lib/portfolio/store';
import { findConnection } from '@/lib/service/connection/store';
import { databaseTargets } from '../support/database';
import {
  MIGRATIONS,
  migrationCount,
  migrationIndex,
  migrationsUpTo,
  type Opened,
  openUnmigrated,
} from '../support/migrations';

/**
 * 0003_organisations on a database that the earlier migrations made and the earlier app filled:
 * nothing is lost, every row lands in its account's organisation, and actions are renamed.
 */
const ORGANISATIONS = '0003_organisations';
const organisationsAt = migrationIndex(ORGANISATIONS);

// Two accounts as the earlier app made them: Ana signs in with a password, Ben only through SSO.
const ANA = '11111111-1111-4111-8111-111111111111';
const BEN = '22222222-2222-4222-8222-222222222222';
const ANA_NAME = 'Ana Reyes';
const BEN_NAME = 'Ben Okafor';
// Ids are the service's, so two accounts could hold the same building or thermostat.
const B_ANA_1 = '0000000000000000000a0001';
const B_ANA_2 = '0000000000000000000a0002';
const B_SHARED = '0000000000000000000c0001';
const T_SHARED = '300000000001';

/** Old action → new action, as 0003 and lib/activity/actions.ts say. */
const RENAMED: Record<string, string> = {
  resident_mode: 'resident_mode.update',
  move: 'thermostat.move',
  create_thermostat: 'thermostat.create',
  configuration: 'configuration.update',
  bulk_configuration: 'configuration.bulk_update',
  access_control: 'access_control.update',
  alerts: 'alert_settings.update',
  // Already `resource.verb` before organisations.
  'schedule.update': 'schedule.update',
  'portfolio.add': 'portfolio.add',
  'portfolio.remove': 'portfolio.remove',
  'building.update': 'building.update',
  'comfort_setting.update': 'comfort_setting.update',
};

async function fillOldSchema(db: Database) {
  await db.execute(sql`
    insert into users (id, email, name, password_hash, temperature_unit, created_at) values
      (${ANA}, 'ana@reyes.example', ${ANA_NAME}, '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA', 'C',
        '2026-01-02T03:04:05Z'),
      (${BEN}, 'ben@northwind.example', ${BEN_NAME}, null, 'F', '2026-02-03T04:05:06Z')`);
  await db.execute(sql`
    insert into buildings (user_id, building_id, name, time_zone, address) values
      (${ANA}, ${B_ANA_1}, 'Maple Court', 'America/Chicago', '1 Maple Ct'),
      (${ANA}, ${B_ANA_2}, 'Oak Tower', 'America/New_York', ''),
      (${ANA}, ${B_SHARED}, 'Shared (Ana)', 'Europe/Berlin', ''),
      (${BEN}, ${B_SHARED}, 'Shared (Ben)', 'Asia/Tokyo', '9 Harbour Rd')`);
  await db.execute(sql`
    insert into thermostats (user_id, thermostat_id, building_id, unit_label) values
      (${ANA}, '100000000001', ${B_ANA_1}, 'Unit 1A'),
      (${ANA}, '100000000002', ${B_ANA_1}, 'Unit 1B'),
      (${ANA}, '100000000003', ${B_ANA_2}, ''),
      (${ANA}, ${T_SHARED}, ${B_SHARED}, 'Ana''s shared'),
      (${BEN}, ${T_SHARED}, ${B_SHARED}, 'Ben''s shared'),
      (${BEN}, '200000000001', ${B_SHARED}, 'Penthouse')`);
  await db.execute(sql`
    insert into service_connections (id, user_id, status, scope, token_type, token_format,
      access_token_sealed, access_token_expires_at, refresh_token_sealed, refresh_token_issued_at,
      refresh_token_expires_at, connected_at, last_refreshed_at, last_error) values
      ('aaaaaaaa-0000-4000-8000-000000000001', ${ANA}, 'active', 'read write', 'Bearer', 'jwt',
        'Fe26.2**ana-access', '2026-03-01T01:00:00Z', 'Fe26.2**ana-refresh', '2026-03-01T00:00:00Z',
        '2026-04-01T00:00:00Z', '2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z', null),
      ('aaaaaaaa-0000-4000-8000-000000000002', ${BEN}, 'reconnect', 'read', 'Bearer', 'opaque',
        'Fe26.2**ben-access', '2026-03-02T01:00:00Z', 'Fe26.2**ben-refresh', '2026-03-02T00:00:00Z',
        '2026-04-02T00:00:00Z', '2026-02-02T00:00:00Z', null, 'invalid_grant')`);
  await db.execute(sql`
    insert into oauth_states (state_hash, user_id, consumed_at) values
      ('state-ana', ${ANA}, now()), ('state-ben', ${BEN}, null)`);
  await db.execute(sql`
    insert into sessions (id, user_id, expires_at, revoked_at) values
      ('session-ana', ${ANA}, now() + interval '1 day', null),
      ('session-ana-old', ${ANA}, now() + interval '1 day', now()),
      ('session-ben', ${BEN}, now() + interval '1 day', null)`);
  await db.execute(sql`
    insert into sign_in_attempts (email, client, succeeded) values
      ('ana@reyes.example', '10.0.0.1', false), ('ana@reyes.example', '10.0.0.1', true)`);
  let minute = 0;
  const entry = (
    userId: string | null,
    actor: string,
    action: string,
    thermostatId: string | null,
  ) => {
    minute += 1;
    const at = new Date(Date.UTC(2026, 2, 1, 12, minute)).toISOString();
    return sql`(${userId}, ${actor}, ${at}, ${action}, ${thermostatId}, ${thermostatId ? B_ANA_1 : null},
      ${`${actor}: ${action}`}, ${JSON.stringify({ action, minute })}::jsonb, 'success', null, null)`;
  };
  const rows: SQL[] = [
    ...Object.keys(RENAMED).map((action) => entry(ANA, ANA_NAME, action, '100000000001')),
    entry(BEN, BEN_NAME, 'move', T_SHARED),
    entry(BEN, BEN_NAME, 'alerts', null),
    // An entry whose account was deleted before organisations (the foreign key set it null).
    entry(null, 'Former colleague', 'configuration', '100000000002'),
  ];
  await db.execute(sql`
    insert into activity_log (user_id, actor_name, at, action, thermostat_id, building_id, summary,
      changes, outcome, service_status, error) values ${sql.join(rows, sql`, `)}`);
}

describe.each(databaseTargets)('the organisations migration on $name', ({ target }) => {
  let folder: string;
  let beforeFolder: string;
  let throughFolder: string;
  let opened: Opened;
  type Row = Record<string, unknown>;
  const rows = async (query: SQL) =>
    ((await opened.db.execute(query)) as unknown as { rows: Row[] }).rows;
  /** Every row of a table as JSON, in a stable order. */
  const table = async (name: string, orderBy: string) =>
    (
      await rows(
        sql`select to_jsonb(t) as row from ${sql.identifier(name)} t order by ${sql.raw(orderBy)}`,
      )
    ).map((result) => result.row as Row);

  let before: Record<string, Row[]>;
  let after: Record<string, Row[]>;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'setpoint-migrations-'));
    // 0000–0002, then through 0003: the rows are compared as 0003 left them, so that a later
    // migration of these tables does not break this test; the rest of the folder runs after.
    beforeFolder = path.join(folder, 'before');
    throughFolder = path.join(folder, 'through');
    migrationsUpTo(beforeFolder, organisationsAt);
    migrationsUpTo(throughFolder, organisationsAt + 1);
    opened = await openUnmigrated(await target());
    await opened.migrate(beforeFolder);
    await fillOldSchema(opened.db);
    before = {
      users: await table('users', 'id'),
      buildings: await table('buildings', 'user_id, building_id'),
      thermostats: await table('thermostats', 'user_id, thermostat_id'),
      connections: await table('service_connections', 'id'),
      activity: await table('activity_log', 'id'),
      sessions: await table('sessions', 'id'),
      attempts: await table('sign_in_attempts', 'id'),
      states: await table('oauth_states', 'state_hash'),
    };
    await opened.migrate(throughFolder);
    after = {
      users: await table('users', 'id'),
      buildings: await table('buildings', 'org_id, building_id'),
      thermostats: await table('thermostats', 'org_id, thermostat_id'),
      connections: await table('service_connections', 'id'),
      activity: await table('activity_log', 'id'),
      sessions: await table('sessions', 'id'),
      attempts: await table('sign_in_attempts', 'id'),
      states: await table('oauth_states', 'state_hash'),
    };
    await opened.migrate(MIGRATIONS);
  });
  afterAll(async () => {
    await opened?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('makes every account the owner of an organisation of its own, with its id', async () => {
    const orgs = await rows(sql`select id, name from organizations order by id`);
    expect(orgs.map((org) => org.id)).toEqual([ANA, BEN]);
    expect(orgs[0]?.name).toContain(ANA_NAME);
    expect(orgs[1]?.name).toContain(BEN_NAME);
    expect(await rows(sql`select user_id, org_id, role from memberships order by user_id`)).toEqual(
      [
        { user_id: ANA, org_id: ANA, role: 'owner' },
        { user_id: BEN, org_id: BEN, role: 'owner' },
      ],
    );
    expect(await rows(sql`select count(*)::int as n from member_buildings`)).toEqual([{ n: 0 }]);
    expect(await rows(sql`select count(*)::int as n from invitations`)).toEqual([{ n: 0 }]);
  });

  it('keeps accounts, sessions, sign-in attempts and authorization requests as they were', () => {
    expect(after.users?.map(({ last_sign_in_at, ...user }) => user)).toEqual(before.users);
    expect(after.users?.map((user) => user.last_sign_in_at)).toEqual([null, null]);
    expect(after.sessions).toEqual(before.sessions);
    expect(after.attempts).toEqual(before.attempts);
    expect(after.states).toEqual(before.states);
  });

  it('keeps every building and thermostat, under its account’s organisation', () => {
    expect(after.buildings).toHaveLength(4);
    expect(after.buildings?.map(({ org_id, ...building }) => building)).toEqual(
      before.buildings?.map(({ user_id, ...building }) => building),
    );
    expect(after.buildings?.map((building) => building.org_id)).toEqual(
      before.buildings?.map((building) => building.user_id),
    );
    expect(after.thermostats).toHaveLength(6);
    expect(after.thermostats?.map(({ org_id, moving_to, ...thermostat }) => thermostat)).toEqual(
      before.thermostats?.map(({ user_id, ...thermostat }) => thermostat),
    );
    expect(after.thermostats?.map((thermostat) => thermostat.org_id)).toEqual(
      before.thermostats?.map((thermostat) => thermostat.user_id),
    );
    expect(after.thermostats?.every((thermostat) => thermostat.moving_to === null)).toBe(true);
  });

  it('keeps each service connection, sealed tokens untouched, connected by its account', () => {
    const added = ['org_id', 'connected_by', 'connected_by_name', 'account_id', 'account_name'];
    const strip = (row: Row, keys: string[]) =>
      Object.fromEntries(Object.entries(row).filter(([key]) => !keys.includes(key)));
    expect(after.connections?.map((row) => strip(row, added))).toEqual(
      before.connections?.map((row) => strip(row, ['user_id'])),
    );
    expect(
      after.connections?.map((row) => [row.org_id, row.connected_by, row.connected_by_name]),
    ).toEqual([
      [ANA, ANA, ANA_NAME],
      [BEN, BEN, BEN_NAME],
    ]);
    expect(after.connections?.map((row) => row.access_token_sealed)).toEqual([
      'Fe26.2**ana-access',
      'Fe26.2**ben-access',
    ]);
  });

  it('keeps every activity entry in its organisation, with `resource.verb` actions', () => {
    expect(after.activity).toHaveLength(before.activity?.length ?? -1);
    expect(after.activity?.map(({ org_id, action, ...entry }) => entry)).toEqual(
      before.activity?.map(({ action, ...entry }) => entry),
    );
    after.activity?.forEach((entry, index) => {
      const old = before.activity?.[index];
      expect(entry.org_id).toBe(old?.user_id ?? null);
      expect(entry.action).toBe(RENAMED[String(old?.action)]);
      expect(isActivityAction(String(entry.action))).toBe(true);
    });
    expect(after.activity?.filter((entry) => entry.org_id === null)).toHaveLength(1);
  });

  it('serves the old rows through the data layer as the owner’s organisation', async () => {
    const holder = globalThis as typeof globalThis & { __setpointDb?: Promise<DatabaseHandle> };
    holder.__setpointDb = Promise.resolve({
      db: opened.db,
      kind: opened.kind,
      close: async () => {},
    });
    const ana = await findSessionMember({ sessionId: 'session-ana' });
    expect(ana).toMatchObject({ orgId: ANA, userId: ANA, role: 'owner', buildingIds: null });
    expect(await findSessionMember({ sessionId: 'session-ana-old' })).toBeNull();
    if (!ana) throw new Error('no member');
    expect((await listBuildings({ scope: ana })).map((b) => [b.name, b.thermostatCount])).toEqual([
      ['Maple Court', 2],
      ['Oak Tower', 1],
      ['Shared (Ana)', 1],
    ]);
    expect(
      (await listThermostats({ scope: ana, buildingId: B_SHARED })).map((t) => t.unitLabel),
    ).toEqual(["Ana's shared"]);
    const activity = await listActivity({ scope: ana, limit: 100 });
    expect(activity).toHaveLength(Object.keys(RENAMED).length);
    expect(activity.every((entry) => entry.userId === ANA && entry.orgId === ANA)).toBe(true);
    expect(await findConnection({ orgId: BEN })).toMatchObject({
      connectedBy: BEN,
      status: 'reconnect',
      refreshTokenSealed: 'Fe26.2**ben-refresh',
      // 0014: a connection that had ended keeps why, as a reason of its own.
      endedReason: 'refresh_refused',
    });
    expect(await findConnection({ orgId: ANA })).toMatchObject({ endedReason: null });
    const ben = await findSessionMember({ sessionId: 'session-ben' });
    expect((await listActivity({ scope: ben ?? ana })).map((entry) => entry.action)).toEqual([
      'alert_settings.update',
      'thermostat.move',
    ]);
  });

  it('does nothing when run again', async () => {
    const count = sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
    const applied = await rows(count);
    expect(applied).toEqual([{ n: migrationCount() }]);
    const tables = ['organizations', 'memberships', 'activity_log', 'service_connections'];
    const state = async () => Promise.all(tables.map((name) => table(name, '1')));
    const first = await state();
    await opened.migrate(MIGRATIONS);
    expect(await rows(count)).toEqual(applied);
    expect(await state()).toEqual(first);
  });
});
