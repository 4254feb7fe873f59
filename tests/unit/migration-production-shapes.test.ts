import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStoredStatus } from '@/lib/readings/read';
import { templateSchema } from '@/lib/templates/schema';
import { undoOf } from '@/lib/templates/undo/entries';
import { databaseTargets } from '../support/database';
import {
  MIGRATIONS,
  migrationIndex,
  migrationsUpTo,
  type Opened,
  openUnmigrated,
} from '../support/migrations';

/**
 * 0016 on a database that today's migrations made and today's app filled: readings kept in the
 * shape the sandbox used to send become Setpoint's own (when each was last seen connected now a
 * column of Setpoint's), and stored templates, plans, undo states and activity entries say slots
 * and the production hold actions. Nothing else changes, and the rows still read.
 */
const SHAPES = '0016_readings_in_setpoint_shape';
const ORG = '33333333-3333-4333-8333-333333333333';
const BUILDING = '0000000000000000000b0001';
const ONLINE = '100000000001';
const OFFLINE = '100000000002';
const UNREAD = '100000000003';
const ODD = '100000000004';
const RUN = '44444444-4444-4444-8444-444444444444';
const LAST_SEEN = '2026-11-25T08:15:00.000Z';
const READ_AT = '2026-11-28T10:00:00.000Z';

const oldStatus = (thermostatId: string, fields: Record<string, unknown>) => ({
  thermostatId,
  name: 'Unit',
  buildingId: BUILDING,
  hvacMode: 'heat',
  pendingHvacMode: null,
  supportedModes: ['heat', 'cool', 'auto', 'off'],
  temperature: 70.5,
  humidity: 41,
  isResidentMode: true,
  setPoint: { desiredHeat: 69, desiredCool: 76 },
  heatCoolMinDelta: 5,
  currentComfortSettingRef: 'smart1',
  holdAction: 'nextPeriod',
  equipmentStatus: 'heatPump,fan',
  connected: true,
  lastSeen: '2026-11-28T09:59:00.000Z',
  ...fields,
});

/** A template as today's app stored it: schedule ranges by block, the consumer hold actions. */
const oldTemplate = {
  name: 'Vacant unit',
  comfortSettings: [{ name: 'Vacant', desiredHeat: 60, desiredCool: 84 }],
  scheduleRanges: [
    { days: ['monday', 'tuesday'], firstTimeBlock: 0, lastTimeBlock: 47, name: 'Vacant' },
  ],
  configuration: { holdAction: 'useEndTime2hour', fanMinimumOnTime: 5 },
};

async function fillTodaysShapes(opened: Opened) {
  const run = (query: SQL) => opened.db.execute(query);
  await run(sql`insert into organizations (id, name) values (${ORG}, 'Reyes Property')`);
  await run(sql`insert into buildings (org_id, building_id, name, time_zone)
    values (${ORG}, ${BUILDING}, 'Maple Court', 'America/Chicago')`);
  for (const id of [ONLINE, OFFLINE, UNREAD, ODD]) {
    await run(sql`insert into thermostats (org_id, thermostat_id, building_id, unit_label)
      values (${ORG}, ${id}, ${BUILDING}, ${`Unit ${id.slice(-1)}`})`);
  }
  const reading = (id: string, status: unknown) =>
    run(sql`insert into readings (org_id, thermostat_id, status, read_at, tried_at)
      values (${ORG}, ${id}, ${JSON.stringify(status)}::jsonb, ${READ_AT}, ${READ_AT})`);
  await reading(ONLINE, oldStatus(ONLINE, {}));
  await reading(
    OFFLINE,
    oldStatus(OFFLINE, { connected: false, lastSeen: LAST_SEEN, equipmentStatus: '' }),
  );
  await run(sql`insert into readings (org_id, thermostat_id, tried_at, failure)
    values (${ORG}, ${UNREAD}, ${READ_AT}, 'unavailable')`);
  // A last-seen time that is not one: left out, never a failed migration.
  await reading(ODD, oldStatus(ODD, { connected: false, lastSeen: 'yesterday' }));
  await run(sql`insert into pending_mode_changes (org_id, thermostat_id, mode, since)
    values (${ORG}, ${ONLINE}, 'cool', ${READ_AT})`);
  await run(sql`insert into templates (org_id, name, body, updated_by_name)
    values (${ORG}, 'Vacant unit', ${JSON.stringify(oldTemplate)}::jsonb, 'Ana')`);
  await run(sql`insert into bulk_runs (id, org_id, started_by_name, kind, changes, total, state)
    values (${RUN}, ${ORG}, 'Ana', 'template', ${JSON.stringify(oldTemplate)}::jsonb, 1, 'done')`);
  const plan = {
    operations: [
      { kind: 'configuration', stage: 'before', changes: { holdAction: 'useEndTime4hour' } },
      {
        kind: 'schedule',
        days: ['monday'],
        firstTimeBlock: 14,
        lastTimeBlock: 35,
        comfortSetting: { name: 'Vacant' },
      },
    ],
  };
  await run(sql`insert into bulk_run_items (run_id, position, thermostat_id, building_id, outcome,
      plan_state, before, plan)
    values (${RUN}, 0, ${ONLINE}, ${BUILDING}, 'applied', 'changes',
      ${JSON.stringify({ configuration: { holdAction: 'nextPeriod' } })}::jsonb,
      ${JSON.stringify(plan)}::jsonb)`);
  await run(sql`insert into activity_log (org_id, actor_name, action, thermostat_id, building_id,
      summary, changes, outcome)
    values (${ORG}, 'Ana', 'configuration.update', ${ONLINE}, ${BUILDING}, 'Changed configuration',
      ${JSON.stringify({
        holdAction: { from: 'nextPeriod', to: 'useEndTime4hour' },
        // What an undo of it goes back to, as today's app kept it.
        undo: {
          target: { name: 'Before', configuration: { holdAction: 'nextPeriod' } },
          expected: { name: 'After', configuration: { holdAction: 'useEndTime4hour' } },
          notes: [],
          needsPasscode: false,
        },
      })}::jsonb,
      'success'),
    (${ORG}, 'Ana', 'schedule.update', ${ONLINE}, ${BUILDING}, 'Set Monday 07:00–18:00',
      ${JSON.stringify({ days: ['monday'], firstTimeBlock: 14, lastTimeBlock: 35, comfortSettingRef: 'smart1' })}::jsonb,
      'success')`);
}

describe.each(databaseTargets)('the production-shapes migration on $name', ({ target }) => {
  let folder: string;
  let opened: Opened;
  type Row = Record<string, unknown>;
  const rows = async (query: SQL) =>
    ((await opened.db.execute(query)) as unknown as { rows: Row[] }).rows;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'setpoint-migrations-'));
    migrationsUpTo(folder, migrationIndex(SHAPES));
    opened = await openUnmigrated(await target());
    await opened.migrate(folder);
    await fillTodaysShapes(opened);
    await opened.migrate(MIGRATIONS);
  });
  afterAll(async () => {
    await opened?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const readingOf = async (id: string) =>
    (
      await rows(sql`select status, read_at, last_connected_at, offline_since, failure
        from readings where thermostat_id = ${id}`)
    )[0];
  const iso = (value: unknown) => (value === null ? null : new Date(String(value)).toISOString());

  it('keeps each reading in Setpoint’s own shape, readable as before', async () => {
    const online = await readingOf(ONLINE);
    expect(online?.status).toEqual({
      isResidentMode: true,
      setPoint: { desiredHeat: 69, desiredCool: 76 },
      hvacMode: 'heat',
      connected: true,
      temperature: 70.5,
      humidity: 41,
      heatCoolMinDelta: 5,
      runningEquipment: ['heatPump', 'fan'],
    });
    expect(parseStoredStatus(online?.status)).toMatchObject({
      connected: true,
      runningEquipment: ['heatPump', 'fan'],
      comfortSetting: null,
    });
    const offline = await readingOf(OFFLINE);
    expect(parseStoredStatus(offline?.status)).toMatchObject({
      connected: false,
      runningEquipment: [],
    });
  });

  it('keeps when each was last seen connected, and since when offline, as Setpoint’s own', async () => {
    const online = await readingOf(ONLINE);
    expect(iso(online?.last_connected_at)).toBe(READ_AT);
    expect(online?.offline_since).toBeNull();
    const offline = await readingOf(OFFLINE);
    expect(iso(offline?.last_connected_at)).toBe(LAST_SEEN);
    expect(iso(offline?.offline_since)).toBe(LAST_SEEN);
    const odd = await readingOf(ODD);
    expect(odd?.last_connected_at).toBeNull();
    expect(iso(odd?.offline_since)).toBe(READ_AT);
    // A failed read keeps its failure, and nothing is made up for it.
    expect(await readingOf(UNREAD)).toMatchObject({
      status: null,
      last_connected_at: null,
      failure: 'unavailable',
    });
  });

  it('forgets the pending modes the service used to report (Setpoint’s own come from its writes)', async () => {
    expect(await rows(sql`select * from pending_mode_changes`)).toEqual([]);
  });

  it('says slots and production hold actions in templates, runs, plans and activity', async () => {
    const [template] = await rows(sql`select body from templates`);
    const parsed = templateSchema.safeParse(template?.body);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(template?.body).toMatchObject({
      scheduleRanges: [{ firstSlot: 0, lastSlot: 47 }],
      configuration: { holdAction: '2hour' },
    });
    const [run] = await rows(sql`select changes from bulk_runs`);
    expect(run?.changes).toEqual(template?.body);
    const [item] = await rows(sql`select before, plan from bulk_run_items`);
    expect(item?.before).toEqual({ configuration: { holdAction: 'nextTransition' } });
    expect(JSON.stringify(item?.plan)).not.toMatch(/TimeBlock|useEndTime|nextPeriod/);
    expect(item?.plan).toMatchObject({
      operations: [{ changes: { holdAction: '4hour' } }, { firstSlot: 14, lastSlot: 35 }],
    });
    const activity = await rows(sql`select action, changes, outcome, thermostat_id as "thermostatId"
      from activity_log order by id`);
    expect(activity.map((entry) => entry.changes)).toEqual([
      {
        holdAction: { from: 'nextTransition', to: '4hour' },
        undo: {
          target: { name: 'Before', configuration: { holdAction: 'nextTransition' } },
          expected: { name: 'After', configuration: { holdAction: '4hour' } },
          notes: [],
          needsPasscode: false,
        },
      },
      { days: ['monday'], firstSlot: 14, lastSlot: 35, comfortSettingRef: 'smart1' },
    ]);
    // The migrated entry can still be undone, to the hold action it replaced.
    const [entry] = activity;
    const undo = undoOf({
      action: String(entry?.action),
      changes: entry?.changes,
      outcome: String(entry?.outcome),
      thermostatId: String(entry?.thermostatId),
    });
    expect(undo).toMatchObject({
      ok: true,
      target: { configuration: { holdAction: 'nextTransition' } },
    });
  });
});
