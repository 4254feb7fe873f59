import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Member } from '@/lib/auth/store';
import type { DatabaseHandle } from '@/lib/db/client';
import type { RunningSandbox } from '@/sandbox/src/server';
import { templateSchema } from '@/lib/templates/schema';
import { useDatabase } from '../support/database';
import { callCount, connectedOwner, control, startServiceForTests } from '../support/service';

/**
 * Turnover as one run (issue 36): a unit moved out plans and runs the vacant policy on its
 * thermostat at the sandbox (snapshot, resident mode off, the wait for the reset to show, the
 * vacant template, a read back), one run however often the move-out is replayed, each step once
 * across a restart, a plain failure with the snapshot kept when the reset never shows, and an
 * undo that puts the thermostat back.
 */

let sandbox: RunningSandbox;
let handle: DatabaseHandle;
let owner: Member;
let viewer: Member;
const thermostatIds: string[] = [];
let buildingId = '';

type Lib = {
  recordOccupancy: typeof import('@/app/(app)/units/[unitId]/actions').recordOccupancy;
  findUnitOfThermostat: typeof import('@/lib/units/store').findUnitOfThermostat;
  listUnitEvents: typeof import('@/lib/units/store').listUnitEvents;
  workOccupancyRun: typeof import('../support/runs').workOccupancyRun;
  workPlannedRun: typeof import('../support/runs').workPlannedRun;
  clearBulkRunLeases: typeof import('@/lib/runs/store').clearBulkRunLeases;
  planUndoOfRun: typeof import('@/lib/templates/runs').planUndoOfRun;
  applyPlannedRun: typeof import('@/lib/templates/runs').applyPlannedRun;
  schema: typeof import('@/lib/db/schema');
  session: { member: Member | null };
};
let lib: Lib;

const RESIDENT = 'PATCH /api/v2/thermostats/:id/residentMode';
const CREATE_COMFORT = 'POST /api/v2/thermostats/:id/comfortSettings';

const VACANT = templateSchema.parse({
  name: 'Vacant unit',
  comfortSettings: [{ name: 'Vacant', desiredHeat: 55, desiredCool: 85 }],
  schedule: Array.from({ length: 7 }, () => Array.from({ length: 48 }, () => 'Vacant')),
  configuration: { holdAction: 'indefinite' },
});

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

beforeAll(async () => {
  sandbox = await startServiceForTests();
  handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
  const { vi } = await import('vitest');
  const session = { member: null as Member | null };
  vi.doMock('@/lib/auth/session', () => ({
    getCurrentMember: async () => session.member,
    requireMember: async () => {
      if (!session.member) throw new Error('not signed in');
      return session.member;
    },
  }));
  vi.doMock('next/cache', () => ({ revalidatePath: () => {} }));
  const [actions, store, runs, runStore, templateRuns, schema, portfolio, templates, members] =
    await Promise.all([
      import('@/app/(app)/units/[unitId]/actions'),
      import('@/lib/units/store'),
      import('../support/runs'),
      import('@/lib/runs/store'),
      import('@/lib/templates/runs'),
      import('@/lib/db/schema'),
      import('@/lib/portfolio/store'),
      import('@/lib/templates/store'),
      import('../support/members'),
    ]);
  lib = {
    recordOccupancy: actions.recordOccupancy,
    findUnitOfThermostat: store.findUnitOfThermostat,
    listUnitEvents: store.listUnitEvents,
    workOccupancyRun: runs.workOccupancyRun,
    workPlannedRun: runs.workPlannedRun,
    clearBulkRunLeases: runStore.clearBulkRunLeases,
    planUndoOfRun: templateRuns.planUndoOfRun,
    applyPlannedRun: templateRuns.applyPlannedRun,
    schema,
    session,
  };
  owner = await connectedOwner(sandbox);
  const demo = (await control(sandbox, 'GET', '/portfolio?user=demo')) as {
    buildings: { buildingId: string; name: string; timeZone: string }[];
    thermostats: { thermostatId: string; name: string; buildingId: string }[];
  };
  // Homes with resident mode on, online, in one building.
  const homes: string[] = [];
  for (const thermostat of demo.thermostats) {
    if (thermostat.name.endsWith('(offline)')) continue;
    const device = (await control(sandbox, 'GET', `/thermostats/${thermostat.thermostatId}`)) as {
      isResidentMode: boolean;
      buildingId: string;
    };
    if (!device.isResidentMode) continue;
    if (homes.length > 0 && device.buildingId !== buildingId) continue;
    buildingId = device.buildingId;
    homes.push(thermostat.thermostatId);
    if (homes.length === 4) break;
  }
  const building = demo.buildings.find((candidate) => candidate.buildingId === buildingId);
  if (!building || homes.length < 4) throw new Error('the demo has no building of four homes');
  await portfolio.ensureBuilding({ orgId: owner.orgId, ...building });
  for (const [index, thermostatId] of homes.entries()) {
    await portfolio.addThermostat({
      orgId: owner.orgId,
      thermostatId,
      buildingId,
      unitLabel: `Apt ${index + 1}`,
    });
    thermostatIds.push(thermostatId);
  }
  const made = await templates.createTemplate({ member: owner, template: VACANT });
  if (!made.ok) throw new Error('template not created');
  viewer = await members.inviteAndAccept(owner.orgId, 'viewer@turnover.example', 'viewer');
}, 60_000);

afterAll(async () => {
  const { stopBoss } = await import('@/lib/queue/queue');
  await stopBoss();
  await handle?.close();
  await sandbox?.close();
});

beforeEach(async () => {
  await control(sandbox, 'PATCH', '/knobs', { residentModeDelayMs: 0 });
});

const device = async (thermostatId: string) =>
  (await control(sandbox, 'GET', `/thermostats/${thermostatId}`)) as {
    isResidentMode: boolean;
  };
const comfortNames = async (thermostatId: string) => {
  const { listComfortSettings } = await import('@/lib/service/resources');
  const settings = await listComfortSettings({ orgId: owner.orgId, thermostatId });
  return settings.map((setting) => setting.name);
};

async function moveOut(thermostatId: string, as: Member = owner) {
  const unit = await lib.findUnitOfThermostat({ scope: owner, thermostatId });
  if (!unit) throw new Error('no unit');
  lib.session.member = as;
  const state = await lib.recordOccupancy(unit.id, { status: 'idle' }, form({ event: 'move_out' }));
  return { unit, state };
}

async function occupancyRuns(unitId: string) {
  const { bulkRuns } = lib.schema;
  return handle.db
    .select()
    .from(bulkRuns)
    .where(and(eq(bulkRuns.kind, 'occupancy'), sql`${bulkRuns.changes} ->> 'unitId' = ${unitId}`));
}

async function itemOf(runId: string) {
  const { bulkRunItems } = lib.schema;
  const [item] = await handle.db.select().from(bulkRunItems).where(eq(bulkRunItems.runId, runId));
  if (!item) throw new Error('no item');
  return item;
}

/** Works the run as the queue would, pauses waited out, until it ends (or `max` turns). */
async function workUntilEnd(runId: string, options: { waitMs?: number; max?: number } = {}) {
  const outcomes: string[] = [];
  for (let turn = 0; turn < (options.max ?? 40); turn += 1) {
    const outcome = await lib.workOccupancyRun({
      runId,
      waitMs: options.waitMs ?? 60_000,
      pollMs: 20,
    });
    outcomes.push(outcome);
    if (outcome === 'finished' || outcome === 'cancelled') return outcomes;
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  return outcomes;
}

describe('turnover', () => {
  it('a move-out runs the vacant policy as one run: snapshot, resident mode off, the reset shown, the template, checked', async () => {
    const thermostatId = thermostatIds[0] as string;
    const { unit, state } = await moveOut(thermostatId);
    expect(state.status).toBe('success');
    const [run] = await occupancyRuns(unit.id);
    expect(run).toMatchObject({ state: 'queued', total: 1, title: 'Apt 1: vacant settings' });
    const events = await lib.listUnitEvents({ orgId: owner.orgId, unitId: unit.id });
    expect(events[0]).toMatchObject({ toState: 'vacant', runId: run?.id });

    expect(await workUntilEnd(run?.id as string)).toContain('finished');
    const item = await itemOf(run?.id as string);
    expect(item.outcome).toBe('applied');
    const plan = item.plan as { steps: { step: string; done?: { detail: string } }[] };
    expect(plan.steps.map((step) => step.step)).toEqual([
      'snapshot',
      'resident_off',
      'wait_resident',
      'apply',
      'verify',
    ]);
    expect(plan.steps.every((step) => step.done)).toBe(true);
    expect(plan.steps[4]?.done?.detail).toBe('Every section matches.');
    // The snapshot holds what an undo needs: the state before, resident mode on.
    expect(item.before).toMatchObject({ isResidentMode: true });
    expect((await device(thermostatId)).isResidentMode).toBe(false);
    expect(await callCount(sandbox, RESIDENT)).toBe(1);
    // The unit's page and list say it is in its vacant settings, from this run.
    const { settingsOfUnits } = await import('@/lib/units/settings');
    const now = await lib.findUnitOfThermostat({ scope: owner, thermostatId });
    const other = await lib.findUnitOfThermostat({
      scope: owner,
      thermostatId: thermostatIds[1] as string,
    });
    const settings = await settingsOfUnits(
      owner.orgId,
      [now, other].filter((u) => u !== null),
    );
    expect(settings.get(unit.id)).toMatchObject({ status: 'matches', runId: run?.id });
    expect(settings.get(other?.id as string)).toEqual({ status: 'unknown' });
  });

  it('a move-out replayed three times is one run', async () => {
    const thermostatId = thermostatIds[1] as string;
    const first = await moveOut(thermostatId);
    const again = [await moveOut(thermostatId), await moveOut(thermostatId)];
    for (const replay of again) {
      expect(replay.state).toMatchObject({ status: 'success' });
      expect(replay.state.message).toMatch(/already vacant; nothing changed/);
    }
    expect(await occupancyRuns(first.unit.id)).toHaveLength(1);
  });

  it('waits for the reset to show, and across a restart sends each step once', async () => {
    const thermostatId = thermostatIds[2] as string;
    const residentCalls = await callCount(sandbox, RESIDENT);
    const creates = await callCount(sandbox, CREATE_COMFORT);
    await control(sandbox, 'PATCH', '/knobs', { residentModeDelayMs: 600_000 });
    const { unit } = await moveOut(thermostatId);
    const [run] = await occupancyRuns(unit.id);
    const runId = run?.id as string;
    // Resident mode off sent; the service does not show it yet: the run pauses.
    expect(await lib.workOccupancyRun({ runId, waitMs: 60_000, pollMs: 20 })).toBe('paused');
    const waiting = await itemOf(runId);
    expect(waiting.outcome).toBe('pending');
    expect((waiting.plan as { steps: { done?: unknown }[] }).steps.map((s) => !!s.done)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    // Setpoint stops here and starts again: its leases are gone.
    await lib.clearBulkRunLeases();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await lib.workOccupancyRun({ runId, waitMs: 60_000, pollMs: 20 })).toBe('paused');
    // The device applies it (ten minutes on the sandbox clock): the run goes on to the end.
    await control(sandbox, 'POST', '/clock/advance', { seconds: 601 });
    expect(await workUntilEnd(runId)).toContain('finished');
    expect((await itemOf(runId)).outcome).toBe('applied');
    expect(await callCount(sandbox, RESIDENT)).toBe(residentCalls + 1);
    expect(await callCount(sandbox, CREATE_COMFORT)).toBe(creates + 1);
  });

  it('a reset that does not show before the deadline fails the run in words, the snapshot kept and nothing else sent', async () => {
    const thermostatId = thermostatIds[3] as string;
    const creates = await callCount(sandbox, CREATE_COMFORT);
    await control(sandbox, 'PATCH', '/knobs', { residentModeDelayMs: 3_600_000 });
    const { unit } = await moveOut(thermostatId);
    const [run] = await occupancyRuns(unit.id);
    const runId = run?.id as string;
    const outcomes = await workUntilEnd(runId, { waitMs: 150 });
    expect(outcomes[0]).toBe('paused');
    expect(outcomes.at(-1)).toBe('finished');
    const item = await itemOf(runId);
    expect(item.outcome).toBe('failed');
    expect(item.detail).toMatch(/did not show resident mode off within 15 minutes/);
    expect(item.detail).toMatch(/snapshot is kept: undo this run/);
    expect(item.before).toMatchObject({ isResidentMode: true });
    expect(await callCount(sandbox, CREATE_COMFORT)).toBe(creates);
    const { bulkRuns } = lib.schema;
    const [ended] = await handle.db.select().from(bulkRuns).where(eq(bulkRuns.id, runId));
    expect(ended).toMatchObject({ state: 'done', failed: 1, applied: 0 });
  });

  it('undo of a turnover puts the thermostat back: resident mode on, its own comfort settings', async () => {
    const thermostatId = thermostatIds[0] as string;
    const unit = await lib.findUnitOfThermostat({ scope: owner, thermostatId });
    const [run] = await occupancyRuns(unit?.id as string);
    const undo = await lib.planUndoOfRun({ member: owner, runId: run?.id as string });
    if (!undo.ok) throw new Error(undo.message);
    expect(await lib.workPlannedRun({ runId: undo.run.id })).toBe('finished');
    const applied = await lib.applyPlannedRun({ member: owner, runId: undo.run.id });
    expect(applied.ok).toBe(true);
    expect(await lib.workPlannedRun({ runId: undo.run.id })).toBe('finished');
    expect((await device(thermostatId)).isResidentMode).toBe(true);
    const before = (await itemOf(run?.id as string)).before as {
      comfortSettings: { name: string; desiredHeat: number; desiredCool: number }[];
    };
    // A setting closer than the reset's 5 °F gap comes back with its cooling raised, and says so.
    const close = before.comfortSettings.filter((s) => s.desiredCool - s.desiredHeat < 5);
    expect(close.length).toBeGreaterThan(0);
    expect(undo.run.changes.notes).toEqual(
      expect.arrayContaining(
        close.map((s) => ({
          kind: 'coolRaised',
          name: s.name,
          was: s.desiredCool,
          now: s.desiredHeat + 5,
        })),
      ),
    );
    const now = await comfortNames(thermostatId);
    // Every setting it had is back; the one the turnover created is kept (an undo deletes nothing).
    for (const setting of before.comfortSettings) expect(now).toContain(setting.name);
    expect(now).toContain('Vacant');
  });

  it('a viewer may not record a move-out: refused before any run or call', async () => {
    const thermostatId = thermostatIds[3] as string;
    const unit = await lib.findUnitOfThermostat({ scope: owner, thermostatId });
    const before = await occupancyRuns(unit?.id as string);
    lib.session.member = viewer;
    const state = await lib.recordOccupancy(
      unit?.id as string,
      { status: 'idle' },
      form({ event: 'move_in' }),
    );
    expect(state.status).toBe('error');
    expect(await occupancyRuns(unit?.id as string)).toHaveLength(before.length);
  });
});
