import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import type { Member } from '@/lib/auth/store';
import { addThermostat, ensureBuilding, removeThermostat } from '@/lib/portfolio/store';
import {
  listDueReadings,
  listReadings,
  markWanted,
  pruneHistory,
  saveReadFailure,
  saveReading,
} from '@/lib/readings/store';
import { achievableFreshnessMs, pageFreshnessMs, readingsPerMinute } from '@/lib/readings/poller';
import { connectEveryOrganization, databaseTargets, useDatabase } from '../support/database';
import { createFirstOwner, createOrganizationWithOwner } from '../support/members';

const sample = {
  temperature: 70,
  humidity: 40,
  desiredHeat: 68,
  desiredCool: 75,
  hvacMode: 'auto',
  equipment: '',
  connected: true,
};
const status = (thermostatId: string, temperature = 70) => ({
  thermostatId,
  isResidentMode: true,
  setPoint: { desiredHeat: 68, desiredCool: 75 },
  temperature,
});

describe.each(databaseTargets)('the readings store on $name', ({ target }) => {
  let handle: DatabaseHandle;
  let owner: Member;
  let other: Member;
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
    for (const [member, building, ids] of [
      [owner, 'aaaaaaaaaaaaaaaaaaaaaaaa', ['100000000001', '100000000002', '100000000003']],
      [other, 'bbbbbbbbbbbbbbbbbbbbbbbb', ['200000000001']],
    ] as const) {
      await ensureBuilding({
        orgId: member.orgId,
        buildingId: building,
        name: 'B',
        timeZone: 'UTC',
      });
      for (const id of ids) {
        await addThermostat({
          orgId: member.orgId,
          thermostatId: id,
          buildingId: building,
          unitLabel: id,
        });
      }
    }
    // Both organisations connected, so the poller serves both.
    await connectEveryOrganization(handle);
  });

  it('keeps the last good status beside a failure, and only the organisation’s', async () => {
    const at = new Date(Date.now() - 60_000);
    await saveReading({
      orgId: owner.orgId,
      thermostatId: '100000000001',
      status: status('100000000001'),
      sample,
      at,
    });
    await saveReadFailure({
      orgId: owner.orgId,
      thermostatId: '100000000001',
      failure: 'unavailable',
    });
    const [reading] = await listReadings({ scope: owner, thermostatIds: ['100000000001'] });
    expect(reading?.status).toMatchObject({ temperature: 70 });
    expect(reading?.readAt?.getTime()).toBe(at.getTime());
    expect(reading?.failure).toBe('unavailable');
    expect(await listReadings({ scope: other, thermostatIds: ['100000000001'] })).toEqual([]);
  });

  it('never lets an older read overwrite a newer one', async () => {
    const newer = new Date(Date.now() - 1000);
    const older = new Date(Date.now() - 5000);
    await saveReading({
      orgId: owner.orgId,
      thermostatId: '100000000001',
      status: status('100000000001', 71),
      sample,
      at: newer,
    });
    await saveReading({
      orgId: owner.orgId,
      thermostatId: '100000000001',
      status: status('100000000001', 60),
      sample,
      at: older,
    });
    const [reading] = await listReadings({ scope: owner, thermostatIds: ['100000000001'] });
    expect(reading?.status).toMatchObject({ temperature: 71 });
  });

  it('keeps nothing for a thermostat that left the portfolio while it was read', async () => {
    await removeThermostat({ orgId: owner.orgId, thermostatId: '100000000003' });
    await saveReading({
      orgId: owner.orgId,
      thermostatId: '100000000003',
      status: status('100000000003'),
      sample,
    });
    expect(await listReadings({ scope: owner, thermostatIds: ['100000000003'] })).toEqual([]);
  });

  it('gives the poller what is due: wanted first, then never read, then the oldest, for every organisation', async () => {
    const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
    await saveReading({
      orgId: owner.orgId,
      thermostatId: '100000000001',
      status: status('100000000001'),
      sample,
      at: minutesAgo(30),
    });
    await saveReading({
      orgId: owner.orgId,
      thermostatId: '100000000002',
      status: status('100000000002'),
      sample,
      at: minutesAgo(1),
    });
    await saveReading({
      orgId: other.orgId,
      thermostatId: '200000000001',
      status: status('200000000001'),
      sample,
      at: minutesAgo(10),
    });
    const due = await listDueReadings({ olderThan: minutesAgo(5), limit: 10 });
    expect(due.map((d) => d.thermostatId)).toEqual([
      '100000000003',
      '100000000001',
      '200000000001',
    ]);

    await markWanted({ orgId: owner.orgId, thermostatIds: ['100000000002'] });
    const wanted = await listDueReadings({ olderThan: minutesAgo(5), limit: 1 });
    expect(wanted.map((d) => d.thermostatId)).toEqual(['100000000002']);

    // An organisation whose connection ended is not polled.
    await handle.db.execute(
      sql`update service_connections set status = 'reconnect' where org_id = ${other.orgId}`,
    );
    const after = await listDueReadings({ olderThan: minutesAgo(5), limit: 10 });
    expect(after.map((d) => d.thermostatId)).not.toContain('200000000001');
  });

  it('reads a row again for a page only once it is older than the poller can keep it', async () => {
    // The defaults: production limits, a 5-minute target. The background share of the hour is
    // 155 reads a minute.
    process.env.AUTH_SECRET ??= randomBytes(32).toString('base64url');
    process.env.TOKEN_KEYS ??= `1:${randomBytes(32).toString('base64url')}`;
    process.env.SERVICE_ALLOW_REDIRECT_PORT ??= 'true';
    expect(readingsPerMinute()).toBe(155);
    expect(achievableFreshnessMs(3)).toBe(5 * 60_000);
    // 1,500 thermostats cannot be kept within 5 minutes: the budget keeps them within 10.
    expect(achievableFreshnessMs(1500)).toBe(10 * 60_000);
    expect(await pageFreshnessMs()).toBe(5 * 60_000);
  });

  it('thins history as it ages: all for two days, a point per quarter hour to a week, hourly to 30 days', async () => {
    const now = new Date('2026-06-30T12:00:00Z');
    const hour = 3_600_000;
    const points: Date[] = [];
    // Every 5 minutes for the last hour, 3 days ago and 10 days ago, and one 40 days ago.
    for (const base of [
      now.getTime() - hour,
      now.getTime() - 72 * hour,
      now.getTime() - 240 * hour,
    ]) {
      for (let minute = 0; minute < 60; minute += 5) points.push(new Date(base + minute * 60_000));
    }
    points.push(new Date(now.getTime() - 40 * 24 * hour));
    for (const at of points) {
      await handle.db.execute(sql`insert into reading_history (org_id, thermostat_id, at, temperature)
        values (${owner.orgId}, '100000000001', ${at.toISOString()}::timestamptz, 70)`);
    }
    await pruneHistory(now);
    const left = (
      (await handle.db.execute(sql`select at from reading_history
        where org_id = ${owner.orgId} and thermostat_id = '100000000001'`)) as unknown as {
        rows: { at: string | Date }[];
      }
    ).rows.map((row) => ({ at: new Date(row.at) }));
    const within = (from: number, to: number) =>
      left.filter(
        (p) => p.at.getTime() >= now.getTime() - from && p.at.getTime() < now.getTime() - to,
      ).length;
    expect(within(hour, 0)).toBe(12);
    expect(within(73 * hour, 71 * hour)).toBe(4);
    expect(within(241 * hour, 239 * hour)).toBe(1);
    expect(within(41 * 24 * hour, 39 * 24 * hour)).toBe(0);
  });
});
