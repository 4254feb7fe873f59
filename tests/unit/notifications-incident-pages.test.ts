import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { countIncidents, type IncidentRow, listIncidents } from '@/lib/notifications/store';
import type { Member } from '@/lib/auth/store';
import { addThermostat, ensureBuilding } from '@/lib/portfolio/store';
import { incidents } from '@/lib/db/schema';
import { INCIDENTS_PER_PAGE } from '@/lib/notifications/page-view';
import { databaseTargets, useDatabase } from '../support/database';
import { createFirstOwner, createOrganizationWithOwner, inviteAndAccept } from '../support/members';

/**
 * The notifications page's incidents, a page at a time and narrowed by kind and building: the
 * open ones first, each page ten, the counts for the whole list, and never an incident outside
 * the reader's scope, another organisation's, one nobody was told of, or one resolved over a
 * week ago.
 */

const NORTH = '0000000000000000000a0001';
const SOUTH = '0000000000000000000b0001';
const DAY = 24 * 60 * 60_000;
const ago = (ms: number) => new Date(Date.now() - ms);

describe.each(databaseTargets)('incidents a page at a time on $name', ({ target }) => {
  let handle: DatabaseHandle;
  let owner: Member;
  let north: Member;
  const week = () => ago(7 * DAY);

  beforeAll(async () => {
    handle = await useDatabase(await target());
    owner = await createFirstOwner('owner@pages.example', 'Pages Property');
    for (const [buildingId, name] of [
      [NORTH, 'North House'],
      [SOUTH, 'South Court'],
    ] as const) {
      await ensureBuilding({ orgId: owner.orgId, buildingId, name, timeZone: 'UTC' });
    }
    north = await inviteAndAccept(owner.orgId, 'north@pages.example', 'building_manager', [NORTH]);
    const incident = (
      n: number,
      fields: Partial<typeof incidents.$inferInsert> & { kind: string; buildingId: string },
    ): typeof incidents.$inferInsert => ({
      orgId: owner.orgId,
      subject: `${fields.kind}-${n}`,
      thermostatId: `7000000000${String(n).padStart(2, '0')}`,
      buildingIds: [fields.buildingId],
      severity: 'warning',
      facts: { kind: fields.kind },
      // Older the higher n: the list shows the newest first.
      openedAt: ago(n * 60_000),
      notifiedAt: ago(n * 60_000),
      ...fields,
    });
    for (let n = 0; n < 15; n += 1) {
      await addThermostat({
        orgId: owner.orgId,
        thermostatId: `7000000000${String(n).padStart(2, '0')}`,
        buildingId: n < 12 ? NORTH : SOUTH,
        unitLabel: `Unit ${n + 1}`,
      });
    }
    await handle.db.insert(incidents).values([
      // 12 offline in North House, open.
      ...Array.from({ length: 12 }, (_, n) => incident(n, { kind: 'offline', buildingId: NORTH })),
      // Freeze risk in South Court: 2 open, 1 resolved yesterday.
      incident(12, { kind: 'freeze', buildingId: SOUTH, severity: 'urgent' }),
      incident(13, { kind: 'freeze', buildingId: SOUTH, severity: 'urgent' }),
      incident(14, {
        kind: 'freeze',
        buildingId: SOUTH,
        severity: 'urgent',
        resolvedAt: ago(DAY),
        resolution: 'cleared',
      }),
      // A failed bulk change over both buildings, open.
      {
        orgId: owner.orgId,
        kind: 'run_failed',
        subject: 'run-1',
        buildingIds: [NORTH, SOUTH],
        severity: 'warning',
        facts: { failed: 2, total: 10 },
        openedAt: ago(30 * 60_000),
        notifiedAt: ago(30 * 60_000),
      },
      // Not listed: resolved over a week ago, and one nobody was told of yet.
      incident(20, {
        kind: 'offline',
        buildingId: NORTH,
        subject: 'old',
        resolvedAt: ago(8 * DAY),
        resolution: 'cleared',
      }),
      incident(21, { kind: 'offline', buildingId: NORTH, subject: 'quiet', notifiedAt: null }),
    ]);
    // Another organisation's incident in a building id like North House's.
    const other = await createOrganizationWithOwner('other@pages.example');
    await handle.db.insert(incidents).values({
      orgId: other.orgId,
      kind: 'offline',
      subject: 'theirs',
      thermostatId: '799999999999',
      buildingId: NORTH,
      buildingIds: [NORTH],
      severity: 'warning',
      facts: { kind: 'offline' },
      openedAt: ago(60_000),
      notifiedAt: ago(60_000),
    });
  });

  afterAll(async () => {
    await handle.close();
  });

  const subjects = (rows: IncidentRow[]) =>
    rows.map((row) => (row.thermostatId ? Number(row.thermostatId.slice(-2)) : 'run'));

  it('pages the list ten at a time, open ones first, and counts the whole', async () => {
    const listed = { scope: owner, resolvedSince: week() };
    expect(await countIncidents(listed)).toEqual({ total: 16, open: 15 });
    const first = await listIncidents({ ...listed, limit: INCIDENTS_PER_PAGE });
    const second = await listIncidents({
      ...listed,
      offset: INCIDENTS_PER_PAGE,
      limit: INCIDENTS_PER_PAGE,
    });
    expect(first).toHaveLength(10);
    expect(second).toHaveLength(6);
    // Open ones newest first (the failed run opened 30 minutes ago), the resolved one last.
    expect([...subjects(first), ...subjects(second)]).toEqual([
      0,
      1,
      2,
      3,
      4,
      5,
      6,
      7,
      8,
      9,
      10,
      11,
      12,
      13,
      'run',
      14,
    ]);
    expect(second.at(-1)?.resolvedAt).not.toBeNull();
  });

  it('narrows by kind and by building, the failed run in each of its buildings', async () => {
    const listed = { scope: owner, resolvedSince: week() };
    const freeze = { ...listed, filter: { kind: 'freeze' } };
    expect(await countIncidents(freeze)).toEqual({ total: 3, open: 2 });
    expect(subjects(await listIncidents(freeze))).toEqual([12, 13, 14]);
    const south = { ...listed, filter: { buildingId: SOUTH } };
    expect(await countIncidents(south)).toEqual({ total: 4, open: 3 });
    expect(subjects(await listIncidents(south))).toEqual([12, 13, 'run', 14]);
    const both = { ...listed, filter: { kind: 'offline', buildingId: SOUTH } };
    expect(await countIncidents(both)).toEqual({ total: 0, open: 0 });
    expect(await listIncidents(both)).toEqual([]);
  });

  it('keeps a building manager to their buildings, whatever the filter asks', async () => {
    const listed = { scope: north, resolvedSince: week() };
    // North House's 12 and the failed run that concerns it too.
    expect(await countIncidents(listed)).toEqual({ total: 13, open: 13 });
    const asked = { ...listed, filter: { buildingId: SOUTH } };
    expect(await countIncidents(asked)).toEqual({ total: 1, open: 1 });
    expect(subjects(await listIncidents(asked))).toEqual(['run']);
    expect(await countIncidents({ ...listed, filter: { kind: 'freeze' } })).toEqual({
      total: 0,
      open: 0,
    });
  });
});
