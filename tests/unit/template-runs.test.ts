import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listActivityAsSeen } from '@/lib/activity-log/view';
import { readRunProgress } from '@/lib/runs/progress';
import { RUN_KINDS } from '@/lib/jobs/run-kinds';
import { cancelBulkRun } from '@/lib/runs/requests';
import { CANCELLED_IN_FLIGHT, MAX_SENDS } from '@/lib/runs/engine';
import {
  type BulkRun,
  clearBulkRunLeases,
  findBulkRun,
  listBulkRunItems,
  listBulkRuns,
  listBulkRunsById,
  listItemPlans,
  type RunInView,
} from '@/lib/runs/store';
import type { Database, DatabaseHandle } from '@/lib/db/client';
import { listActivity } from '@/lib/activity/store';
import type { Member } from '@/lib/auth/store';
import { addThermostat, ensureBuilding } from '@/lib/portfolio/store';
import {
  activityLog,
  bulkRunItems,
  bulkRuns,
  templateAssignments,
  templates,
} from '@/lib/db/schema';
import { stopBoss } from '@/lib/queue/queue';
import { findLastAccessControl } from '@/lib/templates/last-access-control';
import { forgetPasscode } from '@/lib/runs/passcodes';
import { type PlanSummary, scheduleUpdateOf, type ThermostatPlan } from '@/lib/templates/plan';
import { runTitle, runTitleAsSeen, skippedOf } from '@/lib/runs/words';
import { planSummaryAsSeen } from '@/lib/templates/runs';
import { applyPlannedRun, planTemplateRun, planUndoOfRun } from '@/lib/templates/runs';
import { type Template, templateSchema } from '@/lib/templates/schema';
import type { TemplateService } from '@/lib/templates/service';
import { SENT_TOO_OFTEN } from '@/lib/templates/kind';
import { workPlannedRun } from '../support/runs';
import { ServiceError } from '@/lib/service/errors';
import { LOCK_AREAS } from '@/lib/service/schemas';
import {
  defaultAlertSettings,
  defaultComfortSettings,
  defaultSettings,
  residentialSchedule,
} from '@/sandbox/src/store';
import { databaseTargets, useDatabase } from '../support/database';
import { createFirstOwner, inviteAndAccept } from '../support/members';
import { applyOperations, type FullState } from '../support/template-service';

/**
 * Template runs end to end in the data layer and the job, against a stand-in for the service
 * that refuses what the service refuses (tests/support/template-service.ts): planned on 30
 * thermostats in 3 buildings, applied with faults, each thermostat's result recorded once, a run
 * resumed after its worker stopped, planned again to no changes, undone (with a warning where a
 * thermostat changed since), and the roles' refusals.
 */

const A = '00000000000000000000a0a1';
const B = '00000000000000000000b0b1';
const C = '00000000000000000000c0c1';
const id = (n: number) => String(300000000000 + n);
const BUILDING_OF = (n: number) => (n < 10 ? A : n < 20 ? B : C);
const IDS = Array.from({ length: 30 }, (_, n) => id(n));

function freshThermostat(): FullState {
  return {
    heatCoolMinDelta: 5,
    comfortSettings: defaultComfortSettings().map((setting) => ({ ...setting })),
    week: residentialSchedule(),
    configuration: defaultSettings(),
    alerts: { ...defaultAlertSettings() },
    accessControl: null,
  };
}

/** Vacant unit: a new setting, Away changed, every day Vacant but evenings Home, a hold action. */
const VACANT: Template = templateSchema.parse({
  name: 'Vacant unit',
  comfortSettings: [
    { name: 'Vacant', desiredHeat: 55, desiredCool: 85 },
    { name: 'Away', desiredHeat: 60, desiredCool: 82 },
  ],
  schedule: Array.from({ length: 7 }, () =>
    Array.from({ length: 48 }, (_, block) => (block >= 36 && block < 44 ? 'Home' : 'Vacant')),
  ),
  configuration: { holdAction: 'indefinite', fanMinimumOnTime: 10 },
  alerts: { lowTemperatureAlert: { enabled: true, value: 45 } },
  accessControl: {
    enabled: true,
    settings: Object.fromEntries(LOCK_AREAS.map((area) => [area, true])),
  },
});

type Fault = { kind: 'read' | 'schedule' | 'configuration'; error: () => Error };

/** The service in memory: each thermostat's state, the calls made, and faults by thermostat. */
function fakeService() {
  const states = new Map<string, FullState>(IDS.map((t) => [t, freshThermostat()]));
  const faults = new Map<string, Fault>();
  const calls = { read: 0, write: 0 };
  /** The passcode each access-control call carried (null: none). */
  const passcodes = new Map<string, string | null>();
  let stopAfterWrites: { count: number; abort: AbortController } | null = null;
  const counted = () => {
    calls.write += 1;
    if (stopAfterWrites && calls.write >= stopAfterWrites.count) stopAfterWrites.abort.abort();
  };
  const state = (thermostatId: string) => {
    const found = states.get(thermostatId);
    if (!found) throw new ServiceError('not_found', { status: 404 });
    return found;
  };
  const service: TemplateService = {
    async read({ thermostatId, reads, accessControl }) {
      calls.read += reads.length;
      if (faults.get(thermostatId)?.kind === 'read') throw faults.get(thermostatId)?.error();
      const now = structuredClone(state(thermostatId));
      return {
        heatCoolMinDelta: now.heatCoolMinDelta,
        comfortSettings: now.comfortSettings,
        week: now.week,
        configuration: now.configuration,
        alerts: now.alerts,
        ...(accessControl ? { accessControl: now.accessControl } : {}),
      };
    },
    async configuration({ thermostatIds, changes }) {
      counted();
      const results = thermostatIds.map((thermostatId) => {
        if (faults.get(thermostatId)?.kind === 'configuration') {
          return {
            thermostatId,
            status: 'error' as const,
            code: 'thermostat_offline',
            message: null,
          };
        }
        states.set(
          thermostatId,
          applyOperations(state(thermostatId), [
            { kind: 'configuration', stage: 'before', changes },
          ]),
        );
        return { thermostatId, status: 'success' as const };
      });
      return { results };
    },
    async perform({ thermostatId, operation, created, passcode }) {
      counted();
      if (operation.kind === 'accessControl') passcodes.set(thermostatId, passcode ?? null);
      const fault = faults.get(thermostatId);
      if (fault?.kind === 'schedule' && operation.kind === 'schedule') throw fault.error();
      const now = state(thermostatId);
      const resolved =
        operation.kind === 'schedule'
          ? {
              ...operation,
              comfortSetting: { ref: scheduleUpdateOf(operation, created).comfortSettingRef },
            }
          : operation;
      const next = applyOperations(now, [resolved]);
      states.set(thermostatId, next);
      if (operation.kind === 'createComfortSetting') {
        const made = next.comfortSettings.find((s) => s.name === operation.fields.name);
        return { createdRef: made?.comfortSettingRef };
      }
      return {};
    },
    async findComfortSetting({ thermostatId, name }) {
      return (
        state(thermostatId).comfortSettings.find(
          (s) => s.name.toLowerCase() === name.toLowerCase(),
        ) ?? null
      );
    },
  };
  return {
    service,
    states,
    faults,
    calls,
    passcodes,
    stopAfter(count: number) {
      const abort = new AbortController();
      stopAfterWrites = { count: calls.write + count, abort };
      return abort.signal;
    },
  };
}

/**
 * The service, but the alert-settings calls to one thermostat never answer (until `release`):
 * each worker that makes one stops there, as a process that dies with a call in flight. With
 * `lands`, the change reaches the thermostat first (only the answer is lost).
 */
function diesInFlight(
  fake: ReturnType<typeof fakeService>,
  thermostatId: string,
  options: { lands: boolean },
) {
  const held: ((error: Error) => void)[] = [];
  let sent = 0;
  let waiting: (() => void) | null = null;
  const service: TemplateService = {
    ...fake.service,
    async perform(input) {
      if (input.thermostatId !== thermostatId || input.operation.kind !== 'alerts') {
        return fake.service.perform(input);
      }
      if (options.lands) await fake.service.perform(input);
      sent += 1;
      waiting?.();
      return new Promise((_, reject) => held.push(reject));
    },
  };
  return {
    service,
    /** Resolves once the `n`th call to it is in flight. */
    inFlight(n: number): Promise<void> {
      if (sent >= n) return Promise.resolve();
      return new Promise((resolve) => {
        waiting = () => {
          if (sent >= n) resolve();
        };
      });
    },
    /** The stopped workers' calls end at last (their runs have moved on without them). */
    release() {
      for (const reject of held) reject(new Error('the process is gone'));
    },
  };
}

describe.each(databaseTargets)('template runs on $name', ({ target }) => {
  let handle: DatabaseHandle;
  let db: Database;
  let owner: Member;
  let managerA: Member;
  let viewer: Member;
  let templateId: string;

  beforeAll(async () => {
    // The worker reads the service's limits from the configuration, for the plan's time.
    process.env.AUTH_SECRET ??= randomBytes(32).toString('base64url');
    process.env.TOKEN_KEYS ??= `1:${randomBytes(32).toString('base64url')}`;
    process.env.SERVICE_ALLOW_REDIRECT_PORT ??= 'true';
    handle = await useDatabase(await target());
    db = handle.db;
    owner = await createFirstOwner('owner@templates.example', 'Template Property');
    for (const [buildingId, name] of [
      [A, 'Alder House'],
      [B, 'Birch Court'],
      [C, 'Cedar Lofts'],
    ] as const) {
      await ensureBuilding({ orgId: owner.orgId, buildingId, name, timeZone: 'America/Denver' });
    }
    for (const [n, thermostatId] of IDS.entries()) {
      await addThermostat({
        orgId: owner.orgId,
        thermostatId,
        buildingId: BUILDING_OF(n),
        unitLabel: `Unit ${n + 1}`,
      });
    }
    managerA = await inviteAndAccept(owner.orgId, 'alder@templates.example', 'building_manager', [
      A,
    ]);
    viewer = await inviteAndAccept(owner.orgId, 'viewer@templates.example', 'viewer');
    const [row] = await db
      .insert(templates)
      .values({
        orgId: owner.orgId,
        name: VACANT.name,
        body: VACANT as unknown as Record<string, unknown>,
        updatedByName: owner.name,
      })
      .returning({ id: templates.id });
    templateId = row?.id ?? '';
  });

  afterAll(async () => {
    await stopBoss();
    await handle.close();
  });

  async function plan(member: Member, service: TemplateService, ids = IDS): Promise<BulkRun> {
    const planned = await planTemplateRun({ member, templateId, thermostatIds: ids });
    if (!planned.ok) throw new Error(planned.message);
    expect(await workPlannedRun({ runId: planned.run.id, service, owner: 'test' })).toBe(
      'finished',
    );
    const run = await findBulkRun({ scope: member, runId: planned.run.id });
    expect(run?.state).toBe('planned');
    return run as BulkRun;
  }

  async function apply(member: Member, run: BulkRun, service: TemplateService) {
    const applied = await applyPlannedRun({ member, runId: run.id });
    if (!applied.ok) throw new Error(applied.message);
    return workPlannedRun({ runId: run.id, service, owner: 'test' });
  }

  const outcomes = async (run: BulkRun) =>
    Object.fromEntries(
      (await listBulkRunItems({ scope: owner, run, limit: 100 })).map((item) => [
        item.thermostatId,
        item.outcome,
      ]),
    );

  it('plans, applies in the fewest calls, records each result once, and plans again to no change', async () => {
    const fake = fakeService();
    // Already as the template says: planned unchanged, nothing sent.
    const matching = id(29);
    fake.states.set(
      matching,
      applyOperations(
        fake.states.get(matching) as FullState,
        (await planned(fake, matching)).operations,
      ),
    );
    fake.faults.set(id(3), {
      kind: 'read',
      error: () => new ServiceError('unavailable', { status: 503 }),
    });
    fake.faults.set(id(4), {
      kind: 'schedule',
      error: () => new ServiceError('unavailable', { status: 503 }),
    });
    fake.faults.set(id(5), { kind: 'configuration', error: () => new Error('never thrown') });

    const run = await plan(owner, fake.service);
    const summary = run.planSummary as unknown as PlanSummary;
    expect(summary).toMatchObject({ thermostats: 30, unchanged: 1, blocked: 1, changing: 28 });
    const items = await listItemPlans({ runId: run.id });
    const blocked = items.find((item) => item.thermostatId === id(3));
    expect((blocked?.plan as unknown as ThermostatPlan | undefined)?.problems[0]).toMatch(
      /could not be read/i,
    );

    const writesBefore = fake.calls.write;
    expect(await apply(owner, run, fake.service)).toBe('finished');
    // The plan's count is exact: the faults only stop calls the plan counted.
    expect(fake.calls.write - writesBefore).toBeLessThanOrEqual(summary.calls);

    const done = await findBulkRun({ scope: owner, runId: run.id });
    expect(done).toMatchObject({ state: 'done', applied: 26, failed: 2, notSent: 0 });
    const result = await outcomes(run);
    expect(result[matching]).toBe('unchanged');
    expect(result[id(3)]).toBe('blocked');
    expect(result[id(4)]).toBe('failed');
    expect(result[id(5)]).toBe('failed');
    const failedItems = await listBulkRunItems({
      scope: owner,
      run,
      outcomes: ['failed'],
    });
    expect(failedItems.find((i) => i.thermostatId === id(4))?.detail).toMatch(
      /^Failed after \d+ of \d+ changes/,
    );

    // Every thermostat it applied to now matches: planning again changes nothing there.
    fake.faults.clear();
    const again = await plan(owner, fake.service);
    const second = again.planSummary as unknown as PlanSummary;
    expect(second.unchanged).toBe(27);
    expect(second.changing).toBe(3); // the failed two and the one it could not read

    // One activity entry for the run, and the template assigned where it applied.
    const entries = await listActivity({ scope: owner, filter: { action: 'template.apply' } });
    expect(entries.filter((e) => e.runId === run.id)).toHaveLength(1);
    const assigned = await db
      .select()
      .from(templateAssignments)
      .where(eq(templateAssignments.templateId, templateId));
    expect(assigned).toHaveLength(27);
  });

  it('with no faults, uses exactly the calls the plan computed', async () => {
    const fake = fakeService();
    const run = await plan(owner, fake.service);
    const summary = run.planSummary as unknown as PlanSummary;
    const before = fake.calls.write;
    expect(await apply(owner, run, fake.service)).toBe('finished');
    expect(fake.calls.write - before).toBe(summary.calls);
    // Configuration batched: one request for every 25 identical changes.
    expect(summary.callsByKind.configuration).toBe(2);
    // The service cannot read access control: Setpoint knows the locks the run set.
    const locks = await findLastAccessControl({ scope: owner, thermostatId: id(0) });
    expect(locks).toMatchObject({ enabled: true, source: 'run' });
    expect(Object.values(locks?.settings ?? {}).every(Boolean)).toBe(true);
  });

  async function planned(fake: ReturnType<typeof fakeService>, thermostatId: string) {
    const { planTemplate } = await import('@/lib/templates/plan');
    const state = await fake.service.read({
      orgId: owner.orgId,
      thermostatId,
      reads: ['status', 'comfortSettings', 'schedule', 'settings', 'alertSettings'],
      accessControl: true,
    });
    return planTemplate(VACANT, state);
  }

  it('resumes after its worker stops mid-run, sending on from where each thermostat got to', async () => {
    const fake = fakeService();
    const run = await plan(owner, fake.service);
    const summary = run.planSummary as unknown as PlanSummary;
    const applied = await applyPlannedRun({ member: owner, runId: run.id });
    expect(applied.ok).toBe(true);
    const before = fake.calls.write;
    const signal = fake.stopAfter(40);
    expect(
      await workPlannedRun({ runId: run.id, service: fake.service, owner: 'first', signal }),
    ).toBe('interrupted');
    expect(await workPlannedRun({ runId: run.id, service: fake.service, owner: 'second' })).toBe(
      'finished',
    );
    const done = await findBulkRun({ scope: owner, runId: run.id });
    expect(done).toMatchObject({ state: 'done', applied: 30, failed: 0 });
    // Only calls in flight when the first stopped are sent again.
    const used = fake.calls.write - before;
    expect(used).toBeGreaterThanOrEqual(summary.calls);
    expect(used).toBeLessThanOrEqual(summary.calls + 8);
    const again = await plan(owner, fake.service);
    expect((again.planSummary as unknown as PlanSummary).unchanged).toBe(30);
  });

  it('undoes a run: plans back to the state before, and warns where a thermostat changed since', async () => {
    const fake = fakeService();
    const original = structuredClone(fake.states.get(id(0)) as FullState);
    const run = await plan(owner, fake.service);
    await apply(owner, run, fake.service);
    // Someone changed unit 2 since the run.
    const changed = fake.states.get(id(1)) as FullState;
    fake.states.set(id(1), {
      ...changed,
      configuration: { ...changed.configuration, fanMinimumOnTime: 30 },
    });

    const undo = await planUndoOfRun({ member: owner, runId: run.id });
    if (!undo.ok) throw new Error(undo.message);
    // What it cannot put back is said once, with the plan.
    expect((undo.run.changes as { notes: string[] }).notes.join(' ')).toMatch(
      /comfort setting it created is kept.*|Access control as it was before is not known/,
    );
    expect(await workPlannedRun({ runId: undo.run.id, service: fake.service, owner: 'u' })).toBe(
      'finished',
    );
    const items = await listBulkRunItems({ scope: owner, run: undo.run, limit: 100 });
    expect(items.find((i) => i.thermostatId === id(1))?.warning).toMatch(/changed since/);
    expect(items.find((i) => i.thermostatId === id(0))?.warning).toBeNull();
    const plannedUndo = await findBulkRun({ scope: owner, runId: undo.run.id });
    expect(await apply(owner, plannedUndo as BulkRun, fake.service)).toBe('finished');

    const after = fake.states.get(id(0)) as FullState;
    expect(after.configuration).toEqual(original.configuration);
    expect(after.week).toEqual(original.week);
    expect(after.alerts).toEqual(original.alerts);
    const away = (state: FullState) => state.comfortSettings.find((s) => s.name === 'Away');
    expect(away(after)).toEqual(away(original));
    // Nothing is deleted: the setting the run created stays, unused by the restored week.
    expect(after.comfortSettings.some((s) => s.name === 'Vacant')).toBe(true);
    // Access control was not known before the run, so it stays as the run left it.
    expect(after.accessControl?.enabled).toBe(true);
    const entries = await listActivity({ scope: owner, filter: { action: 'change.undo' } });
    expect(entries.some((e) => e.runId === undo.run.id)).toBe(true);
  });

  it('keeps each thermostat its own ranges when an undo batches configuration', async () => {
    const fake = fakeService();
    // Three thermostats with three different heat ranges; the template sets one for all.
    const ranges = [
      { min: 45, max: 79 },
      { min: 50, max: 75 },
      { min: 48, max: 78 },
    ];
    const ids = [id(10), id(11), id(12)];
    ids.forEach((thermostatId, n) => {
      const now = fake.states.get(thermostatId) as FullState;
      fake.states.set(thermostatId, {
        ...now,
        configuration: {
          ...now.configuration,
          heatRange: ranges[n] as { min: number; max: number },
        },
      });
    });
    const [row] = await db
      .insert(templates)
      .values({
        orgId: owner.orgId,
        name: 'Narrow heat',
        body: { name: 'Narrow heat', configuration: { heatRange: { min: 55, max: 76 } } },
        updatedByName: owner.name,
      })
      .returning({ id: templates.id });
    const planned = await planTemplateRun({
      member: owner,
      templateId: row?.id ?? '',
      thermostatIds: ids,
    });
    if (!planned.ok) throw new Error(planned.message);
    await workPlannedRun({ runId: planned.run.id, service: fake.service, owner: 't' });
    const run = (await findBulkRun({ scope: owner, runId: planned.run.id })) as BulkRun;
    await apply(owner, run, fake.service);
    for (const thermostatId of ids) {
      expect(fake.states.get(thermostatId)?.configuration.heatRange).toEqual({ min: 55, max: 76 });
    }
    const undo = await planUndoOfRun({ member: owner, runId: run.id });
    if (!undo.ok) throw new Error(undo.message);
    await workPlannedRun({ runId: undo.run.id, service: fake.service, owner: 'u' });
    await apply(
      owner,
      (await findBulkRun({ scope: owner, runId: undo.run.id })) as BulkRun,
      fake.service,
    );
    ids.forEach((thermostatId, n) => {
      expect(fake.states.get(thermostatId)?.configuration.heatRange).toEqual(ranges[n]);
    });
  });

  it('a worker whose lease was taken over unnoticed does not end the run', async () => {
    const fake = fakeService();
    const run = await plan(owner, fake.service, [id(20)]);
    expect((await applyPlannedRun({ member: owner, runId: run.id })).ok).toBe(true);
    // While the stale worker's last call is in flight, another worker takes the run over.
    let takeOver: () => void = () => {};
    const inFlight = new Promise<void>((resolve) => {
      takeOver = resolve;
    });
    const slow: TemplateService = {
      ...fake.service,
      async perform(input) {
        if (input.operation.kind === 'accessControl') {
          await db
            .update(bulkRuns)
            .set({ leaseOwner: 'next', leaseUntil: new Date(Date.now() + 60_000) })
            .where(eq(bulkRuns.id, run.id));
          takeOver();
        }
        return fake.service.perform(input);
      },
    };
    const stale = workPlannedRun({ runId: run.id, service: slow, owner: 'stale' });
    await inFlight;
    expect(await stale).toBe('interrupted');
    expect((await findBulkRun({ scope: owner, runId: run.id }))?.state).toBe('running');
    expect(await workPlannedRun({ runId: run.id, service: fake.service, owner: 'next' })).toBe(
      'finished',
    );
    expect(await findBulkRun({ scope: owner, runId: run.id })).toMatchObject({
      state: 'done',
      applied: 1,
      notSent: 0,
    });
  });

  it('sends a passcode entered for the run with the locks, and stores it nowhere', async () => {
    const fake = fakeService();
    const here = await plan(owner, fake.service, [id(23)]);
    const refused = await applyPlannedRun({ member: owner, runId: here.id, passcode: '12a4' });
    expect(refused).toMatchObject({ ok: false, code: 'invalid' });
    expect((await applyPlannedRun({ member: owner, runId: here.id, passcode: '4821' })).ok).toBe(
      true,
    );
    await workPlannedRun({ runId: here.id, service: fake.service, owner: 'here' });
    expect(fake.passcodes.get(id(23))).toBe('4821');

    // Another run whose passcode this process no longer holds (a restart, a separate worker):
    // the locks go on with each thermostat's own passcode, and the result says so.
    const elsewhere = await plan(owner, fake.service, [id(24), id(25)]);
    expect(
      (await applyPlannedRun({ member: owner, runId: elsewhere.id, passcode: '5555' })).ok,
    ).toBe(true);
    forgetPasscode(elsewhere.id);
    await workPlannedRun({ runId: elsewhere.id, service: fake.service, owner: 'elsewhere' });
    expect(fake.passcodes.get(id(24))).toBeNull();
    const items = await listBulkRunItems({ scope: owner, run: elsewhere, limit: 10 });
    expect(items.every((item) => item.outcome === 'applied')).toBe(true);
    expect(items[0]?.detail).toMatch(/passcode entered for the run was not available/);

    // Nowhere in the database: not the runs, their items, nor the activity log. (Their ids are
    // left out: a random uuid's third group starts with 4, and is "4821" one time in 4,096.)
    const withoutIds = (text: string) =>
      text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, 'uuid');
    const dump = withoutIds(
      JSON.stringify([
        await db.select().from(bulkRuns),
        await db.select().from(bulkRunItems),
        await db.select().from(activityLog),
      ]),
    );
    // As a value of its own, not four digits inside an id or a time (random uuids hold them).
    const stored = (passcode: string) => new RegExp(`(^|[^0-9a-f])${passcode}([^0-9a-f]|$)`, 'i');
    expect(dump).not.toMatch(stored('4821'));
    expect(dump).not.toMatch(stored('5555'));
    // (What the check would catch: the passcode stored as a value, in words or as a field.)
    expect(JSON.stringify({ passcode: '4821' })).toMatch(stored('4821'));
    expect('the passcode 4821.').toMatch(stored('4821'));
    expect('e9ded4821211').not.toMatch(stored('4821'));
    const uuid = '0b9e2f3a-77c1-4821-9d2e-5a1b2c3d4e5f';
    expect(withoutIds(JSON.stringify({ id: uuid }))).not.toMatch(stored('4821'));
    expect(withoutIds(JSON.stringify({ id: uuid, passcode: '4821' }))).toMatch(stored('4821'));
  });

  it('shows a building manager the plan, progress and result of their buildings only', async () => {
    const fake = fakeService();
    // One thermostat outside Alder House cannot be read: blocked in the whole run's plan.
    fake.faults.set(id(12), {
      kind: 'read',
      error: () => new ServiceError('unavailable', { status: 503 }),
    });
    const run = await plan(owner, fake.service);
    const whole = run.planSummary as unknown as PlanSummary;
    expect(whole).toMatchObject({ thermostats: 30, changing: 29, blocked: 1 });
    expect(whole.callsByKind.configuration).toBe(2);

    // The manager of Alder House (10 of the 30) sees the plan of those 10, wherever it is read:
    // the runs' store gives the counts in view only, never the whole run's summary…
    const seen = await findBulkRun({ scope: managerA, runId: run.id });
    expect(seen).toMatchObject({ total: 10, partView: true });
    const counts = { thermostats: 10, changing: 10, blocked: 0, unchanged: 0 };
    expect(seen?.planSummary).toEqual(counts);
    const listed = (await listBulkRuns({ scope: managerA, limit: 100 })).find(
      (r) => r.id === run.id,
    );
    expect(listed).toMatchObject({ total: 10, planSummary: counts });
    // …and the plan's summary as they see it is summed over those 10 alone.
    const summary = (await planSummaryAsSeen({
      scope: managerA,
      run: seen as RunInView,
    })) as PlanSummary;
    expect(summary).toMatchObject(counts);
    expect(summary.callsByKind.configuration).toBe(1);
    expect(summary.calls).toBeLessThan(whole.calls);
    expect(summary.seconds).toBeLessThanOrEqual(whole.seconds);
    expect(
      await planSummaryAsSeen({
        scope: owner,
        run: (await findBulkRun({ scope: owner, runId: run.id })) as RunInView,
      }),
    ).toEqual(whole);
    // The owner still sees the whole run.
    expect(await findBulkRun({ scope: owner, runId: run.id })).toMatchObject({
      total: 30,
      partView: false,
      planSummary: whole,
    });

    // Applied: the result and progress the manager sees count their thermostats only.
    expect(await apply(owner, run, fake.service)).toBe('finished');
    const done = await findBulkRun({ scope: managerA, runId: run.id });
    expect(done).toMatchObject({ state: 'done', total: 10, applied: 10, failed: 0, notSent: 0 });
    expect(skippedOf(done as BulkRun)).toEqual({ skipped: 0, blocked: 0 });
    const [byId] = await listBulkRunsById({ scope: managerA, runIds: [run.id] });
    expect(byId).toMatchObject({ total: 10, applied: 10 });
    expect((await readRunProgress(managerA, run.id))?.counts).toMatchObject({
      total: 10,
      applied: 10,
      blocked: 0,
    });
    expect(await findBulkRun({ scope: owner, runId: run.id })).toMatchObject({
      total: 30,
      applied: 29,
    });
  });

  it('shows a building manager their share of a run’s activity entry, and of its undo', async () => {
    const fake = fakeService();
    // One thermostat outside Alder House cannot be read: the whole run is not clean.
    fake.faults.set(id(12), {
      kind: 'read',
      error: () => new ServiceError('unavailable', { status: 503 }),
    });
    const run = await plan(owner, fake.service);
    expect(await apply(owner, run, fake.service)).toBe('finished');
    const entryOf = async (member: Member, runId: string) => {
      const { entries } = await listActivityAsSeen({ scope: member, unit: 'F' });
      const entry = entries.find((e) => e.runId === runId);
      if (!entry) throw new Error('the run’s entry is not listed');
      return entry;
    };

    // The owner and a viewer read the whole run, as it was stored.
    const whole =
      'Template “Vacant unit” on 30 thermostats. Done with 1 failure: 29 done, 0 failed, 0 not sent, 1 blocked (of 30).';
    for (const member of [owner, viewer]) {
      expect(await entryOf(member, run.id)).toMatchObject({
        summary: whole,
        outcome: 'failure',
        error: '1 failed',
      });
    }
    // The manager of Alder House reads the 10 of theirs, in the words and the details alike.
    const mine = await entryOf(managerA, run.id);
    expect(mine).toMatchObject({
      summary:
        'Template “Vacant unit” on 10 thermostats in your buildings. Done: 10 done, 0 failed, 0 not sent (of 10).',
      outcome: 'success',
      error: null,
      buildingId: A,
    });
    expect(mine.changes).toMatchObject({ total: 10, applied: 10, blocked: 0, buildings: 1 });

    // Its undo, planned by the owner, puts back the 29 the run changed (1 was blocked); the
    // manager reads only their 10 of it.
    const undo = await planUndoOfRun({ member: owner, runId: run.id });
    if (!undo.ok) throw new Error(undo.message);
    // Stored without a count: each reader's count is added where the run is named.
    expect(undo.run.title).toBe('Undo of template “Vacant unit”');
    expect(runTitle(undo.run)).toBe('Undo of template “Vacant unit” on 29 thermostats');
    // An undo stored with its planner's count before (migration 0015 takes it off).
    await db
      .update(bulkRuns)
      .set({ title: 'Undo of template “Vacant unit” on 1,030 thermostats' })
      .where(eq(bulkRuns.id, undo.run.id));
    await db.execute(
      sql.raw(readFileSync('lib/db/migrations/0015_undo_titles_without_count.sql', 'utf8')),
    );
    expect((await findBulkRun({ scope: owner, runId: undo.run.id }))?.title).toBe(
      'Undo of template “Vacant unit”',
    );
    await workPlannedRun({ runId: undo.run.id, service: fake.service, owner: 'u' });
    await apply(
      owner,
      (await findBulkRun({ scope: owner, runId: undo.run.id })) as BulkRun,
      fake.service,
    );
    expect((await entryOf(owner, undo.run.id)).summary).toMatch(
      /^Undo of template “Vacant unit” on 29 thermostats\. /,
    );
    const undone = await entryOf(managerA, undo.run.id);
    expect(undone.summary).toMatch(
      /^Undo of template “Vacant unit” on 10 thermostats in your buildings\. Done: 10 done.*\(of 10\)\.$/,
    );
    expect(undone.changes).toMatchObject({ title: 'Undo of template “Vacant unit”', total: 10 });
    expect(JSON.stringify([undone.summary, undone.changes])).not.toMatch(/\b(29|30)\b/);

    // The undo's page heading and the bulk page's list of runs: the owner reads the whole undo,
    // the manager their share, never the 29 of the whole.
    const ownersUndo = (await findBulkRun({ scope: owner, runId: undo.run.id })) as BulkRun;
    expect(runTitleAsSeen(ownersUndo)).toBe('Undo of template “Vacant unit” on 29 thermostats');
    const managersUndo = await findBulkRun({ scope: managerA, runId: undo.run.id });
    expect(managersUndo).toMatchObject({ partView: true, total: 10 });
    expect(runTitleAsSeen(managersUndo as BulkRun)).toBe(
      'Undo of template “Vacant unit” on 10 thermostats in your buildings',
    );
    const { createElement } = await import('react');
    const { renderToStaticMarkup } = await import('react-dom/server');
    const { RunList } = await import('@/components/bulk/run-list');
    const listed = (member: Member) =>
      listBulkRuns({ scope: member }).then((runs) =>
        renderToStaticMarkup(
          createElement(RunList, {
            runs: runs.filter((r) => r.id === undo.run.id),
            unit: 'F',
            zone: 'UTC',
          }),
        ),
      );
    expect(await listed(owner)).toContain('Undo of template “Vacant unit” on 29 thermostats');
    const managersList = await listed(managerA);
    expect(managersList).toContain(
      'Undo of template “Vacant unit” on 10 thermostats in your buildings',
    );
    // (Not the whole HTML: its time of day may hold a 30.)
    expect(managersList).not.toMatch(/\b(29|30) thermostats|>(29|30)</);
  });

  const FROST_WATCH = {
    name: 'Frost watch',
    configuration: { fanMinimumOnTime: 20 },
    alerts: { lowTemperatureAlert: { enabled: true, value: 41 } },
  };
  const FROST_ALERT = {
    name: 'Frost alert',
    alerts: { lowTemperatureAlert: { enabled: true, value: 41 } },
  };

  async function templateOf(body: { name: string }): Promise<string> {
    const [found] = await db.select().from(templates).where(eq(templates.name, body.name));
    if (found) return found.id;
    const [row] = await db
      .insert(templates)
      .values({ orgId: owner.orgId, name: body.name, body, updatedByName: owner.name })
      .returning({ id: templates.id });
    return row?.id ?? '';
  }

  /** A planned and confirmed run (Frost watch: configuration, then alerts; Frost alert: alerts). */
  async function confirmed(
    fake: ReturnType<typeof fakeService>,
    ids: string[],
    body: { name: string } = FROST_WATCH,
  ) {
    const planned = await planTemplateRun({
      member: owner,
      templateId: await templateOf(body),
      thermostatIds: ids,
    });
    if (!planned.ok) throw new Error(planned.message);
    await workPlannedRun({ runId: planned.run.id, service: fake.service, owner: 'planner' });
    expect((await applyPlannedRun({ member: owner, runId: planned.run.id })).ok).toBe(true);
    return planned.run.id;
  }

  async function appliedBeforeTheCrash(runId: string, thermostatId: string) {
    await vi.waitFor(
      async () => {
        const run = (await findBulkRun({ scope: owner, runId })) as BulkRun;
        const applied = await listBulkRunItems({ scope: owner, run, outcomes: ['applied'] });
        expect(applied.map((item) => item.thermostatId)).toContain(thermostatId);
      },
      { timeout: 10_000, interval: 50 },
    );
  }

  it('fails a thermostat whose call was in flight each time Setpoint stopped, instead of sending it forever', async () => {
    const fake = fakeService();
    const runId = await confirmed(fake, [id(26), id(21)]);
    const dying = diesInFlight(fake, id(26), { lands: false });
    const stopped: Promise<unknown>[] = [];
    for (let crash = 1; crash <= MAX_SENDS; crash += 1) {
      stopped.push(
        workPlannedRun({
          runId,
          service: dying.service,
          owner: `dies-${crash}`,
          leaseSeconds: 3600,
        }),
      );
      await dying.inFlight(crash);
      // The other thermostat, in a lane of its own, is finished by the first worker before it
      // "dies" (in this test a dead worker's other lanes would run on, racing the next worker).
      if (crash === 1) await appliedBeforeTheCrash(runId, id(21));
      // The process starts again: on the embedded database every lease is a dead process's.
      await clearBulkRunLeases();
    }
    const before = fake.calls.write;
    expect(await workPlannedRun({ runId, service: fake.service, owner: 'last' })).toBe('finished');
    // Not sent a fourth time.
    expect(fake.calls.write).toBe(before);
    const run = (await findBulkRun({ scope: owner, runId })) as BulkRun;
    expect(run).toMatchObject({ state: 'done', applied: 1, failed: 1, notSent: 0 });
    const [stuck] = await listBulkRunItems({ scope: owner, run, outcomes: ['failed'] });
    expect(stuck?.thermostatId).toBe(id(26));
    expect(stuck?.detail).toBe(`Failed after 1 of 2 changes: ${SENT_TOO_OFTEN}`);
    expect(stuck?.detail).toMatch(/sent 3 times without an answer.*may have been applied/i);
    dying.release();
    // The stopped workers' calls end at last: they record nothing over the run's results.
    expect(await Promise.all(stopped)).toEqual(stopped.map(() => 'interrupted'));
    expect(await findBulkRun({ scope: owner, runId })).toMatchObject({ applied: 1, failed: 1 });
  });

  it('cancelled at once after its worker stopped, a run still assigns its template where it applied', async () => {
    const fake = fakeService();
    const runId = await confirmed(fake, [id(24), id(25)], FROST_ALERT);
    const dying = diesInFlight(fake, id(24), { lands: false });
    const stopped = workPlannedRun({ runId, service: dying.service, owner: 'dies' });
    await dying.inFlight(1);
    await appliedBeforeTheCrash(runId, id(25));
    await clearBulkRunLeases();

    expect(await cancelBulkRun({ member: owner, runId }, RUN_KINDS)).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^Cancelled/),
    });
    // Drift is tracked on the one it applied to, as when a worker ends the run.
    const assigned = await db
      .select({ thermostatId: templateAssignments.thermostatId })
      .from(templateAssignments)
      .where(eq(templateAssignments.runId, runId));
    expect(assigned).toEqual([{ thermostatId: id(25) }]);
    dying.release();
    expect(await stopped).toBe('interrupted');
  });

  it('a call in flight when Setpoint stopped may have landed: cancel says so, undo puts it back, resume sends it again', async () => {
    const fake = fakeService();
    const original = structuredClone(fake.states.get(id(27)) as FullState);
    const runId = await confirmed(fake, [id(27)]);
    // The alert settings reach the thermostat, and Setpoint stops before the answer comes.
    const dying = diesInFlight(fake, id(27), { lands: true });
    const stopped = workPlannedRun({ runId, service: dying.service, owner: 'dies' });
    await dying.inFlight(1);
    expect(fake.states.get(id(27))?.alerts.lowTemperatureAlert?.value).toBe(41);
    await clearBulkRunLeases();

    // Cancelled at once (no worker holds it): never "not sent" for what may have landed.
    expect(await cancelBulkRun({ member: owner, runId }, RUN_KINDS)).toMatchObject({ ok: true });
    const run = (await findBulkRun({ scope: owner, runId })) as BulkRun;
    const [item] = await listBulkRunItems({ scope: owner, run });
    expect(item?.outcome).toBe('cancelled');
    expect(item?.detail).toMatch(/^Partly applied: 1 of its changes.*the next may have been too/);

    // Undo puts back both: the configuration made and the alerts that may have been.
    const undo = await planUndoOfRun({ member: owner, runId });
    if (!undo.ok) throw new Error(undo.message);
    await workPlannedRun({ runId: undo.run.id, service: fake.service, owner: 'u' });
    await apply(
      owner,
      (await findBulkRun({ scope: owner, runId: undo.run.id })) as BulkRun,
      fake.service,
    );
    const after = fake.states.get(id(27)) as FullState;
    expect(after.alerts).toEqual(original.alerts);
    expect(after.configuration).toEqual(original.configuration);
    dying.release();
    expect(await stopped).toBe('interrupted');

    // Nothing done yet but a call in flight: a cancel says it may have been applied.
    const second = await confirmed(fake, [id(28)], FROST_ALERT);
    const alone = diesInFlight(fake, id(28), { lands: false });
    const gone = workPlannedRun({ runId: second, service: alone.service, owner: 'dies-again' });
    await alone.inFlight(1);
    await clearBulkRunLeases();
    // Resumed: the call that may not have landed is sent again, and the result recorded once.
    expect(await workPlannedRun({ runId: second, service: fake.service, owner: 'next' })).toBe(
      'finished',
    );
    expect(await findBulkRun({ scope: owner, runId: second })).toMatchObject({
      state: 'done',
      applied: 1,
    });
    expect(fake.states.get(id(28))?.alerts.lowTemperatureAlert?.value).toBe(41);
    alone.release();
    expect(await gone).toBe('interrupted');

    const third = await confirmed(fake, [id(9)], FROST_ALERT);
    const once = diesInFlight(fake, id(9), { lands: false });
    const lost = workPlannedRun({ runId: third, service: once.service, owner: 'dies-once' });
    await once.inFlight(1);
    await clearBulkRunLeases();
    expect(await cancelBulkRun({ member: owner, runId: third }, RUN_KINDS)).toMatchObject({
      ok: true,
    });
    const [cancelled] = await listBulkRunItems({
      scope: owner,
      run: (await findBulkRun({ scope: owner, runId: third })) as BulkRun,
    });
    expect(cancelled).toMatchObject({ outcome: 'cancelled', detail: CANCELLED_IN_FLIGHT });
    once.release();
    expect(await lost).toBe('interrupted');
  });

  it('two jobs of one process for the same run: one holds it, each call made once', async () => {
    const fake = fakeService();
    const runId = await confirmed(fake, [id(13), id(14)], FROST_ALERT);
    const before = fake.calls.write;
    // No owner given: each job names its own lease (as the queue's jobs do).
    const outcomes = await Promise.all([
      workPlannedRun({ runId, service: fake.service }),
      workPlannedRun({ runId, service: fake.service }),
    ]);
    expect(outcomes.sort()).toEqual(['finished', 'held']);
    expect(fake.calls.write - before).toBe(2);
    expect(await findBulkRun({ scope: owner, runId })).toMatchObject({ state: 'done', applied: 2 });
  });

  it('refuses to apply a plan read more than an hour ago', async () => {
    const fake = fakeService();
    const run = await plan(owner, fake.service, [id(22)]);
    await db
      .update(bulkRuns)
      .set({ plannedAt: new Date(Date.now() - 2 * 60 * 60 * 1000) })
      .where(eq(bulkRuns.id, run.id));
    const late = await applyPlannedRun({ member: owner, runId: run.id });
    expect(late).toMatchObject({ ok: false, code: 'invalid' });
    expect(late.ok ? '' : late.message).toMatch(/more than an hour old/);
  });

  it('refuses a viewer, a building manager outside their buildings, and a plan applied twice', async () => {
    const fake = fakeService();
    const byViewer = await planTemplateRun({ member: viewer, templateId, thermostatIds: IDS });
    expect(byViewer).toMatchObject({ ok: false, code: 'forbidden' });
    const outside = await planTemplateRun({
      member: managerA,
      templateId,
      thermostatIds: [id(0), id(15)],
    });
    expect(outside).toMatchObject({ ok: false, code: 'forbidden' });
    expect(outside.ok ? '' : outside.message).toMatch(/not in your portfolio/);
    const foreign = await planTemplateRun({
      member: managerA,
      templateId: '00000000-0000-4000-8000-000000000000',
      thermostatIds: [id(0)],
    });
    expect(foreign).toMatchObject({ ok: false, code: 'forbidden' });

    const mine = await plan(managerA, fake.service, [id(0), id(1)]);
    // Another building manager of the same building may not apply it (only whoever planned it,
    // an owner or an admin), nor may a viewer; the owner may.
    const otherManager = await inviteAndAccept(
      owner.orgId,
      'alder-too@templates.example',
      'building_manager',
      [A],
    );
    const byOther = await applyPlannedRun({ member: otherManager, runId: mine.id });
    expect(byOther).toMatchObject({ ok: false, code: 'forbidden' });
    expect(byOther.ok ? '' : byOther.message).toMatch(/Only whoever planned this/);
    const byViewerApply = await applyPlannedRun({ member: viewer, runId: mine.id });
    expect(byViewerApply).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await apply(owner, mine, fake.service)).toBe('finished');
    const twice = await applyPlannedRun({ member: managerA, runId: mine.id });
    expect(twice).toMatchObject({ ok: false, code: 'invalid' });
  });

  it('discards a plan with cancel, and nothing is sent', async () => {
    const fake = fakeService();
    const run = await plan(owner, fake.service, [id(6), id(7)]);
    const before = fake.calls.write;
    const cancelled = await cancelBulkRun({ member: owner, runId: run.id }, RUN_KINDS);
    expect(cancelled.ok).toBe(true);
    expect((await findBulkRun({ scope: owner, runId: run.id }))?.state).toBe('cancelled');
    const again = await applyPlannedRun({ member: owner, runId: run.id });
    expect(again.ok).toBe(false);
    expect(fake.calls.write).toBe(before);
  });
});
