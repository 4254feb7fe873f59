import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryBulkRun, startBulkRun } from '@/lib/bulk/runs';
import { RUN_KINDS } from '@/lib/jobs/run-kinds';
import { cancelBulkRun } from '@/lib/runs/requests';
import { CANCELLED_IN_FLIGHT, MAX_SENDS } from '@/lib/runs/engine';
import { resumeRuns } from '@/lib/runs/sweep';
import { runStatus } from '@/lib/runs/words';
import type { Apply } from '@/lib/bulk/kind';
import { workBulkRun } from '../support/runs';
import {
  type BulkRun,
  claimBulkRun,
  clearBulkRunLeases,
  countBulkRunItems,
  createBulkRun,
  findBulkRun,
  listBulkRunItems,
  listBulkRuns,
  markItemsSent,
  recordItemResults,
} from '@/lib/runs/store';
import type { Database, DatabaseHandle } from '@/lib/db/client';
import { listActivity } from '@/lib/activity/store';
import type { Member } from '@/lib/auth/store';
import { addThermostat, ensureBuilding } from '@/lib/portfolio/store';
import { activityLog, bulkRunItems, bulkRuns, thermostats } from '@/lib/db/schema';
import { stopBoss } from '@/lib/queue/queue';
import { ServiceError } from '@/lib/service/errors';
import type { BulkResult } from '@/lib/service/schemas';
import { databaseTargets, useDatabase } from '../support/database';
import { createFirstOwner, inviteAndAccept } from '../support/members';

/**
 * The bulk-run store and its worker on PGlite and PostgreSQL: runs are created only after the
 * member's role and scope checks; each thermostat's result is recorded exactly once; a run
 * resumes after a crash with only what is still pending (an item whose request was in flight is
 * sent again, once); cancel stops between requests; a run is one activity entry.
 */

const A = '00000000000000000000a001';
const B = '00000000000000000000b001';
const C = '00000000000000000000c001';
const id = (n: number) => String(100000000000 + n);
/** 30 thermostats in A, 30 in B, 5 in C. */
const PORTFOLIO: [string, string][] = [
  ...Array.from({ length: 30 }, (_, i): [string, string] => [id(i), A]),
  ...Array.from({ length: 30 }, (_, i): [string, string] => [id(100 + i), B]),
  ...Array.from({ length: 5 }, (_, i): [string, string] => [id(200 + i), C]),
];

/**
 * A stand-in for the service: records each request's ids, applies all but `failing`. With
 * `together`, the first requests wait (up to 2 s) until that many are in flight at once, so the
 * lanes' overlap does not depend on how fast the database answers.
 */
function fakeService(options: { failing?: Set<string>; delayMs?: number; together?: number } = {}) {
  const requests: string[][] = [];
  let inFlight = 0;
  let peak = 0;
  const apply: Apply = async ({ thermostatIds }) => {
    requests.push([...thermostatIds]);
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    const until = Date.now() + 2000;
    while (options.together && peak < options.together && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 2));
    inFlight -= 1;
    return answer(thermostatIds, options.failing);
  };
  return { apply, requests, peak: () => peak };
}

/** Requests in flight together may reach the service in any order. */
const inOrder = (requests: string[][]) =>
  [...requests].sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));

function answer(thermostatIds: string[], failing = new Set<string>()): BulkResult {
  const results = thermostatIds.map((thermostatId) =>
    failing.has(thermostatId)
      ? { thermostatId, status: 'error' as const, code: 'thermostat_offline', message: null }
      : { thermostatId, status: 'success' as const },
  );
  return { results };
}

describe.each(databaseTargets)('bulk runs on $name', ({ target }) => {
  let handle: DatabaseHandle;
  let db: Database;
  let owner: Member;
  let managerA: Member;
  let managerC: Member;
  let viewer: Member;

  beforeAll(async () => {
    handle = await useDatabase(await target());
    db = handle.db;
    owner = await createFirstOwner('owner@bulk.example', 'Bulk Property');
    for (const [buildingId, name] of [
      [A, 'Alder House'],
      [B, 'Birch Court'],
      [C, 'Cedar Lofts'],
    ] as const) {
      await ensureBuilding({ orgId: owner.orgId, buildingId, name, timeZone: 'America/Denver' });
    }
    for (const [thermostatId, buildingId] of PORTFOLIO) {
      await addThermostat({
        orgId: owner.orgId,
        thermostatId,
        buildingId,
        unitLabel: thermostatId,
      });
    }
    managerA = await inviteAndAccept(owner.orgId, 'alder@bulk.example', 'building_manager', [A]);
    managerC = await inviteAndAccept(owner.orgId, 'cedar@bulk.example', 'building_manager', [C]);
    viewer = await inviteAndAccept(owner.orgId, 'viewer@bulk.example', 'viewer');
  });

  afterAll(async () => {
    await stopBoss();
    await handle.close();
  });

  const itemsOf = async (runId: string) =>
    db
      .select()
      .from(bulkRunItems)
      .where(eq(bulkRunItems.runId, runId))
      .orderBy(bulkRunItems.position);
  const runCount = async () => (await db.select({ n: count() }).from(bulkRuns))[0]?.n ?? 0;
  const entriesOf = async (runId: string) =>
    db.select().from(activityLog).where(eq(activityLog.runId, runId));
  const reload = async (runId: string) =>
    (await db.select().from(bulkRuns).where(eq(bulkRuns.id, runId)))[0] as BulkRun;

  it('checks role, scope and the change before anything is written', async () => {
    const before = await runCount();
    const fan = { fanMinimumOnTime: '20' };
    const inA = PORTFOLIO.filter(([, b]) => b === A).map(([t]) => t);
    const inB = PORTFOLIO.filter(([, b]) => b === B).map(([t]) => t);

    const asViewer = await startBulkRun({ member: viewer, thermostatIds: inA, values: fan });
    expect(asViewer).toMatchObject({ ok: false, code: 'forbidden' });
    // A building manager may change their buildings only: one thermostat of B refuses it all.
    const outside = await startBulkRun({
      member: managerA,
      thermostatIds: [...inA, inB[0]],
      values: fan,
    });
    expect(outside).toMatchObject({ ok: false, code: 'forbidden' });
    if (!outside.ok) expect(outside.message).toMatch(/1 selected thermostat is not in your/);
    const unknown = await startBulkRun({
      member: owner,
      thermostatIds: [id(999)],
      values: fan,
    });
    expect(unknown).toMatchObject({ ok: false, code: 'forbidden' });
    const halfRange = await startBulkRun({
      member: owner,
      thermostatIds: inA,
      values: { heatMin: '50' },
    });
    expect(halfRange).toMatchObject({ ok: false, code: 'invalid' });
    if (!halfRange.ok) expect(halfRange.fieldErrors?.heatMax?.[0]).toMatch(/both/);
    const nothing = await startBulkRun({ member: owner, thermostatIds: inA, values: {} });
    expect(nothing).toMatchObject({ ok: false, code: 'invalid' });
    const twice = await startBulkRun({
      member: owner,
      thermostatIds: [inA[0], inA[0]],
      values: fan,
    });
    expect(twice).toMatchObject({ ok: false, code: 'invalid' });
    expect(await runCount()).toBe(before);

    const mine = await startBulkRun({ member: managerA, thermostatIds: inA, values: fan });
    expect(mine.ok).toBe(true);
    if (!mine.ok) return;
    expect(mine.run).toMatchObject({ state: 'queued', total: 30, startedBy: managerA.userId });
    expect(mine.run.changes).toEqual({ fanMinimumOnTime: 20 });
    const items = await itemsOf(mine.run.id);
    expect(items.map((i) => i.thermostatId)).toEqual(inA);
    expect(new Set(items.map((i) => i.outcome))).toEqual(new Set(['pending']));
    expect(items.map((i) => i.position)).toEqual(inA.map((_, i) => i));
    // Its job was queued and noted on the run.
    expect((await reload(mine.run.id)).jobId).toBeTruthy();
    await cancelBulkRun({ member: managerA, runId: mine.run.id }, RUN_KINDS);
  });

  it('records each thermostat’s result once, however often it is reported', async () => {
    const newRun = () =>
      createBulkRun({
        orgId: owner.orgId,
        startedBy: owner.userId,
        startedByName: owner.name,
        changes: { fanMinimumOnTime: 5 },
        items: [
          { thermostatId: id(0), buildingId: A },
          { thermostatId: id(1), buildingId: A },
        ],
      });
    const run = await newRun();
    // Another run of the same thermostats, there while this run's results are recorded.
    const other = await newRun();
    const first = await recordItemResults({
      runId: run.id,
      results: [
        { thermostatId: id(0), outcome: 'applied', detail: 'Applied.' },
        { thermostatId: id(1), outcome: 'failed', detail: 'The thermostat is offline.' },
      ],
    });
    const again = await recordItemResults({
      runId: run.id,
      results: [{ thermostatId: id(1), outcome: 'applied', detail: 'Applied.' }],
    });
    expect([first, again]).toEqual([2, 0]);
    const items = await itemsOf(run.id);
    expect(items.map((i) => [i.outcome, i.detail])).toEqual([
      ['applied', 'Applied.'],
      ['failed', 'The thermostat is offline.'],
    ]);
    expect(await reload(run.id)).toMatchObject({ applied: 1, failed: 1 });
    // Items with a result are not sent again.
    expect(await markItemsSent({ runId: run.id, thermostatIds: [id(0), id(1)] })).toEqual([]);
    // Another run's items are untouched by this run's results: still pending, never sent.
    const others = await itemsOf(other.id);
    expect(others.map((i) => [i.thermostatId, i.outcome, i.detail, i.attempts])).toEqual([
      [id(0), 'pending', '', 0],
      [id(1), 'pending', '', 0],
    ]);
    expect(await reload(other.id)).toMatchObject({ applied: 0, failed: 0 });
    await cancelBulkRun({ member: owner, runId: run.id }, RUN_KINDS);
    await cancelBulkRun({ member: owner, runId: other.id }, RUN_KINDS);
  });

  it('applies a run in requests of at most 25, 3 in flight, and finishes it with one entry', async () => {
    const failing = new Set([id(3), id(104)]);
    const service = fakeService({ failing, together: 3 });
    const started = await startBulkRun({
      member: owner,
      thermostatIds: PORTFOLIO.map(([t]) => t),
      values: { fanMinimumOnTime: '20' },
    });
    if (!started.ok) throw new Error(started.message);
    expect(await workBulkRun({ runId: started.run.id, apply: service.apply })).toBe('finished');
    expect(inOrder(service.requests).map((r) => r.length)).toEqual([25, 25, 15]);
    expect(inOrder(service.requests).flat()).toEqual(PORTFOLIO.map(([t]) => t));
    expect(service.peak()).toBe(3);
    const run = await reload(started.run.id);
    expect(run).toMatchObject({ state: 'done', applied: 63, failed: 2, notSent: 0, total: 65 });
    expect(run.leaseOwner).toBeNull();
    expect(runStatus(run)).toEqual({ label: 'Done with 2 failures', outcome: 'failed' });
    const items = await itemsOf(run.id);
    expect(items.filter((i) => i.outcome === 'failed').map((i) => i.thermostatId)).toEqual([
      ...failing,
    ]);
    expect(items.every((i) => i.attempts === 1 && i.finishedAt !== null)).toBe(true);
    const [entry, ...more] = await entriesOf(run.id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: 'configuration.bulk_update',
      userId: owner.userId,
      outcome: 'failure',
      error: '2 failed',
      buildingId: null,
    });
    expect(entry?.summary).toMatch(/^Bulk configuration of 65 thermostats: fan minimum/);
    expect(entry?.summary).toContain(
      'Done with 2 failures: 63 done, 2 failed, 0 not sent (of 65).',
    );
    // Working it again changes nothing: it has finished.
    expect(await workBulkRun({ runId: run.id, apply: service.apply })).toBe('held');
    expect(service.requests).toHaveLength(3);

    // Retry: a new run of just the failed ones, the first left as it ended.
    const retried = await retryBulkRun({ member: owner, runId: run.id });
    if (!retried.ok) throw new Error(retried.message);
    expect(retried.run).toMatchObject({ total: 2, retryOf: run.id, changes: run.changes });
    expect((await itemsOf(retried.run.id)).map((i) => i.thermostatId)).toEqual([...failing]);
    const fixed = fakeService();
    expect(await workBulkRun({ runId: retried.run.id, apply: fixed.apply })).toBe('finished');
    expect(fixed.requests).toEqual([[...failing]]);
    expect(runStatus(await reload(retried.run.id))).toEqual({ label: 'Done', outcome: 'done' });
    expect(await reload(run.id)).toMatchObject({ applied: 63, failed: 2 });
  });

  it('resumes after a crash with only what is pending; an in-flight request is sent once more', async () => {
    const ids = PORTFOLIO.slice(0, 60).map(([t]) => t);
    const started = await startBulkRun({
      member: owner,
      thermostatIds: ids,
      values: { holdAction: 'indefinite' },
    });
    if (!started.ok) throw new Error(started.message);
    const runId = started.run.id;
    // Worker 1 claims it, finishes request 0, has request 1 in flight, and dies.
    expect(await claimBulkRun({ runId, owner: 'worker-1', leaseSeconds: 30 })).not.toBeNull();
    await markItemsSent({ runId, thermostatIds: ids.slice(0, 25) });
    await recordItemResults({
      runId,
      results: ids
        .slice(0, 25)
        .map((t) => ({ thermostatId: t, outcome: 'applied', detail: 'Applied.' })),
    });
    await markItemsSent({ runId, thermostatIds: ids.slice(25, 50) });

    // Its lease still runs: another worker does nothing.
    const service = fakeService();
    expect(await workBulkRun({ runId, owner: 'worker-2', apply: service.apply })).toBe('held');
    expect(service.requests).toEqual([]);

    // The process starts again: on the embedded database every lease is a dead process's.
    await clearBulkRunLeases();
    expect(await workBulkRun({ runId, owner: 'worker-2', apply: service.apply })).toBe('finished');
    expect(inOrder(service.requests)).toEqual([ids.slice(25, 50), ids.slice(50, 60)]);
    const items = await itemsOf(runId);
    expect(items.map((i) => i.outcome)).toEqual(ids.map(() => 'applied'));
    expect(items.map((i) => i.attempts)).toEqual(ids.map((_, i) => (i >= 25 && i < 50 ? 2 : 1)));
    expect(await reload(runId)).toMatchObject({ state: 'done', applied: 60, failed: 0 });
    expect(await entriesOf(runId)).toHaveLength(1);
  });

  it('an item that keeps being in flight when Setpoint stops is failed, not sent forever', async () => {
    const run = await createBulkRun({
      orgId: owner.orgId,
      startedBy: owner.userId,
      startedByName: owner.name,
      changes: { fanMinimumOnTime: 7 },
      items: [{ thermostatId: id(5), buildingId: A }],
    });
    for (let crash = 0; crash < MAX_SENDS; crash += 1) {
      await markItemsSent({ runId: run.id, thermostatIds: [id(5)] });
    }
    const service = fakeService();
    expect(await workBulkRun({ runId: run.id, apply: service.apply })).toBe('finished');
    expect(service.requests).toEqual([]);
    const [item] = await itemsOf(run.id);
    expect(item).toMatchObject({ outcome: 'failed', attempts: MAX_SENDS + 1 });
    expect(item?.detail).toMatch(/without an answer/);
  });

  it('two workers at once: one holds the run, every result recorded once', async () => {
    const started = await startBulkRun({
      member: owner,
      thermostatIds: PORTFOLIO.map(([t]) => t),
      values: { fanMinimumOnTime: '30' },
    });
    if (!started.ok) throw new Error(started.message);
    const one = fakeService({ delayMs: 10 });
    const two = fakeService({ delayMs: 10 });
    const outcomes = await Promise.all([
      workBulkRun({ runId: started.run.id, owner: 'one', apply: one.apply }),
      workBulkRun({ runId: started.run.id, owner: 'two', apply: two.apply }),
    ]);
    expect(outcomes.sort()).toEqual(['finished', 'held']);
    expect([...one.requests, ...two.requests].flat().sort()).toEqual(
      PORTFOLIO.map(([t]) => t).sort(),
    );
    expect(await reload(started.run.id)).toMatchObject({ applied: 65, state: 'done' });
  });

  it('cancel stops between requests: those in flight are recorded, the rest cancelled', async () => {
    // Six requests: three go out at once, the cancel comes while they are in flight.
    const selection = Array.from({ length: 150 }, (_, i) => id(20_000 + i));
    const run0 = await createBulkRun({
      orgId: owner.orgId,
      startedBy: owner.userId,
      startedByName: owner.name,
      changes: { fanMinimumOnTime: 15 },
      items: selection.map((thermostatId) => ({ thermostatId, buildingId: A })),
    });
    const runId = run0.id;
    const requests: string[][] = [];
    const cancels: unknown[] = [];
    const apply: Apply = async ({ thermostatIds }) => {
      requests.push(thermostatIds);
      if (requests.length === 1) {
        // A building manager who did not start it may not; the owner may.
        cancels.push(await cancelBulkRun({ member: managerA, runId }, RUN_KINDS));
        cancels.push(await cancelBulkRun({ member: owner, runId }, RUN_KINDS));
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
      return answer(thermostatIds);
    };
    expect(await workBulkRun({ runId, apply })).toBe('cancelled');
    expect(cancels).toMatchObject([
      { ok: false, code: 'forbidden' },
      { ok: true, message: expect.stringMatching(/^Cancelling/) },
    ]);
    // At most the three in flight when the cancel came; nothing started after.
    expect(requests.length).toBeGreaterThanOrEqual(1);
    expect(requests.length).toBeLessThanOrEqual(3);
    const applied = requests.length * 25;
    expect(inOrder(requests).flat()).toEqual(selection.slice(0, applied));
    const run = await reload(runId);
    expect(run).toMatchObject({ state: 'cancelled', applied, cancelled: 150 - applied });
    expect(runStatus(run)).toEqual({
      label: `Cancelled after ${applied} of 150 applied`,
      outcome: 'cancelled',
    });
    expect(run.cancelledByName).toBe(owner.name);
    const items = await itemsOf(runId);
    expect(items.slice(applied).every((i) => i.outcome === 'cancelled' && i.attempts === 0)).toBe(
      true,
    );
    const [entry, ...more] = await entriesOf(runId);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ outcome: 'failure', error: 'cancelled' });
    expect(await cancelBulkRun({ member: owner, runId }, RUN_KINDS)).toMatchObject({ ok: false });

    // A queued run, or one whose worker is gone, is cancelled at once; an item a dead worker had
    // in flight says it may have been applied.
    const queued = await startBulkRun({
      member: owner,
      thermostatIds: [id(0), id(1)],
      values: { fanMinimumOnTime: '15' },
    });
    if (!queued.ok) throw new Error(queued.message);
    await claimBulkRun({ runId: queued.run.id, owner: 'gone', leaseSeconds: 30 });
    await markItemsSent({ runId: queued.run.id, thermostatIds: [id(0)] });
    await clearBulkRunLeases();
    expect(await cancelBulkRun({ member: owner, runId: queued.run.id }, RUN_KINDS)).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^Cancelled/),
    });
    const [inFlight, waiting] = await itemsOf(queued.run.id);
    expect(inFlight).toMatchObject({ outcome: 'cancelled', detail: CANCELLED_IN_FLIGHT });
    expect(waiting).toMatchObject({
      outcome: 'cancelled',
      detail: 'Cancelled before it was sent.',
    });
    expect(await entriesOf(queued.run.id)).toHaveLength(1);
  });

  it('a connection that ended stops the run: the rest is not sent, and it reads Failed', async () => {
    const started = await startBulkRun({
      member: owner,
      thermostatIds: PORTFOLIO.slice(0, 50).map(([t]) => t),
      values: { fanMinimumOnTime: '25' },
    });
    if (!started.ok) throw new Error(started.message);
    const apply: Apply = async () => {
      throw new ServiceError('reconnect');
    };
    expect(await workBulkRun({ runId: started.run.id, apply })).toBe('finished');
    const run = await reload(started.run.id);
    expect(run).toMatchObject({ state: 'done', applied: 0, notSent: 50 });
    expect(runStatus(run)).toEqual({ label: 'Failed', outcome: 'failed' });
    expect(run.note).toMatch(
      /connection to the thermostat service has ended: an owner or admin must reconnect it/,
    );
    const items = await itemsOf(run.id);
    expect(items.every((i) => i.outcome === 'not_sent' && i.attempts === 0)).toBe(true);
    expect(items[0]?.detail).toMatch(/^Not sent: .*an owner or admin must reconnect it/);
  });

  it('a spent call budget pauses the run until then, with nothing counted as sent', async () => {
    const started = await startBulkRun({
      member: owner,
      thermostatIds: [id(10), id(11)],
      values: { fanMinimumOnTime: '25' },
    });
    if (!started.ok) throw new Error(started.message);
    const until = new Date(Date.now() + 60_000);
    const apply: Apply = async () => {
      throw new ServiceError('rate_limited', { retryAt: until });
    };
    expect(await workBulkRun({ runId: started.run.id, apply })).toBe('paused');
    const run = await reload(started.run.id);
    expect(run).toMatchObject({ state: 'running', leaseOwner: null, applied: 0 });
    expect(run.notBefore?.getTime()).toBe(until.getTime());
    expect(run.note).toMatch(/^Waiting: The thermostat service is busy/);
    expect((await itemsOf(run.id)).map((i) => [i.outcome, i.attempts])).toEqual([
      ['pending', 0],
      ['pending', 0],
    ]);
    // Not before its time, by any worker.
    expect(await claimBulkRun({ runId: run.id, owner: 'early', leaseSeconds: 30 })).toBeNull();
    await cancelBulkRun({ member: owner, runId: run.id }, RUN_KINDS);
  });

  it('the sweep gives a run whose worker died a new job', async () => {
    const started = await startBulkRun({
      member: owner,
      thermostatIds: [id(12)],
      values: { fanMinimumOnTime: '25' },
    });
    if (!started.ok) throw new Error(started.message);
    const firstJob = (await reload(started.run.id)).jobId;
    // Its job is still queued: nothing to do.
    expect(await resumeRuns()).toBe(0);
    // A worker took the job and died holding the lease: once the lease is gone, a new job.
    await db.update(bulkRuns).set({ jobId: null }).where(eq(bulkRuns.id, started.run.id));
    await claimBulkRun({ runId: started.run.id, owner: 'dead', leaseSeconds: 30 });
    expect(await resumeRuns()).toBe(0);
    expect(await resumeRuns({ atStartUp: true })).toBe(handle.kind === 'pglite' ? 1 : 0);
    await clearBulkRunLeases();
    if (handle.kind !== 'pglite') expect(await resumeRuns()).toBe(1);
    const job = (await reload(started.run.id)).jobId;
    expect(job).toBeTruthy();
    expect(job).not.toBe(firstJob);
    await cancelBulkRun({ member: owner, runId: started.run.id }, RUN_KINDS);
  });

  it('a building manager sees runs that touched their buildings, and only those items', async () => {
    const started = await startBulkRun({
      member: owner,
      thermostatIds: PORTFOLIO.filter(([, b]) => b !== C).map(([t]) => t),
      values: { fanMinimumOnTime: '40' },
    });
    if (!started.ok) throw new Error(started.message);
    await workBulkRun({ runId: started.run.id, apply: fakeService().apply });
    const runId = started.run.id;

    const ofA = await listBulkRuns({ scope: managerA, limit: 100 });
    const ofC = await listBulkRuns({ scope: managerC, limit: 100 });
    expect(ofA.map((r) => r.id)).toContain(runId);
    expect(ofC.map((r) => r.id)).not.toContain(runId);
    expect(await findBulkRun({ scope: managerC, runId })).toBeNull();
    const seenByA = await findBulkRun({ scope: managerA, runId });
    if (!seenByA) throw new Error('not visible');
    const items = await listBulkRunItems({ scope: managerA, run: seenByA, limit: 1000 });
    expect(new Set(items.map((i) => i.buildingId))).toEqual(new Set([A]));
    expect(items[0]?.buildingName).toBe('Alder House');
    expect((await countBulkRunItems({ scope: managerA, run: seenByA })).applied).toBe(30);
    expect((await countBulkRunItems({ scope: owner, run: seenByA })).applied).toBe(60);
    // Nor may they cancel or retry what is not theirs to see.
    expect(await cancelBulkRun({ member: managerC, runId }, RUN_KINDS)).toMatchObject({
      code: 'forbidden',
    });
    expect(await retryBulkRun({ member: managerC, runId })).toMatchObject({ code: 'forbidden' });

    // The activity log: one entry, found by building and by thermostat, in scope.
    const byBuilding = await listActivity({ scope: owner, filter: { buildingId: B } });
    expect(byBuilding.filter((e) => e.runId === runId)).toHaveLength(1);
    const byThermostat = await listActivity({
      scope: owner,
      filter: { thermostatIds: [id(101)] },
    });
    expect(byThermostat.map((e) => e.runId)).toContain(runId);
    const byOther = await listActivity({ scope: owner, filter: { buildingId: C } });
    expect(byOther.map((e) => e.runId)).not.toContain(runId);
    expect((await listActivity({ scope: managerA })).map((e) => e.runId)).toContain(runId);
    expect((await listActivity({ scope: managerC })).map((e) => e.runId)).not.toContain(runId);
  });

  it('a selection of 1,500 is checked, stored and applied in 60 requests', async () => {
    const fleet = Array.from({ length: 1500 }, (_, i) => id(10_000 + i));
    await db
      .insert(thermostats)
      .values(fleet.map((thermostatId) => ({ orgId: owner.orgId, thermostatId, buildingId: B })));
    const started = await startBulkRun({
      member: owner,
      thermostatIds: fleet,
      values: { fanMinimumOnTime: '10' },
    });
    if (!started.ok) throw new Error(started.message);
    const service = fakeService({ delayMs: 1 });
    expect(await workBulkRun({ runId: started.run.id, apply: service.apply })).toBe('finished');
    expect(service.requests).toHaveLength(60);
    expect(service.peak()).toBeLessThanOrEqual(3);
    expect(await reload(started.run.id)).toMatchObject({ applied: 1500, total: 1500 });
    const [{ recorded } = { recorded: 0 }] = await db
      .select({ recorded: sql<number>`count(distinct ${bulkRunItems.thermostatId})::int` })
      .from(bulkRunItems)
      .where(and(eq(bulkRunItems.runId, started.run.id), eq(bulkRunItems.outcome, 'applied')));
    expect(recorded).toBe(1500);
  });
});
