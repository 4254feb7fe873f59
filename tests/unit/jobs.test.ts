import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { getBoss, sendJob, stopBoss } from '@/lib/queue/queue';
import { databaseTargets, useDatabase } from '../support/database';

const until = async (check: () => Promise<boolean> | boolean, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe.each(databaseTargets)('job queue on $name', ({ target }) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await useDatabase(await target());
  });
  afterAll(async () => {
    await stopBoss();
    await handle.close();
  });

  it('runs a job once, with its data, and keeps its state', async () => {
    const boss = await getBoss();
    const seen: unknown[] = [];
    await boss.work('prune-readings', { pollingIntervalSeconds: 0.5 }, async ([job]) => {
      seen.push(job?.data);
    });
    const id = await sendJob('prune-readings', { olderThan: 'a day' });
    expect(id).toBeTruthy();
    await until(() => seen.length === 1);
    await until(
      async () => (await boss.getJobById('prune-readings', id ?? ''))?.state === 'completed',
    );
    expect(seen).toEqual([{ olderThan: 'a day' }]);
    await boss.offWork('prune-readings');
  });
});

describe('job queue on PGlite across a restart', () => {
  it('a job sent before the process stops is worked after it starts again', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'setpoint-jobs-'));
    let handle = await useDatabase({ kind: 'pglite', dataDir });
    const id = await sendJob('prune-readings', { n: 1 });
    await stopBoss();
    await handle.close();

    handle = await useDatabase({ kind: 'pglite', dataDir });
    const boss = await getBoss();
    const seen: unknown[] = [];
    await boss.work('prune-readings', { pollingIntervalSeconds: 0.5 }, async ([job]) => {
      seen.push(job?.id);
    });
    await until(() => seen.length === 1);
    expect(seen).toEqual([id]);
    await stopBoss();
    await handle.close();
  });
});

describe('the poller’s queue', () => {
  it('holds one round running and one waiting, however many are sent', async () => {
    const handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
    try {
      const boss = await getBoss();
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let started = 0;
      await boss.work('poll-round', { pollingIntervalSeconds: 0.5 }, async () => {
        started += 1;
        await released;
      });
      await sendJob('poll-round', {}, { singletonKey: 'poll' });
      await until(() => started === 1);
      // Rounds sent while one runs (each minute's schedule, a restart's first round): one waits.
      const sent = [];
      for (let i = 0; i < 3; i += 1)
        sent.push(await sendJob('poll-round', {}, { singletonKey: 'poll' }));
      expect(sent.filter(Boolean)).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(started).toBe(1);
      release();
      await until(() => started === 2);
      await boss.offWork('poll-round');
    } finally {
      await stopBoss();
      await handle.close();
    }
  });

  it('replaces the queue an earlier version made, with its schedule', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'setpoint-jobs-'));
    let handle = await useDatabase({ kind: 'pglite', dataDir });
    const boss = await getBoss();
    await boss.createQueue('poll-readings');
    await boss.schedule('poll-readings', '* * * * *', {}, { singletonKey: 'poll' });
    await stopBoss();
    await handle.close();

    handle = await useDatabase({ kind: 'pglite', dataDir });
    try {
      const again = await getBoss();
      expect(await again.getQueue('poll-readings')).toBeNull();
      expect((await again.getSchedules()).map((s) => s.name)).not.toContain('poll-readings');
      expect((await again.getQueue('poll-round'))?.policy).toBe('stately');
    } finally {
      await stopBoss();
      await handle.close();
    }
  });
});
