import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import * as api from '@/lib/thermostat-api/resources';
import type { RunningSandbox } from '@/sandbox/src/server';
import { SMALL_MINUTE, spendMinuteShare } from '../support/budget';
import { useDatabase } from '../support/database';
import { connectedOwner, control as controlOf, startServiceForTests } from '../support/service';

// Background work that waits for the budget must not hold up what a person waits for. Here the
// minute's background share is spent (by calls that ended 55 s ago, so it frees in about 5 s)
// while a person's share still has room: more background reads than the process sends at once
// wait for that share, and a person's read, asked after them, goes first.
/** More than the process sends at once (lib/thermostat-api/request.ts). */
const WAITING_READS = 16;

let sandbox: RunningSandbox;
let handle: DatabaseHandle;
let orgId: string;
let thermostats: string[];

beforeAll(async () => {
  sandbox = await startServiceForTests({ SERVICE_RATE_LIMIT: JSON.stringify(SMALL_MINUTE) });
  handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
  orgId = (await connectedOwner(sandbox)).orgId;
  thermostats = (await controlOf(sandbox, 'GET', '/portfolio?user=demo')).thermostats.map(
    (t: { thermostatId: string }) => t.thermostatId,
  );
});
afterAll(async () => {
  await handle?.close();
  await sandbox?.close();
});

describe('the call budget’s priorities in one process', () => {
  it('sends a person’s read while background reads wait for their share', async () => {
    await spendMinuteShare(handle, 'background', 55);

    const order: string[] = [];
    const background = Array.from({ length: WAITING_READS }, (_, i) =>
      api
        .getStatus({
          orgId,
          thermostatId: thermostats[i % thermostats.length] ?? '',
          priority: 'background',
        })
        .then(() => order.push('background')),
    );
    // Every background read has asked for its slot (and been told to wait) before the person's.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await api
      .getStatus({ orgId, thermostatId: thermostats[0] ?? '', priority: 'interactive' })
      .then(() => order.push('person'));
    await Promise.all(background);

    expect(order[0]).toBe('person');
    expect(order.filter((who) => who === 'background')).toHaveLength(WAITING_READS);
  });
});
