import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordPendingMode } from '@/lib/attention/store';
import type { DatabaseHandle } from '@/lib/db/client';
import type { Member } from '@/lib/auth/store';
import { addThermostat, ensureBuilding } from '@/lib/portfolio/store';
import {
  listBuildingRows,
  markWanted,
  saveReadFailure,
  saveReading,
  summarizeBuildingRows,
} from '@/lib/readings/store';
import { type BuildingView, parseBuildingView } from '@/lib/readings/view';
import { databaseTargets, useDatabase } from '../support/database';
import { createFirstOwner, createOrganizationWithOwner, inviteAndAccept } from '../support/members';

/**
 * The building table's data layer on PGlite and PostgreSQL: the database searches, filters,
 * sorts (units in natural order) and pages, in the member's scope.
 */
const BUILDING = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const OTHER_BUILDING = 'cccccccccccccccccccccccc';
const id = (n: number) => `1000000000${String(n).padStart(2, '0')}`;

// Labels in an order no plain text sort gets right.
const UNITS: { label: string; temperature?: number; mode?: string; connected?: boolean }[] = [
  { label: 'Unit 1001', temperature: 71, mode: 'heat' },
  { label: 'Unit 101', temperature: 68.5, mode: 'cool' },
  { label: 'Unit 99', temperature: 74, mode: 'heat', connected: false },
  { label: 'lobby', temperature: 66, mode: 'auto' },
  { label: 'Unit 0102', mode: 'off' }, // no temperature in its status
  { label: '' }, // never read; shown by its id
  { label: 'Unit 100%_x', temperature: 70, mode: 'heat' },
];

// History is not what these tests are about.
const NO_SAMPLE = {
  temperature: null,
  humidity: null,
  desiredHeat: null,
  desiredCool: null,
  hvacMode: null,
  equipment: null,
  connected: null,
};

const view = (params: Record<string, string> = {}): BuildingView => parseBuildingView(params);

describe.each(databaseTargets)('building rows on $name', ({ target }) => {
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
    for (const buildingId of [BUILDING, OTHER_BUILDING]) {
      await ensureBuilding({ orgId: owner.orgId, buildingId, name: buildingId, timeZone: 'UTC' });
    }
    await ensureBuilding({ orgId: other.orgId, buildingId: BUILDING, name: 'B', timeZone: 'UTC' });
    for (const [index, unit] of UNITS.entries()) {
      const thermostatId = id(index);
      await addThermostat({
        orgId: owner.orgId,
        thermostatId,
        buildingId: BUILDING,
        unitLabel: unit.label,
      });
      if (unit.label === '') continue;
      await saveReading({
        orgId: owner.orgId,
        thermostatId,
        status: {
          thermostatId,
          isResidentMode: index % 2 === 0,
          setPoint: { desiredHeat: 60 + index, desiredCool: 80 - index },
          hvacMode: unit.mode,
          ...(unit.temperature === undefined ? {} : { temperature: unit.temperature }),
          connected: unit.connected ?? true,
          humidity: 40,
        },
        sample: NO_SAMPLE,
        at: new Date(Date.now() - (index + 1) * 60_000),
      });
    }
    await addThermostat({
      orgId: owner.orgId,
      thermostatId: id(90),
      buildingId: OTHER_BUILDING,
      unitLabel: 'Elsewhere',
    });
    await addThermostat({
      orgId: other.orgId,
      thermostatId: id(91),
      buildingId: BUILDING,
      unitLabel: 'Unit 1',
    });
  });

  const labels = async (params: Record<string, string> = {}, member = owner) =>
    (
      await listBuildingRows({
        scope: member,
        buildingId: BUILDING,
        view: view(params),
        limit: null,
      })
    ).map((row) => row.unitLabel || row.thermostatId);

  it('sorts units naturally, in the organisation and building only', async () => {
    expect(await labels()).toEqual([
      id(5),
      'lobby',
      'Unit 99',
      'Unit 100%_x',
      'Unit 101',
      'Unit 0102',
      'Unit 1001',
    ]);
    expect(await labels({ dir: 'desc' })).toEqual([
      'Unit 1001',
      'Unit 0102',
      'Unit 101',
      'Unit 100%_x',
      'Unit 99',
      'lobby',
      id(5),
    ]);
  });

  it('sorts by a reading either way, rows without one last, and a failed read after those with one', async () => {
    expect(await labels({ sort: 'temperature' })).toEqual([
      'lobby',
      'Unit 101',
      'Unit 100%_x',
      'Unit 1001',
      'Unit 99',
      id(5),
      'Unit 0102',
    ]);
    expect((await labels({ sort: 'temperature', dir: 'desc' })).slice(0, 2)).toEqual([
      'Unit 99',
      'Unit 1001',
    ]);
    await saveReadFailure({ orgId: owner.orgId, thermostatId: id(3), failure: 'unavailable' });
    const failedLast = await labels({ sort: 'temperature' });
    expect(failedLast.at(-1)).toBe('lobby');
    // Connection: offline first ascending.
    expect((await labels({ sort: 'connection' }))[0]).toBe('Unit 99');
    // Oldest reading first; never read last.
    expect(await labels({ sort: 'read' })).toEqual([
      'Unit 100%_x',
      'Unit 0102',
      'lobby',
      'Unit 99',
      'Unit 101',
      'Unit 1001',
      id(5),
    ]);
  });

  it('searches labels and ids as typed (wildcards are text), and filters by stored status', async () => {
    expect(await labels({ q: 'unit 10' })).toEqual(['Unit 100%_x', 'Unit 101', 'Unit 1001']);
    expect(await labels({ q: '%_' })).toEqual(['Unit 100%_x']);
    expect(await labels({ q: id(5) })).toEqual([id(5)]);
    expect(await labels({ mode: 'heat' })).toEqual(['Unit 99', 'Unit 100%_x', 'Unit 1001']);
    expect(await labels({ connection: 'offline' })).toEqual(['Unit 99']);
    expect(await labels({ connection: 'unread' })).toEqual([id(5)]);
    expect(await labels({ resident: 'off' })).toEqual(['lobby', 'Unit 101']);
    expect(await labels({ resident: 'off', mode: 'cool' })).toEqual(['Unit 101']);
    await saveReadFailure({ orgId: owner.orgId, thermostatId: id(1), failure: 'unavailable' });
    expect(await labels({ connection: 'unread' })).toEqual([id(5), 'Unit 101']);
  });

  it('pages, and counts the building and what matches', async () => {
    const page = async (n: number) =>
      (
        await listBuildingRows({
          scope: owner,
          buildingId: BUILDING,
          view: view({ per: '50' }),
          limit: 3,
          offset: (n - 1) * 3,
        })
      ).map((row) => row.unitLabel || row.thermostatId);
    expect([...(await page(1)), ...(await page(2)), ...(await page(3))]).toEqual(await labels());
    await saveReadFailure({ orgId: owner.orgId, thermostatId: id(2), failure: 'unavailable' });
    expect(
      await summarizeBuildingRows({
        scope: owner,
        buildingId: BUILDING,
        view: view({ mode: 'heat' }),
      }),
    ).toEqual({ total: 7, matching: 3, failing: 1, unread: 1, offline: 1 });
  });

  it('reads the stored status into typed fields, and null where the status has another type', async () => {
    await saveReading({
      orgId: owner.orgId,
      thermostatId: id(0),
      status: {
        isResidentMode: 'yes',
        setPoint: { desiredHeat: 65.25, desiredCool: '78' },
        temperature: 70.5,
        hvacMode: 7,
        comfortSetting: 'Home',
        connected: false,
      },
      sample: { ...NO_SAMPLE, connected: false },
    });
    await recordPendingMode({ orgId: owner.orgId, thermostatId: id(0), mode: 'cool' });
    const [row] = await listBuildingRows({
      scope: owner,
      buildingId: BUILDING,
      view: view({ q: 'Unit 1001' }),
      limit: 1,
    });
    expect(row).toMatchObject({
      thermostatId: id(0),
      stale: false,
      temperature: 70.5,
      desiredHeat: 65.25,
      desiredCool: null,
      hvacMode: null,
      isResidentMode: null,
      connected: false,
      humidity: null,
      comfortSetting: 'Home',
      failure: null,
      // Setpoint's own: the mode it asked for, and since when its readings showed it offline.
      pendingMode: 'cool',
    });
    expect(row?.readAt).toBeInstanceOf(Date);
    expect(row?.offlineSince?.getTime()).toBe(row?.readAt?.getTime());
  });

  it('says which rows are stale: read too long ago, never, or asked for fresh', async () => {
    const stale = async () =>
      (
        await listBuildingRows({
          scope: owner,
          buildingId: BUILDING,
          view: view({ sort: 'read', dir: 'desc' }),
          limit: null,
          freshSince: new Date(Date.now() - 150_000),
        })
      ).map((row) => [row.unitLabel || row.thermostatId, row.stale]);
    // Read 1, 2, 3, ... minutes ago; never for id(5).
    expect((await stale()).slice(0, 3)).toEqual([
      ['Unit 1001', false],
      ['Unit 101', false],
      ['Unit 99', true],
    ]);
    expect((await stale()).at(-1)).toEqual([id(5), true]);
    await markWanted({ orgId: owner.orgId, thermostatIds: [id(0)] });
    expect((await stale())[0]).toEqual(['Unit 1001', true]);
  });

  it('shows a building manager only their buildings', async () => {
    const manager = await inviteAndAccept(owner.orgId, 'manager@example.com', 'building_manager', [
      OTHER_BUILDING,
    ]);
    expect(await labels({}, manager)).toEqual([]);
    expect(
      await summarizeBuildingRows({ scope: manager, buildingId: BUILDING, view: view() }),
    ).toMatchObject({ total: 0 });
    expect(
      (
        await listBuildingRows({
          scope: manager,
          buildingId: OTHER_BUILDING,
          view: view(),
          limit: null,
        })
      ).map((row) => row.unitLabel),
    ).toEqual(['Elsewhere']);
  });

  it('keeps the natural sort key up to date as a label changes', async () => {
    await handle.db.execute(
      sql`update thermostats set unit_label = 'Unit 2' where org_id = ${owner.orgId} and thermostat_id = ${id(0)}`,
    );
    expect((await labels()).slice(0, 4)).toEqual([id(5), 'lobby', 'Unit 2', 'Unit 99']);
  });
});
