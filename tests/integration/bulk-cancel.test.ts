import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANCELLED_BEFORE_SENT, cancelBulkRun, startBulkRun } from '@/lib/bulk/runs';
import { workBulkRun } from '@/lib/bulk/worker';
import type { DatabaseHandle } from '@/lib/db/client';
import { addThermostat, ensureBuilding, type Member } from '@/lib/db/queries';
import { bulkRunItems } from '@/lib/db/schema';
import type { RunningSandbox } from '@/sandbox/src/server';
import { SMALL_MINUTE, spendMinuteShare } from '../support/budget';
import { useDatabase } from '../support/database';
import { callCount, connectedOwner, control, startServiceForTests } from '../support/service';

// A bulk run cancelled while its request waits for the call budget: the request is given up,
// never sent, and its thermostats end "cancelled before it was sent", not minutes later applied.
// Here the minute's share a run's writes take is spent by calls that ended 55 s ago, so the
// run's one request waits about 5 s for a slot; the cancel comes at once.
const BULK = 'PATCH /api/v2/thermostats/settings';

let sandbox: RunningSandbox;
let handle: DatabaseHandle;
let owner: Member;
let thermostats: string[];

beforeAll(async () => {
  sandbox = await startServiceForTests({ SERVICE_RATE_LIMIT: JSON.stringify(SMALL_MINUTE) });
  handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
  owner = await connectedOwner(sandbox);
  const demo = await control(sandbox, 'GET', '/portfolio?user=demo');
  thermostats = demo.thermostats.slice(0, 3).map((t: { thermostatId: string }) => t.thermostatId);
  const buildingId = demo.thermostats[0].buildingId as string;
  await ensureBuilding({ orgId: owner.orgId, buildingId, name: 'Demo', timeZone: 'UTC' });
  for (const [index, thermostatId] of thermostats.entries()) {
    await addThermostat({ orgId: owner.orgId, thermostatId, buildingId, unitLabel: `U${index}` });
  }
});
afterAll(async () => {
  await handle?.close();
  await sandbox?.close();
});

describe('a bulk run cancelled while its request waits for the budget', () => {
  it('sends nothing more, and says so for each thermostat', async () => {
    await spendMinuteShare(handle, 'refresh', 55);
    const started = await startBulkRun({
      member: owner,
      thermostatIds: thermostats,
      values: { fanMinimumOnTime: '20' },
    });
    if (!started.ok) throw new Error(started.message);
    const before = await callCount(sandbox, BULK);

    // A short lease: the worker hears of the cancel at its next renewal, a second on.
    const working = workBulkRun({ runId: started.run.id, leaseSeconds: 3 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await cancelBulkRun({ member: owner, runId: started.run.id })).toMatchObject({
      ok: true,
    });
    expect(await working).toBe('cancelled');

    // Past the time the slot would have come: still nothing sent.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(await callCount(sandbox, BULK)).toBe(before);
    const items = await handle.db
      .select()
      .from(bulkRunItems)
      .where(eq(bulkRunItems.runId, started.run.id));
    expect(items.map((i) => [i.outcome, i.detail, i.attempts])).toEqual(
      thermostats.map(() => ['cancelled', CANCELLED_BEFORE_SENT, 0]),
    );
  });
});
