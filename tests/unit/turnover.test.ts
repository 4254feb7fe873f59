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

/**
 * A day `days` from now (as a form writes it): the move-ins these tests schedule must be still to
 * come by the real clock, whenever the tests run.
 */
const daysAhead = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The next day the US clocks go forward (the second Sunday of March), at least two days off. */
function nextSpringForward(): string {
  for (let year = new Date().getUTCFullYear(); ; year += 1) {
    const firstOfMarch = new Date(Date.UTC(year, 2, 1)).getUTCDay();
    const day = Date.UTC(year, 2, 1 + ((7 - firstOfMarch) % 7) + 7);
    if (day > Date.now() + 2 * 86_400_000) return new Date(day).toISOString().slice(0, 10);
  }
}

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
    if (homes.length === 5) break;
  }
  const building = demo.buildings.find((candidate) => candidate.buildingId === buildingId);
  if (!building || homes.length < 5) throw new Error('the demo has no building of five homes');
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
    // A change by hand afterwards: no longer known to match.
    const { logActivity } = await import('@/lib/activity/sink');
    await logActivity({
      actor: { orgId: owner.orgId, userId: owner.userId, name: owner.name },
      action: 'schedule.update',
      summary: 'Schedule: Monday 9:00 to 17:00 Home',
      thermostatId,
    });
    const later = await settingsOfUnits(owner.orgId, now ? [now] : []);
    expect(later.get(unit.id)).toMatchObject({ status: 'changed', by: owner.name });
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

  it('a move-out corrected at once by a move-in: the turnover stops before it sends anything, and the occupied settings follow', async () => {
    const thermostatId = thermostatIds[1] as string;
    const unit = await lib.findUnitOfThermostat({ scope: owner, thermostatId });
    if (!unit) throw new Error('no unit');
    const [turnover] = await occupancyRuns(unit.id);
    const residentCalls = await callCount(sandbox, RESIDENT);
    lib.session.member = owner;
    await lib.recordOccupancy(unit.id, { status: 'idle' }, form({ event: 'move_in' }));
    const runs = await occupancyRuns(unit.id);
    expect(runs).toHaveLength(2);
    const moveIn = runs.find((run) => run.id !== turnover?.id);
    expect(await lib.workOccupancyRun({ runId: turnover?.id as string })).toBe('cancelled');
    expect((await itemOf(turnover?.id as string)).outcome).toBe('cancelled');
    expect(await workUntilEnd(moveIn?.id as string)).toContain('finished');
    expect((await itemOf(moveIn?.id as string)).outcome).toBe('applied');
    // Resident mode was on throughout: nothing turned it off, nothing needed to turn it on.
    expect(await callCount(sandbox, RESIDENT)).toBe(residentCalls);
    expect((await device(thermostatId)).isResidentMode).toBe(true);
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

  it('a turnover under way is not stopped by a later change: a move-in scheduled or made waits for it', async () => {
    const thermostatId = thermostatIds[4] as string;
    await control(sandbox, 'PATCH', '/knobs', { residentModeDelayMs: 600_000 });
    const { unit } = await moveOut(thermostatId);
    const [turnover] = await occupancyRuns(unit.id);
    const runId = turnover?.id as string;
    expect(await lib.workOccupancyRun({ runId, waitMs: 60_000, pollMs: 20 })).toBe('paused');
    lib.session.member = owner;
    await lib.recordOccupancy(
      unit.id,
      { status: 'idle' },
      form({ event: 'schedule_move_in', moveInDate: daysAhead(180), moveInTime: '10:00' }),
    );
    await lib.recordOccupancy(unit.id, { status: 'idle' }, form({ event: 'move_in' }));
    const { bulkRuns } = lib.schema;
    const runs = await occupancyRuns(unit.id);
    expect(runs).toHaveLength(2);
    // The turnover sent its reset: it is not asked to stop, and the move-in's run waits for it.
    expect(runs.find((run) => run.id === runId)?.cancelRequestedAt).toBeNull();
    const moveIn = runs.find((run) => run.id !== runId);
    expect(await lib.workOccupancyRun({ runId: moveIn?.id as string, pollMs: 20 })).toBe('paused');
    await control(sandbox, 'POST', '/clock/advance', { seconds: 601 });
    expect(await workUntilEnd(runId)).toContain('finished');
    expect((await itemOf(runId)).outcome).toBe('applied');
    await control(sandbox, 'PATCH', '/knobs', { residentModeDelayMs: 0 });
    expect(await workUntilEnd(moveIn?.id as string)).toContain('finished');
    expect((await itemOf(moveIn?.id as string)).outcome).toBe('applied');
    expect((await device(thermostatId)).isResidentMode).toBe(true);
    const [ended] = await handle.db.select().from(bulkRuns).where(eq(bulkRuns.id, runId));
    expect(ended?.state).toBe('done');
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
    // Needs attention lists it, leading to the unit; the unit whose turnover matched is not listed.
    const { listAttention } = await import('@/lib/attention/list');
    const { items } = await listAttention({ scope: owner });
    const unsettled = items.filter((item) => item.kind === 'vacant_unsettled');
    const mine = unsettled.find(
      (item) => item.kind === 'vacant_unsettled' && item.unitId === unit.id,
    );
    expect(mine).toMatchObject({
      runId,
      label: 'Apt 4',
      state: 'vacant',
      detail: expect.stringMatching(/did not show resident mode off/),
    });
    // The first unit matched, then was changed by hand: listed too, saying so; none twice.
    expect(unsettled.map((item) => item.label)).toEqual(['Apt 1', 'Apt 4']);
    expect(unsettled[0]).toMatchObject({
      detail: expect.stringMatching(/changed by .* after its vacant settings were checked/),
    });
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
    // The unit no longer says it matches its vacant settings: it was changed since the check.
    const { settingsOfUnits } = await import('@/lib/units/settings');
    const unitNow = await lib.findUnitOfThermostat({ scope: owner, thermostatId });
    const settings = await settingsOfUnits(owner.orgId, unitNow ? [unitNow] : []);
    expect(settings.get(unitNow?.id as string)).toMatchObject({ status: 'changed', by: null });
  });

  it('applying a unit’s settings again is refused to a viewer and outside a manager’s buildings, before any run', async () => {
    const { applySettingsAction } = await import('@/app/(app)/units/[unitId]/actions');
    const { inviteAndAccept } = await import('../support/members');
    const elsewhere = await inviteAndAccept(
      owner.orgId,
      'elsewhere@turnover.example',
      'building_manager',
      [],
    );
    const unit = await lib.findUnitOfThermostat({
      scope: owner,
      thermostatId: thermostatIds[3] as string,
    });
    const before = await occupancyRuns(unit?.id as string);
    for (const member of [viewer, elsewhere]) {
      lib.session.member = member;
      const state = await applySettingsAction(
        unit?.id as string,
        { status: 'idle' },
        new FormData(),
      );
      expect(state.status).toBe('error');
    }
    expect(await occupancyRuns(unit?.id as string)).toHaveLength(before.length);
  });

  it('a viewer may not record a move-in, nor replace the unit’s thermostat: refused before any run or service call', async () => {
    const thermostatId = thermostatIds[3] as string;
    const unit = await lib.findUnitOfThermostat({ scope: owner, thermostatId });
    const before = await occupancyRuns(unit?.id as string);
    const allCalls = async () => {
      const { calls } = (await control(sandbox, 'GET', '/calls')) as {
        calls: Record<string, number>;
      };
      return Object.entries(calls).filter(([route]) => route.includes('/api/v2/'));
    };
    const callsBefore = await allCalls();
    lib.session.member = viewer;
    const state = await lib.recordOccupancy(
      unit?.id as string,
      { status: 'idle' },
      form({ event: 'move_in' }),
    );
    expect(state.status).toBe('error');
    const { replaceThermostatAction } = await import('@/app/(app)/units/[unitId]/actions');
    const replaced = await replaceThermostatAction(
      unit?.id as string,
      { status: 'idle' },
      form({ thermostatId: '999999999999' }),
    );
    expect(replaced.status).toBe('error');
    expect(await occupancyRuns(unit?.id as string)).toHaveLength(before.length);
    expect((await lib.findUnitOfThermostat({ scope: owner, thermostatId }))?.id).toBe(unit?.id);
    expect(await allCalls()).toEqual(callsBefore);
  });
});

/**
 * A scheduled move-in prepared ahead (issue 36): its two steps at the right local times across a
 * daylight-saving change, each taken once however often the job asks (and after Setpoint was
 * down), moved with a new time, gone with a cancel.
 */
describe('move-in prepared ahead', () => {
  const LIVED_IN = templateSchema.parse({
    name: 'Lived in',
    comfortSettings: [{ name: 'Welcome', desiredHeat: 69, desiredCool: 76 }],
  });
  const localTime = (at: Date, timeZone: string) =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(at);

  async function stepsOf(unitId: string) {
    const { unitSteps } = lib.schema;
    return handle.db
      .select()
      .from(unitSteps)
      .where(eq(unitSteps.unitId, unitId))
      .orderBy(unitSteps.id);
  }

  async function schedule(unitId: string, moveInDate: string, moveInTime: string) {
    lib.session.member = owner;
    return lib.recordOccupancy(
      unitId,
      { status: 'idle' },
      form({ event: 'schedule_move_in', moveInDate, moveInTime }),
    );
  }

  beforeAll(async () => {
    // The organisation's occupied policy has a template to prepare: "Lived in", resident mode on.
    const { createTemplate } = await import('@/lib/templates/store');
    const { savePolicyRows } = await import('@/lib/units/policy-store');
    const made = await createTemplate({ member: owner, template: LIVED_IN });
    if (!made.ok) throw new Error('template not created');
    await savePolicyRows({
      orgId: owner.orgId,
      buildingId: '',
      byName: owner.name,
      policies: {
        occupied: { templateId: made.template.id, residentMode: 'on' },
        notice_given: 'inherit',
        vacant: 'inherit',
        make_ready: 'inherit',
        move_in_scheduled: 'inherit',
      },
    });
  });

  it('prepares the occupied comfort four hours ahead and moves the resident in at the time, in the building’s zone across a clock change, each step once', async () => {
    const { runDueUnitSteps, SCHEDULED } = await import('@/lib/units/scheduled');
    const thermostatId = thermostatIds[0] as string;
    const unit = await lib.findUnitOfThermostat({ scope: owner, thermostatId });
    if (!unit) throw new Error('no unit');
    // Resident mode off (as a vacant unit's is), so the move-in is what turns it on.
    const { setResidentMode } = await import('@/lib/service/resources');
    await setResidentMode({ orgId: owner.orgId, thermostatId, isResidentMode: false });
    // The US clocks go forward at 2 am on the second Sunday of March: a move-in at 4:30 am that
    // day is prepared four real hours before, at 11:30 pm the evening before (not 12:30 am).
    const clockChange = nextSpringForward();
    const dayOf = clockChange.slice(8, 10);
    const eve = String(Number(dayOf) - 1).padStart(2, '0');
    expect((await schedule(unit.id, clockChange, '04:30')).status).toBe('success');
    const [prepare, moveIn] = await stepsOf(unit.id);
    if (!prepare || !moveIn) throw new Error('no steps');
    expect(prepare).toMatchObject({ step: 'prepare', state: 'pending' });
    expect(moveIn).toMatchObject({ step: 'move_in', state: 'pending' });
    expect(localTime(moveIn.dueAt, unit.timeZone)).toBe(`${dayOf}, 04:30`);
    expect(localTime(prepare.dueAt, unit.timeZone)).toBe(`${eve}, 23:30`);
    expect(moveIn.dueAt.getTime() - prepare.dueAt.getTime()).toBe(4 * 3600_000);

    const at = (step: typeof prepare, seconds: number) =>
      new Date(step.dueAt.getTime() + seconds * 1000);
    expect(await runDueUnitSteps(at(prepare, -60))).toEqual({ taken: 0 });
    expect(await runDueUnitSteps(at(prepare, 1))).toEqual({ taken: 1 });
    // Asked again (another worker, the next minute, a restart): nothing is taken twice.
    expect(await runDueUnitSteps(at(prepare, 2))).toEqual({ taken: 0 });
    const prepared = (await stepsOf(unit.id))[0];
    expect(prepared).toMatchObject({ state: 'done' });
    const preparation = (await occupancyRuns(unit.id)).find((run) => run.id === prepared?.runId);
    expect(preparation?.changes).toMatchObject({ state: 'occupied', residentMode: null });
    expect(await workUntilEnd(prepared?.runId as string)).toContain('finished');
    expect(await comfortNames(thermostatId)).toContain('Welcome');
    expect((await device(thermostatId)).isResidentMode).toBe(false);
    expect((await lib.findUnitOfThermostat({ scope: owner, thermostatId }))?.occupancy.state).toBe(
      'move_in_scheduled',
    );

    expect(await runDueUnitSteps(at(moveIn, 1))).toEqual({ taken: 1 });
    expect(await runDueUnitSteps(at(moveIn, 2))).toEqual({ taken: 0 });
    const movedIn = (await stepsOf(unit.id))[1];
    expect(movedIn).toMatchObject({ state: 'done', result: 'Moved in.' });
    expect((await lib.findUnitOfThermostat({ scope: owner, thermostatId }))?.occupancy.state).toBe(
      'occupied',
    );
    const [event] = await lib.listUnitEvents({ orgId: owner.orgId, unitId: unit.id });
    expect(event).toMatchObject({ event: 'move_in', toState: 'occupied', actorName: SCHEDULED });
    expect(event?.runId).toBe(movedIn?.runId);
    expect(await workUntilEnd(movedIn?.runId as string)).toContain('finished');
    expect((await device(thermostatId)).isResidentMode).toBe(true);
  });

  it('a new time moves both steps, a cancel takes them away, and steps past due after a stop are taken once, in order', async () => {
    const { runDueUnitSteps } = await import('@/lib/units/scheduled');
    const thermostatId = thermostatIds[2] as string;
    const unit = await lib.findUnitOfThermostat({ scope: owner, thermostatId });
    if (!unit) throw new Error('no unit');
    await schedule(unit.id, daysAhead(30), '15:00');
    const moveInDay = daysAhead(31);
    await schedule(unit.id, moveInDay, '10:30');
    const moved = await stepsOf(unit.id);
    expect(moved.map((step) => step.state)).toEqual([
      'cancelled',
      'cancelled',
      'pending',
      'pending',
    ]);
    expect(localTime(moved[3]?.dueAt as Date, unit.timeZone)).toBe(
      `${moveInDay.slice(8, 10)}, 10:30`,
    );
    lib.session.member = owner;
    await lib.recordOccupancy(unit.id, { status: 'idle' }, form({ event: 'cancel_move_in' }));
    expect((await stepsOf(unit.id)).every((step) => step.state === 'cancelled')).toBe(true);
    expect(await runDueUnitSteps(new Date(`${daysAhead(60)}T00:00:00Z`))).toEqual({ taken: 0 });

    // Scheduled again, then Setpoint is down past both steps: when it comes back, each runs once.
    await schedule(unit.id, daysAhead(32), '12:00');
    const back = new Date(`${daysAhead(40)}T00:00:00Z`);
    expect(await runDueUnitSteps(back)).toEqual({ taken: 2 });
    expect(await runDueUnitSteps(new Date(back.getTime() + 60_000))).toEqual({ taken: 0 });
    const steps = (await stepsOf(unit.id)).filter((step) => step.state === 'done');
    expect(steps.map((step) => step.step)).toEqual(['prepare', 'move_in']);
    expect((await lib.findUnitOfThermostat({ scope: owner, thermostatId }))?.occupancy.state).toBe(
      'occupied',
    );
  });
});

describe('move-in lead', () => {
  it('owners set how long ahead a move-in is prepared; the steps to come follow; a viewer is refused, and a bad value says why', async () => {
    const { saveMoveInLeadAction } = await import('@/app/(app)/templates/occupancy/actions');
    const thermostatId = thermostatIds[3] as string;
    const unit = await lib.findUnitOfThermostat({ scope: owner, thermostatId });
    if (!unit) throw new Error('no unit');
    lib.session.member = owner;
    await lib.recordOccupancy(
      unit.id,
      { status: 'idle' },
      form({ event: 'schedule_move_in', moveInDate: daysAhead(120), moveInTime: '12:00' }),
    );
    const { unitSteps } = lib.schema;
    const prepareDue = async () =>
      (
        await handle.db
          .select()
          .from(unitSteps)
          .where(and(eq(unitSteps.unitId, unit.id), eq(unitSteps.state, 'pending')))
      ).find((step) => step.step === 'prepare');
    const moveInAt = new Date((await prepareDue())?.moveInAt as string).getTime();
    expect((await prepareDue())?.dueAt.getTime()).toBe(moveInAt - 4 * 3600_000);

    expect(await saveMoveInLeadAction({ status: 'idle' }, form({ hours: '2.5' }))).toMatchObject({
      status: 'success',
    });
    expect((await prepareDue())?.dueAt.getTime()).toBe(moveInAt - 2.5 * 3600_000);
    const refused = await saveMoveInLeadAction({ status: 'idle' }, form({ hours: '72' }));
    expect(refused).toMatchObject({
      status: 'error',
      fieldErrors: { hours: ['Enter 0 to 48 hours.'] },
    });
    lib.session.member = viewer;
    expect((await saveMoveInLeadAction({ status: 'idle' }, form({ hours: '1' }))).status).toBe(
      'error',
    );
    expect((await prepareDue())?.dueAt.getTime()).toBe(moveInAt - 2.5 * 3600_000);
  });
});

describe('a thermostat that comes into a unit', () => {
  it('added into a vacant unit, or replacing its thermostat, it is put in the vacant settings as one run, once; one in a unit never told of is left alone', async () => {
    const { createUnit } = await import('@/lib/portfolio/units');
    const { addThermostat } = await import('@/lib/portfolio/store');
    const { settleArrivals, ARRIVAL } = await import('@/lib/units/arrivals');
    const demo = (await control(sandbox, 'GET', '/portfolio?user=demo')) as {
      thermostats: { thermostatId: string; name: string }[];
    };
    const spare = demo.thermostats
      .filter((t) => !t.name.endsWith('(offline)') && !thermostatIds.includes(t.thermostatId))
      .map((t) => t.thermostatId);
    // The newcomer in resident mode, so its reset shows; the stranger any other.
    let newcomer: string | undefined;
    for (const thermostatId of spare) {
      if ((await device(thermostatId)).isResidentMode) {
        newcomer = thermostatId;
        break;
      }
    }
    const stranger = spare.find((thermostatId) => thermostatId !== newcomer);
    if (!newcomer || !stranger) throw new Error('the demo has no thermostats to spare');

    // An empty unit, moved out (nothing to set: no thermostat), then a thermostat comes in.
    const made = await createUnit({
      orgId: owner.orgId,
      buildingId,
      label: 'Apt 9',
      externalId: null,
    });
    if (!made.ok) throw new Error('unit not made');
    lib.session.member = owner;
    await lib.recordOccupancy(made.unitId, { status: 'idle' }, form({ event: 'move_out' }));
    expect(await occupancyRuns(made.unitId)).toHaveLength(0);
    await addThermostat({
      orgId: owner.orgId,
      thermostatId: newcomer,
      buildingId,
      unitLabel: 'Apt 9',
    });
    // And one in a unit of its own, whose state nobody recorded.
    await addThermostat({
      orgId: owner.orgId,
      thermostatId: stranger,
      buildingId,
      unitLabel: 'Apt 10',
    });
    const own = await lib.findUnitOfThermostat({ scope: owner, thermostatId: stranger });

    expect(await settleArrivals()).toEqual({ started: 1 });
    expect(await settleArrivals()).toEqual({ started: 0 });
    const runs = await occupancyRuns(made.unitId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ title: 'Apt 9: vacant settings', startedByName: ARRIVAL });
    expect(await occupancyRuns(own?.id as string)).toHaveLength(0);
    expect(await workUntilEnd(runs[0]?.id as string)).toContain('finished');
    expect((await itemOf(runs[0]?.id as string)).outcome).toBe('applied');
    expect((await device(newcomer)).isResidentMode).toBe(false);
    // A day on, an arrival never settled is left to Needs attention, not run late.
    expect(await settleArrivals(new Date(Date.now() + 2 * 86_400_000))).toEqual({ started: 0 });

    // Replaced, the unit's new thermostat is put in its vacant settings at once, by the member
    // who replaced it, and the job finds nothing more to do.
    const { replaceThermostatAction } = await import('@/app/(app)/units/[unitId]/actions');
    const third = spare.find((id) => id !== newcomer && id !== stranger);
    if (!third) throw new Error('the demo has no third thermostat to spare');
    const replaced = await replaceThermostatAction(
      made.unitId,
      { status: 'idle' },
      form({ thermostatId: third }),
    );
    expect(replaced).toMatchObject({ status: 'success' });
    expect(replaced.message).toMatch(/being put in the unit’s vacant settings/);
    const after = await occupancyRuns(made.unitId);
    expect(after).toHaveLength(2);
    const latest = after.find((run) => run.id !== runs[0]?.id);
    expect(latest).toMatchObject({ startedByName: owner.name });
    expect(await settleArrivals()).toEqual({ started: 0 });
  });
});

describe('template runs through the API', () => {
  it('a key plans a template on a unit, reads what it will change and cost, applies it once; other keys are refused before anything is planned', async () => {
    const { createApiKey } = await import('@/lib/api/keys');
    const { openApiDocument } = await import('@/lib/api/openapi');
    const { answerChecker } = await import('../support/openapi');
    const planRoute = await import('@/app/api/v1/template-runs/route');
    const applyRoute = await import('@/app/api/v1/runs/[runId]/apply/route');
    const runRoute = await import('@/app/api/v1/runs/[runId]/route');
    const check = answerChecker(openApiDocument() as never);
    const key = async (
      scopes: ('read' | 'write_units' | 'write_thermostats')[],
      buildingIds: string[] | null = null,
    ) =>
      (
        await createApiKey({
          orgId: owner.orgId,
          name: `Key ${scopes.join('+')}`,
          scopes,
          buildingIds,
          byName: owner.name,
        })
      ).secret;
    const writer = await key(['read', 'write_thermostats']);
    type Route = (request: Request, route: { params: Promise<never> }) => Promise<Response>;
    const call = async (input: {
      route: Route;
      path: string;
      template: string;
      method?: string;
      body?: unknown;
      params?: Record<string, string>;
      as?: string;
    }) => {
      const method = input.method ?? 'GET';
      const response = await input.route(
        new Request(`https://setpoint.example.com${input.path}`, {
          method,
          headers: {
            authorization: `Bearer ${input.as ?? writer}`,
            ...(input.body ? { 'content-type': 'application/json' } : {}),
          },
          body: input.body ? JSON.stringify(input.body) : undefined,
        }),
        { params: Promise.resolve(input.params ?? {}) as Promise<never> },
      );
      const body = await response.json();
      check({
        path: input.template,
        method: method.toLowerCase(),
        status: response.status,
        contentType: response.headers.get('content-type'),
        body,
      });
      return { status: response.status, body };
    };
    // A template of its own, so the plan has something to change whatever ran before.
    const { createTemplate } = await import('@/lib/templates/store');
    const made = await createTemplate({
      member: owner,
      template: templateSchema.parse({
        name: 'Through the API',
        comfortSettings: [{ name: 'Api', desiredHeat: 61, desiredCool: 79 }],
      }),
    });
    const template = made.ok ? made.template : null;
    const unit = await lib.findUnitOfThermostat({
      scope: owner,
      thermostatId: thermostatIds[4] as string,
    });
    if (!template || !unit) throw new Error('no template or unit');
    const plan = (as?: string) =>
      call({
        route: planRoute.POST as Route,
        path: '/api/v1/template-runs',
        template: '/api/v1/template-runs',
        method: 'POST',
        body: { templateId: template.id, unitIds: [unit.id] },
        as,
      });

    // A key that may not write thermostats, and one limited to another building: refused.
    const runsBefore = rowsCount(
      await handle.db.execute(sql`select count(*)::int as n from bulk_runs`),
    );
    expect((await plan(await key(['read']))).status).toBe(403);
    expect((await plan(await key(['read', 'write_thermostats'], ['elsewhere']))).status).toBe(404);
    expect(rowsCount(await handle.db.execute(sql`select count(*)::int as n from bulk_runs`))).toBe(
      runsBefore,
    );

    const planned = await plan();
    expect(planned).toMatchObject({ status: 202, body: { run: { state: 'planning' } } });
    const runId = planned.body.run.id as string;
    const read = () =>
      call({
        route: runRoute.GET as Route,
        path: `/api/v1/runs/${runId}`,
        template: '/api/v1/runs/{runId}',
        params: { runId },
      });
    const apply = (as?: string) =>
      call({
        route: applyRoute.POST as Route,
        path: `/api/v1/runs/${runId}/apply`,
        template: '/api/v1/runs/{runId}/apply',
        method: 'POST',
        params: { runId },
        as,
      });
    // Not before it is planned.
    expect((await apply()).status).toBe(409);
    expect(await lib.workPlannedRun({ runId })).toBe('finished');
    const shown = await read();
    expect(shown.body).toMatchObject({
      state: 'planned',
      kind: 'template',
      plan: { thermostats: 1 },
    });
    expect(shown.body.plan.calls).toBeGreaterThan(0);
    expect(shown.body.plan.seconds).toBeGreaterThanOrEqual(0);
    // The run names no user, and the key that planned it by its id: another key, even one of the
    // same name limited to this building, may not apply it.
    const [row] = await handle.db
      .execute(
        sql`select started_by, started_by_key, started_by_name from bulk_runs where id = ${runId}`,
      )
      .then((result) => (result as unknown as { rows: Record<string, unknown>[] }).rows);
    expect(row).toMatchObject({
      started_by: null,
      started_by_name: 'API key “Key read+write_thermostats”',
    });
    expect(row?.started_by_key).toBeTruthy();
    const namesake = await key(['read', 'write_thermostats'], [buildingId]);
    expect((await apply(namesake)).status).toBe(404);

    const applied = await apply();
    expect(applied).toMatchObject({ status: 202, body: { run: { id: runId, state: 'queued' } } });
    expect((await apply()).status).toBe(409);
    expect(await lib.workPlannedRun({ runId })).toBe('finished');
    const done = await read();
    expect(done.body).toMatchObject({
      state: 'done',
      finished: true,
      items: [{ outcome: 'applied' }],
    });
    expect(await comfortNames(thermostatIds[4] as string)).toContain('Api');
  });
});

const rowsCount = (result: unknown) =>
  ((result as { rows: { n: number }[] }).rows[0]?.n ?? 0) as number;
