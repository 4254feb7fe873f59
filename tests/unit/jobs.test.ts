import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { getBoss, sendJob, stopBoss } from '@/lib/jobs/queue';
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
