import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// Before anything reads the configuration: listAttention asks it for the freshness target.
Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-attention-')),
  READINGS_TARGET_MINUTES: '5',
  NEXTAUTH_URL: 'http://localhost',
});

const { listAttention } = await import('@/lib/attention/list');
const {
  listAttentionRows,
  listBandHistory,
  listDueReminders,
  listFailedWrites,
  recordPendingMode,
  syncPendingModeChanges,
} = await import('@/lib/attention/store');
const { saveReminder, saveReminderFailure } = await import('@/lib/readings/reminders');
const { recordActivity } = await import('@/lib/activity/store');
const { addThermostat, ensureBuilding, removeThermostat } = await import('@/lib/portfolio/store');
const { saveReading } = await import('@/lib/readings/store');
const { connectEveryOrganization, databaseTargets, useDatabase } = await import(
  '../support/database'
);
const { createFirstOwner, createOrganizationWithOwner, inviteAndAccept } = await import(
  '../support/members'
);

import type { DatabaseHandle } from '@/lib/db/client';
import type { Member } from '@/lib/auth/store';

const NORTH = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const SOUTH = 'cccccccccccccccccccccccc';
const OTHER = 'bbbbbbbbbbbbbbbbbbbbbbbb';
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

const status = (_thermostatId: string, fields: Record<string, unknown> = {}) => ({
  isResidentMode: true,
  setPoint: { desiredHeat: 70, desiredCool: 76 },
  hvacMode: 'auto',
  temperature: 71,
  connected: true,
  ...fields,
});
const sampleOf = (s: ReturnType<typeof status>) => ({
  temperature: s.temperature as number,
  humidity: 40,
  desiredHeat: s.setPoint.desiredHeat,
  desiredCool: s.setPoint.desiredCool,
  hvacMode: s.hvacMode as string,
  equipment: '',
  connected: s.connected as boolean,
});

describe.each(databaseTargets)('needs-attention queries on $name', ({ target }) => {
  let handle: DatabaseHandle;
  let owner: Member;
  let manager: Member;
  let other: Member;

  async function read(
    member: Member,
    thermostatId: string,
    at: Date,
    fields: Record<string, unknown> = {},
  ) {
    const s = status(thermostatId, fields);
    await saveReading({ orgId: member.orgId, thermostatId, status: s, sample: sampleOf(s), at });
  }

  async function activity(
    member: Member,
    thermostatId: string | null,
    outcome: 'success' | 'failure',
    minutes: number,
    action: 'schedule.update' | 'configuration.update' = 'schedule.update',
  ) {
    await recordActivity({
      orgId: member.orgId,
      userId: member.userId,
      actorName: member.name,
      action,
      thermostatId,
      buildingId: null,
      summary: `${action} ${outcome}`,
      outcome,
      error: outcome === 'failure' ? 'conflict' : null,
    });
    await handle.db.execute(
      sql`update activity_log set at = ${minutesAgo(minutes).toISOString()}::timestamptz
        where id = (select max(id) from activity_log)`,
    );
  }

  beforeAll(async () => {
    handle = await useDatabase(await target());
  });
  afterAll(async () => {
    await handle.close();
  });
  beforeEach(async () => {
    await handle.db.execute(sql`truncate users, organizations cascade`);
    owner = await createFirstOwner();
    other = await createOrganizationWithOwner('other@example.com');
    for (const [member, building, zone, ids] of [
      [owner, NORTH, 'America/New_York', ['100000000001', '100000000002']],
      [owner, SOUTH, 'America/Phoenix', ['100000000003']],
      [other, OTHER, 'America/Toronto', ['200000000001']],
    ] as const) {
      await ensureBuilding({
        orgId: member.orgId,
        buildingId: building,
        name: building.slice(0, 1),
        timeZone: zone,
      });
      for (const id of ids) {
        await addThermostat({
          orgId: member.orgId,
          thermostatId: id,
          buildingId: building,
          unitLabel: `Unit ${id.slice(-1)}`,
        });
      }
    }
    manager = await inviteAndAccept(owner.orgId, 'manager@example.com', 'building_manager', [
      SOUTH,
    ]);
    await connectEveryOrganization(handle);
  });

  it('lists every thermostat in scope with its reading and kept facts, and only those', async () => {
    await read(owner, '100000000001', minutesAgo(2), { temperature: 40 });
    await read(other, '200000000001', minutesAgo(2), { temperature: 40 });
    await saveReminder({
      orgId: owner.orgId,
      thermostatId: '100000000001',
      enabled: true,
      nextReminderDate: '2026-01-15',
    });

    const rows = await listAttentionRows({ scope: owner });
    expect(rows.map((row) => row.thermostatId).sort()).toEqual([
      '100000000001',
      '100000000002',
      '100000000003',
    ]);
    const first = rows.find((row) => row.thermostatId === '100000000001');
    expect(first).toMatchObject({
      unitLabel: 'Unit 1',
      buildingId: NORTH,
      timeZone: 'America/New_York',
      status: expect.objectContaining({ temperature: 40 }),
      reminderEnabled: true,
      nextReminderDate: '2026-01-15',
      pendingMode: null,
    });
    expect(first?.readAt).toBeInstanceOf(Date);
    const never = rows.find((row) => row.thermostatId === '100000000002');
    expect(never).toMatchObject({ status: null, readAt: null, reminderEnabled: null });

    expect((await listAttentionRows({ scope: manager })).map((row) => row.thermostatId)).toEqual([
      '100000000003',
    ]);
    expect((await listAttentionRows({ scope: other })).map((row) => row.thermostatId)).toEqual([
      '200000000001',
    ]);
    expect(await listAttentionRows({ scope: { ...manager, buildingIds: [] } })).toEqual([]);
  });

  it('reads band history of the given thermostats in scope, since a time, oldest first', async () => {
    for (const minutes of [400, 90, 30, 5]) {
      await read(owner, '100000000001', minutesAgo(minutes), { temperature: 60 + minutes / 100 });
      await read(owner, '100000000003', minutesAgo(minutes));
      await read(other, '200000000001', minutesAgo(minutes));
    }
    const points = await listBandHistory({
      scope: owner,
      thermostatIds: ['100000000001', '100000000003', '200000000001'],
      since: minutesAgo(120),
    });
    expect(
      points.map((p) => [p.thermostatId, Math.round((Date.now() - p.at.getTime()) / 60_000)]),
    ).toEqual([
      ['100000000001', 90],
      ['100000000001', 30],
      ['100000000001', 5],
      ['100000000003', 90],
      ['100000000003', 30],
      ['100000000003', 5],
    ]);
    expect(points[0]).toMatchObject({
      temperature: 60.9,
      desiredHeat: 70,
      desiredCool: 76,
      hvacMode: 'auto',
    });
    const scoped = await listBandHistory({
      scope: manager,
      thermostatIds: ['100000000001', '100000000003'],
      since: minutesAgo(120),
    });
    expect(new Set(scoped.map((p) => p.thermostatId))).toEqual(new Set(['100000000003']));
    expect(
      await listBandHistory({ scope: owner, thermostatIds: [], since: minutesAgo(120) }),
    ).toEqual([]);
  });

  it('counts failed writes of the last day per thermostat, until the same change succeeds', async () => {
    await activity(owner, '100000000001', 'failure', 300);
    await activity(owner, '100000000001', 'failure', 20);
    await activity(owner, '100000000001', 'failure', 25 * 60); // older than the window
    await activity(owner, '100000000002', 'failure', 60);
    await activity(owner, '100000000002', 'success', 30); // settled
    await activity(owner, '100000000003', 'failure', 60, 'configuration.update');
    await activity(owner, '100000000003', 'success', 30, 'schedule.update'); // another change
    await activity(owner, null, 'failure', 10); // no thermostat
    await activity(other, '200000000001', 'failure', 10);

    const since = minutesAgo(24 * 60);
    const failed = await listFailedWrites({ scope: owner, since });
    expect(failed.map((f) => [f.thermostatId, f.count]).sort()).toEqual([
      ['100000000001', 2],
      ['100000000003', 1],
    ]);
    const first = failed.find((f) => f.thermostatId === '100000000001');
    expect(Math.round((Date.now() - (first?.first.getTime() ?? 0)) / 60_000)).toBe(300);
    expect(Math.round((Date.now() - (first?.last.at.getTime() ?? 0)) / 60_000)).toBe(20);
    expect(first?.last).toMatchObject({ summary: 'schedule.update failure', error: 'conflict' });

    expect((await listFailedWrites({ scope: manager, since })).map((f) => f.thermostatId)).toEqual([
      '100000000003',
    ]);
    expect((await listFailedWrites({ scope: other, since })).map((f) => f.thermostatId)).toEqual([
      '200000000001',
    ]);
    // A thermostat that left the portfolio has nothing to link to.
    await removeThermostat({ orgId: owner.orgId, thermostatId: '100000000003' });
    expect((await listFailedWrites({ scope: manager, since })).length).toBe(0);
  });

  it('keeps a mode change Setpoint asked for until a reading made after it shows the mode', async () => {
    const pendingOf = async (id: string) =>
      (await listAttentionRows({ scope: owner })).find((row) => row.thermostatId === id);

    await read(owner, '100000000001', minutesAgo(30), { hvacMode: 'heat' });
    await read(owner, '100000000002', minutesAgo(30));
    await recordPendingMode({ orgId: owner.orgId, thermostatId: '100000000001', mode: 'cool' });
    await syncPendingModeChanges();
    const asked = await pendingOf('100000000001');
    expect(asked?.pendingMode).toBe('cool');
    expect(Date.now() - (asked?.pendingSince?.getTime() ?? 0)).toBeLessThan(60_000);
    expect((await pendingOf('100000000002'))?.pendingMode).toBeNull();

    // A reading that still shows the old mode leaves it waiting, from when it was asked for.
    await read(owner, '100000000001', new Date(), { hvacMode: 'heat' });
    await syncPendingModeChanges();
    expect((await pendingOf('100000000001'))?.pendingSince?.getTime()).toBe(
      asked?.pendingSince?.getTime(),
    );
    // Asked for again, another mode: its own time.
    await recordPendingMode({ orgId: owner.orgId, thermostatId: '100000000001', mode: 'auto' });
    const again = await pendingOf('100000000001');
    expect(again?.pendingMode).toBe('auto');
    expect(again?.pendingSince?.getTime()).toBeGreaterThanOrEqual(
      asked?.pendingSince?.getTime() ?? 0,
    );

    // A reading made before it was asked for does not clear it, even showing the mode.
    await read(owner, '100000000001', minutesAgo(20), { hvacMode: 'auto' });
    await syncPendingModeChanges();
    expect((await pendingOf('100000000001'))?.pendingMode).toBe('auto');

    // Done: a reading after it shows the mode, and it goes.
    await read(owner, '100000000001', new Date(Date.now() + 1000), { hvacMode: 'auto' });
    await syncPendingModeChanges();
    expect((await pendingOf('100000000001'))?.pendingMode).toBeNull();
    const count = await handle.db.execute(sql`select count(*)::int as n from pending_mode_changes`);
    expect(Number((count as unknown as { rows: { n: number }[] }).rows[0]?.n)).toBe(0);
  });

  it('gives the maintenance reader what is due: never tried first, daily, failures hourly, active connections only', async () => {
    const due = () =>
      listDueReminders({ readEvery: 24 * 3_600_000, retryEvery: 3_600_000, limit: 10 }).then(
        (rows) => rows.map((row) => row.thermostatId).sort(),
      );
    expect(await due()).toEqual(['100000000001', '100000000002', '100000000003', '200000000001']);

    await saveReminder({
      orgId: owner.orgId,
      thermostatId: '100000000001',
      enabled: true,
      nextReminderDate: '2027-01-01',
      at: minutesAgo(23 * 60),
    });
    await saveReminder({
      orgId: owner.orgId,
      thermostatId: '100000000002',
      enabled: false,
      nextReminderDate: null,
      at: minutesAgo(25 * 60),
    });
    await saveReminderFailure({
      orgId: owner.orgId,
      thermostatId: '100000000003',
      failure: 'unavailable',
      at: minutesAgo(30),
    });
    await saveReminderFailure({
      orgId: other.orgId,
      thermostatId: '200000000001',
      failure: 'unavailable',
      at: minutesAgo(61),
    });
    expect(await due()).toEqual(['100000000002', '200000000001']);

    // The longest unread first, within the limit.
    const limited = await listDueReminders({
      readEvery: 24 * 3_600_000,
      retryEvery: 3_600_000,
      limit: 1,
    });
    expect(limited).toEqual([{ orgId: owner.orgId, thermostatId: '100000000002' }]);

    await handle.db.execute(
      sql`update service_connections set status = 'reconnect' where org_id = ${other.orgId}`,
    );
    expect(await due()).toEqual(['100000000002']);
  });

  it('keeps the last good reminder beside a failure, and nothing for a thermostat that left', async () => {
    await saveReminder({
      orgId: owner.orgId,
      thermostatId: '100000000001',
      enabled: true,
      nextReminderDate: '2026-03-01',
    });
    await saveReminderFailure({
      orgId: owner.orgId,
      thermostatId: '100000000001',
      failure: 'not_found',
    });
    const [row] = await handle.db
      .execute(
        sql`select enabled, next_reminder_date::text as date, failure, read_at is not null as read
        from maintenance_reminders where thermostat_id = '100000000001'`,
      )
      .then((result) => (result as unknown as { rows: Record<string, unknown>[] }).rows);
    expect(row).toEqual({ enabled: true, date: '2026-03-01', failure: 'not_found', read: true });

    await removeThermostat({ orgId: owner.orgId, thermostatId: '100000000002' });
    await saveReminder({
      orgId: owner.orgId,
      thermostatId: '100000000002',
      enabled: true,
      nextReminderDate: '2026-03-01',
    });
    await saveReminderFailure({
      orgId: owner.orgId,
      thermostatId: '100000000002',
      failure: 'not_found',
    });
    const left = await handle.db.execute(
      sql`select count(*)::int as n from maintenance_reminders where thermostat_id = '100000000002'`,
    );
    expect(Number((left as unknown as { rows: { n: number }[] }).rows[0]?.n)).toBe(0);
  });

  it('lists what needs attention for each member, only in their scope, most urgent first', async () => {
    // Last seen connected 90 minutes ago (a reading then), offline since.
    await read(owner, '100000000001', minutesAgo(90));
    await read(owner, '100000000001', minutesAgo(1), { connected: false });
    await read(owner, '100000000002', minutesAgo(1), { temperature: 40 });
    await saveReminder({
      orgId: owner.orgId,
      thermostatId: '100000000003',
      enabled: true,
      nextReminderDate: '2020-09-13',
    });
    await read(other, '200000000001', minutesAgo(1), { temperature: 96 });
    // Too cold for over an hour of readings.
    for (const minutes of [80, 40]) {
      await read(owner, '100000000003', minutesAgo(minutes), { temperature: 62 });
    }
    await read(owner, '100000000003', minutesAgo(1), { temperature: 62 });

    const kinds = async (member: Member) =>
      (await listAttention({ scope: member })).items.map((item) => [item.kind, item.thermostatId]);
    expect(await kinds(owner)).toEqual([
      ['freeze', '100000000002'],
      ['offline', '100000000001'],
      ['too_cold', '100000000003'],
      ['maintenance_overdue', '100000000003'],
    ]);
    expect(await kinds(manager)).toEqual([
      ['too_cold', '100000000003'],
      ['maintenance_overdue', '100000000003'],
    ]);
    expect(await kinds(other)).toEqual([['overheat', '200000000001']]);

    const { items, freshness } = await listAttention({ scope: owner });
    expect(items[0]).toMatchObject({ label: 'Unit 2', buildingName: 'a' });
    // Both organisations' thermostats share the one budget.
    expect(freshness).toMatchObject({ fleet: 4, targetMs: 5 * 60_000, achievableMs: 5 * 60_000 });

    // The connection ends: an urgent item for everyone in the organisation, and no readings
    // are called out of date for it.
    await handle.db.execute(
      sql`update service_connections set status = 'reconnect' where org_id = ${owner.orgId}`,
    );
    await handle.db.execute(
      sql`update readings set read_at = now() - interval '3 hours' where org_id = ${owner.orgId}`,
    );
    expect((await kinds(manager)).map(([kind]) => kind)).toEqual([
      'connection_ended',
      'maintenance_overdue',
    ]);
    await handle.db.execute(
      sql`update service_connections set status = 'active' where org_id = ${owner.orgId}`,
    );
    expect((await kinds(manager)).map(([kind]) => kind)).toEqual(['stale', 'maintenance_overdue']);
  });
});
