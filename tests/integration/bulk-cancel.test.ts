import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { startBulkRun } from '@/lib/bulk/runs';
import { RUN_KINDS } from '@/lib/jobs/run-kinds';
import { cancelBulkRun } from '@/lib/runs/requests';
import { CANCELLED_BEFORE_SENT } from '@/lib/runs/engine';
import { workBulkRun } from '../support/runs';
import { addThermostat, ensureBuilding } from '@/lib/portfolio/store';
import { bulkRunItems } from '@/lib/db/schema';
import { smallBudgetStack, spendMinuteShare } from '../support/budget';
import { callCount } from '../support/service';

// A bulk run cancelled while its request waits for the call budget: the request is given up,
// never sent, and its thermostats end "cancelled before it was sent", not minutes later applied.
// Here the minute's share a run's writes take is spent by calls that ended 55 s ago, so the
// run's one request waits about 5 s for a slot; the cancel comes at once.
const BULK = 'PATCH /api/v2/thermostats/settings';

const stack = smallBudgetStack();

beforeAll(async () => {
  const { owner, demo } = stack;
  const [first] = demo;
  if (!first) throw new Error('the sandbox has no demo thermostats');
  await ensureBuilding({
    orgId: owner.orgId,
    buildingId: first.buildingId,
    name: 'Demo',
    timeZone: 'UTC',
  });
  for (const [index, { thermostatId }] of demo.slice(0, 3).entries()) {
    await addThermostat({
      orgId: owner.orgId,
      thermostatId,
      buildingId: first.buildingId,
      unitLabel: `U${index}`,
    });
  }
});

describe('a bulk run cancelled while its request waits for the budget', () => {
  it('sends nothing more, and says so for each thermostat', async () => {
    const { sandbox, handle, owner } = stack;
    const thermostats = stack.demo.slice(0, 3).map((t) => t.thermostatId);
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
    expect(await cancelBulkRun({ member: owner, runId: started.run.id }, RUN_KINDS)).toMatchObject({
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
