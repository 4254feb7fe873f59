import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// Before anything reads the configuration: the building page asks it how fresh rows must be.
Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-building-attention-')),
  READINGS_TARGET_MINUTES: '0',
  NEXTAUTH_URL: 'http://localhost',
});

const { filterSql } = await import('@/lib/readings/building-rows-store');
const { addThermostat, ensureBuilding } = await import('@/lib/portfolio/store');
const { listBuildingRows, saveReading, summarizeBuildingRows } = await import(
  '@/lib/readings/store'
);
const { rowCells } = await import('@/lib/readings/row-cells');
const { buildingPage } = await import('@/lib/readings/rows');
const { DEFAULT_VIEW, isCanonical, isFiltered, parseBuildingView, viewQuery } = await import(
  '@/lib/readings/view'
);
const { databaseTargets, useDatabase } = await import('../support/database');
const { createFirstOwner, inviteAndAccept } = await import('../support/members');

import type { DatabaseHandle } from '@/lib/db/client';
import type { Member } from '@/lib/auth/store';

/**
 * The building table and what needs attention: each row flagged with its items' titles, and a
 * "Needs attention" filter that lives in the address like the others and is applied by the
 * database (with the ids lib/attention works out), so counts and pages agree.
 */

const dialect = new PgDialect();
const render = (query: Parameters<PgDialect['sqlToQuery']>[0]) => dialect.sqlToQuery(query);

describe('the needs-attention filter in the address', () => {
  it('reads, writes and clears it like the other filters', () => {
    const view = parseBuildingView({ attention: 'needs', mode: 'heat' });
    expect(view).toMatchObject({ attention: 'needs', mode: 'heat' });
    expect(viewQuery(view)).toBe('?mode=heat&attention=needs');
    expect(isFiltered(parseBuildingView({ attention: 'needs' }))).toBe(true);
    expect(isCanonical({ attention: 'needs' }, parseBuildingView({ attention: 'needs' }))).toBe(
      true,
    );
    // Anything else is no filter, and the address is cleaned of it.
    expect(parseBuildingView({ attention: 'all' }).attention).toBeUndefined();
    expect(isCanonical({ attention: '' }, parseBuildingView({ attention: '' }))).toBe(false);
    expect(viewQuery(view, { attention: undefined })).toBe('?mode=heat');
    expect(viewQuery(DEFAULT_VIEW, { attention: 'needs' })).toBe('?attention=needs');
  });

  it('keeps the thermostats named as needing attention, and none when none do', () => {
    const view = parseBuildingView({ attention: 'needs' });
    const kept = filterSql(view, ['700000000001', '700000000002']);
    expect(kept && render(kept)).toMatchObject({
      sql: 't.thermostat_id in ($1, $2)',
      params: ['700000000001', '700000000002'],
    });
    const none = filterSql(view, []);
    expect(none && render(none).sql).toBe('false');
    // No filter asked for: the ids change nothing.
    expect(filterSql(DEFAULT_VIEW, ['700000000001'])).toBeNull();
  });

  it('flags a row with what it needs attention for, and nothing when it needs nothing', () => {
    const reading = { status: null, readAt: null, problem: null };
    const format = { unit: 'F' as const, timeZone: 'UTC', now: Date.now() };
    const row = { thermostatId: '700000000001', unitLabel: 'Unit 1' };
    expect(
      rowCells({ ...row, attention: ['Offline', 'Maintenance overdue'] }, reading, format, {
        quiet: false,
      }).attention,
    ).toEqual(['Offline', 'Maintenance overdue']);
    expect(rowCells({ ...row, attention: [] }, reading, format, { quiet: false }).attention).toBe(
      undefined,
    );
  });
});

const BUILDING = 'aaaaaaaaaaaaaaaaaaaaaaa9';
const OTHER = 'ccccccccccccccccccccccc9';
const id = (n: number) => `90000000000${n}`;

describe.each(databaseTargets)('a building’s rows that need attention on $name', ({ target }) => {
  let handle: DatabaseHandle;
  let owner: Member;

  beforeAll(async () => {
    handle = await useDatabase(await target());
  });
  afterAll(async () => {
    await handle.close();
  });
  beforeEach(async () => {
    await handle.db.execute(sql`truncate users, organizations cascade`);
    owner = await createFirstOwner();
    for (const buildingId of [BUILDING, OTHER]) {
      await ensureBuilding({ orgId: owner.orgId, buildingId, name: buildingId, timeZone: 'UTC' });
    }
    for (const n of [1, 2, 3, 4]) {
      await addThermostat({
        orgId: owner.orgId,
        thermostatId: id(n),
        buildingId: n === 4 ? OTHER : BUILDING,
        unitLabel: `Unit ${n}`,
      });
      await saveReading({
        orgId: owner.orgId,
        thermostatId: id(n),
        status: { temperature: 70, connected: n !== 2, hvacMode: 'heat' },
        sample: {
          temperature: null,
          humidity: null,
          desiredHeat: null,
          desiredCool: null,
          hvacMode: null,
          equipment: null,
          connected: null,
        },
      });
    }
  });

  it('filters and counts by the ids given, in the member’s scope', async () => {
    const view = parseBuildingView({ attention: 'needs' });
    const input = { scope: owner, buildingId: BUILDING, view, attention: [id(2), id(4)] };
    const rows = await listBuildingRows({ ...input, limit: null });
    // Unit 4 is in another building: the building's own rows only.
    expect(rows.map((row) => row.thermostatId)).toEqual([id(2)]);
    expect(await summarizeBuildingRows(input)).toMatchObject({ total: 3, matching: 1 });

    const manager = await inviteAndAccept(owner.orgId, 'm@example.com', 'building_manager', [
      OTHER,
    ]);
    expect(await listBuildingRows({ ...input, scope: manager, limit: null })).toEqual([]);
  });

  it('gives the page its rows flagged, and only those under the filter', async () => {
    const attention = new Map([[id(2), ['Offline']]]);
    const all = await buildingPage({
      scope: owner,
      buildingId: BUILDING,
      view: DEFAULT_VIEW,
      connection: 'not_connected',
      attention,
    });
    expect(all.rows.map((row) => [row.unitLabel, row.attention])).toEqual([
      ['Unit 1', []],
      ['Unit 2', ['Offline']],
      ['Unit 3', []],
    ]);
    const needs = await buildingPage({
      scope: owner,
      buildingId: BUILDING,
      view: parseBuildingView({ attention: 'needs' }),
      connection: 'not_connected',
      attention,
    });
    expect(needs.rows.map((row) => row.unitLabel)).toEqual(['Unit 2']);
    expect(needs.summary).toMatchObject({ total: 3, matching: 1 });
    // Nothing needs attention: the filter keeps nothing.
    const nothing = await buildingPage({
      scope: owner,
      buildingId: BUILDING,
      view: parseBuildingView({ attention: 'needs' }),
      connection: 'not_connected',
      attention: new Map(),
    });
    expect(nothing.rows).toEqual([]);
    expect(nothing.summary.matching).toBe(0);
  });
});
