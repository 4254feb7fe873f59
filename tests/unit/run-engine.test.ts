import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '@/lib/auth/store';
import type { Database, DatabaseHandle } from '@/lib/db/client';
import { activityLog, bulkRunItems, bulkRuns } from '@/lib/db/schema';
import { addThermostat, ensureBuilding } from '@/lib/portfolio/store';
import { stopBoss } from '@/lib/queue/queue';
import {
  CANCELLED_BEFORE_SENT,
  MAX_SENDS,
  type RunContext,
  type RunKind,
  type RunKinds,
  workRun,
} from '@/lib/runs/engine';
import {
  type BulkRun,
  claimBulkRun,
  createBulkRun,
  createPlannedRun,
  finishPlanning,
  listPendingItems,
  markItemsSent,
  recordItemResults,
} from '@/lib/runs/store';
import { ServiceError } from '@/lib/service/errors';
import { databaseTargets, useDatabase } from '../support/database';
import { createFirstOwner } from '../support/members';

/**
 * The run engine alone, with stand-in kinds: it works a run by the kind its row names, lends the
 * kind its lease, stop and carry, and ends the run the same way whatever the kind.
 */

const BUILDING = '00000000000000000000e001';
const id = (n: number) => String(300000000000 + n);

/** A kind that applies every pending thermostat in one step, after `before` (if any). */
function applyingKind(
  before?: (context: RunContext) => Promise<void>,
): RunKind & { worked: string[]; ended: BulkRun[] } {
  const kind = {
    worked: [] as string[],
    ended: [] as BulkRun[],
    async work(context: RunContext) {
      kind.worked.push(context.run.id);
      await before?.(context);
      if (context.stopped()) return undefined;
      const pending = await listPendingItems({ runId: context.run.id });
      const ids = await context.carry(
        pending.map((item) => item.thermostatId),
        (thermostatId) => `Worn: ${thermostatId}`,
      );
      await recordItemResults({
        runId: context.run.id,
        results: ids.map((thermostatId) => ({ thermostatId, outcome: 'applied', detail: 'Done.' })),
      });
      return undefined;
    },
    async finished(run: BulkRun) {
      kind.ended.push(run);
    },
  };
  return kind;
}

/** A kind the test does not expect to be asked. */
const NEVER: RunKind = {
  work: () => Promise.reject(new Error('the wrong kind was asked to work the run')),
};

describe.each(databaseTargets)('the run engine on $name', ({ target }) => {
  let handle: DatabaseHandle;
  let db: Database;
  let owner: Member;

  beforeAll(async () => {
    handle = await useDatabase(await target());
    db = handle.db;
    owner = await createFirstOwner('owner@engine.example', 'Engine Property');
    await ensureBuilding({
      orgId: owner.orgId,
      buildingId: BUILDING,
      name: 'Elm Row',
      timeZone: 'America/Chicago',
    });
    for (let n = 0; n < 4; n += 1) {
      await addThermostat({
        orgId: owner.orgId,
        thermostatId: id(n),
        buildingId: BUILDING,
        unitLabel: `Unit ${n}`,
      });
    }
  });

  afterAll(async () => {
    await stopBoss();
    await handle.close();
  });

  const started = { startedByName: 'Owner' };
  const configurationRun = () =>
    createBulkRun({
      orgId: owner.orgId,
      startedBy: owner.userId,
      startedByName: started.startedByName,
      changes: { fanMinimumOnTime: 10 },
      items: [0, 1, 2, 3].map((n) => ({ thermostatId: id(n), buildingId: BUILDING })),
    });
  const itemsOf = (runId: string) =>
    db
      .select()
      .from(bulkRunItems)
      .where(eq(bulkRunItems.runId, runId))
      .orderBy(bulkRunItems.position);
  const reload = async (runId: string) =>
    (await db.select().from(bulkRuns).where(eq(bulkRuns.id, runId)))[0] as BulkRun;
  const entriesOf = (runId: string) =>
    db.select().from(activityLog).where(eq(activityLog.runId, runId));

  it('works a run by the kind its row names, then ends it once, with its entry and the kind’s own end', async () => {
    const run = await configurationRun();
    const configuration = applyingKind();
    const kinds: RunKinds = { configuration, template: NEVER, undo: NEVER, occupancy: NEVER };
    expect(await workRun({ runId: run.id, kinds })).toBe('finished');
    expect(configuration.worked).toEqual([run.id]);
    expect(await reload(run.id)).toMatchObject({ state: 'done', applied: 4, failed: 0 });
    expect((await itemsOf(run.id)).map((item) => item.outcome)).toEqual(Array(4).fill('applied'));
    expect(await entriesOf(run.id)).toHaveLength(1);
    expect(configuration.ended.map((ended) => ended.id)).toEqual([run.id]);
    // Finished: a job for it again finds nothing to do.
    expect(await workRun({ runId: run.id, kinds })).toBe('held');
    expect(configuration.worked).toHaveLength(1);
  });

  it('leaves a run another worker holds alone', async () => {
    const run = await configurationRun();
    expect(await claimBulkRun({ runId: run.id, owner: 'elsewhere', leaseSeconds: 30 })).not.toBe(
      null,
    );
    const configuration = applyingKind();
    expect(
      await workRun({
        runId: run.id,
        kinds: { configuration, template: NEVER, undo: NEVER, occupancy: NEVER },
      }),
    ).toBe('held');
    expect(configuration.worked).toEqual([]);
    expect((await reload(run.id)).leaseOwner).toBe('elsewhere');
  });

  it('fails a thermostat carried too often with the kind’s words, and sends the rest', async () => {
    const run = await configurationRun();
    for (let send = 0; send < MAX_SENDS; send += 1) {
      await markItemsSent({ runId: run.id, thermostatIds: [id(2)] });
    }
    const configuration = applyingKind();
    await workRun({
      runId: run.id,
      kinds: { configuration, template: NEVER, undo: NEVER, occupancy: NEVER },
    });
    const items = await itemsOf(run.id);
    expect(items.map((item) => [item.thermostatId, item.outcome, item.detail])).toEqual([
      [id(0), 'applied', 'Done.'],
      [id(1), 'applied', 'Done.'],
      [id(2), 'failed', `Worn: ${id(2)}`],
      [id(3), 'applied', 'Done.'],
    ]);
  });

  it('pauses a run the kind stops on a spent budget, its calls not counted, a job queued for later', async () => {
    const run = await configurationRun();
    const configuration = applyingKind(async (context) => {
      const ids = await context.carry([id(0), id(1)], () => 'worn');
      // The budget was spent before the call went: nothing was sent.
      await context.uncarry(ids);
      const error = new ServiceError('rate_limited', { status: 429, retryAfterSeconds: 120 });
      expect(context.stopsRun(error)).toBe(true);
      expect(context.stopsRun(new ServiceError('validation', { status: 422 }))).toBe(false);
    });
    expect(
      await workRun({
        runId: run.id,
        kinds: { configuration, template: NEVER, undo: NEVER, occupancy: NEVER },
      }),
    ).toBe('paused');
    const paused = await reload(run.id);
    expect(paused).toMatchObject({ leaseOwner: null, applied: 0 });
    expect(paused.note).toMatch(/^Waiting: /);
    expect(paused.notBefore?.getTime()).toBeGreaterThan(Date.now() + 60_000);
    expect(paused.jobId).not.toBe(null);
    expect((await itemsOf(run.id)).map((item) => [item.outcome, item.attempts])).toEqual(
      Array(4).fill(['pending', 0]),
    );
    expect(configuration.ended).toEqual([]);
  });

  it('ends a run cancelled between calls, the rest cancelled before it was sent', async () => {
    const run = await configurationRun();
    const configuration = applyingKind(async (context) => {
      await db
        .update(bulkRuns)
        .set({ cancelRequestedAt: new Date(), cancelledByName: 'Owner' })
        .where(eq(bulkRuns.id, run.id));
      expect(await context.shouldStop()).toBe(true);
      expect(context.stopped()).toEqual({ kind: 'cancel' });
      expect(context.abandon.aborted).toBe(true);
    });
    expect(
      await workRun({
        runId: run.id,
        kinds: { configuration, template: NEVER, undo: NEVER, occupancy: NEVER },
      }),
    ).toBe('cancelled');
    expect(await reload(run.id)).toMatchObject({ state: 'cancelled', cancelled: 4 });
    expect(new Set((await itemsOf(run.id)).map((item) => item.detail))).toEqual(
      new Set([CANCELLED_BEFORE_SENT]),
    );
    expect(configuration.ended.map((ended) => ended.state)).toEqual(['cancelled']);
  });

  it('leaves a planned run to a member: not ended, no entry, the kind’s end not called', async () => {
    const run = await createPlannedRun({
      orgId: owner.orgId,
      startedBy: owner.userId,
      startedByName: started.startedByName,
      kind: 'template',
      title: 'Vacant unit',
      changes: {},
      items: [{ thermostatId: id(0), buildingId: BUILDING, target: null, expected: null }],
    });
    let planned = false;
    const template: RunKind & { ended: BulkRun[] } = {
      ended: [],
      async work(context) {
        planned = await finishPlanning({ runId: run.id, owner: context.owner, summary: {} });
        return 'planned';
      },
      async finished(ended) {
        template.ended.push(ended);
      },
    };
    expect(
      await workRun({
        runId: run.id,
        kinds: { configuration: NEVER, template, undo: NEVER, occupancy: NEVER },
      }),
    ).toBe('finished');
    expect(planned).toBe(true);
    expect((await reload(run.id)).state).toBe('planned');
    expect(await entriesOf(run.id)).toEqual([]);
    expect(template.ended).toEqual([]);
  });
});
