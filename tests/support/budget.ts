import { sql } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import type { Member } from '@/lib/auth/store';
import { budgetWindows, type Priority } from '@/lib/service/budget-windows';
import type { RunningSandbox } from '@/sandbox/src/server';
import { useDatabase } from './database';
import { connectedOwner, control, startServiceForTests } from './service';

/** Scaled-down service limits for budget tests: a minute's share is a few dozen calls. */
export const SMALL_MINUTE = { perSecond: 50, perMinute: 100, perHour: 10_000 };

/**
 * Spends the minute window of the call budget up to `priority`'s share under SMALL_MINUTE, with
 * calls that ended `endedSecondsAgo` seconds ago: calls at that priority then wait about
 * `60 - endedSecondsAgo` seconds for a slot, while higher priorities still find room.
 */
export async function spendMinuteShare(
  handle: DatabaseHandle,
  priority: Priority,
  endedSecondsAgo: number,
): Promise<void> {
  const [, minute] = budgetWindows(
    { ...SMALL_MINUTE, tokenPerWindow: 120, tokenWindowSeconds: 7200 },
    priority,
  );
  await handle.db.execute(sql`
    insert into service_calls (at, ended_at, kind, org_id, priority)
    select clock_timestamp() - make_interval(secs => ${endedSecondsAgo + 1}),
      clock_timestamp() - make_interval(secs => ${endedSecondsAgo}), 'api', null, 3
    from generate_series(1, ${minute?.cap ?? 0})`);
}

type SmallBudgetStack = {
  sandbox: RunningSandbox;
  handle: DatabaseHandle;
  /** The first owner, connected to the sandbox's demo account. */
  owner: Member;
  /** The demo account's thermostats, as the sandbox lists them. */
  demo: { thermostatId: string; buildingId: string }[];
};

/**
 * For a test file of the budget against the service: the sandbox started in this process, the
 * app's budget at SMALL_MINUTE, an in-memory database, and its owner connected; closed after the
 * file. Read the fields inside tests and hooks (they are set before the first).
 */
export function smallBudgetStack(): SmallBudgetStack {
  const stack = {} as SmallBudgetStack;
  beforeAll(async () => {
    stack.sandbox = await startServiceForTests({
      SERVICE_RATE_LIMIT: JSON.stringify(SMALL_MINUTE),
    });
    stack.handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
    stack.owner = await connectedOwner(stack.sandbox);
    stack.demo = (await control(stack.sandbox, 'GET', '/portfolio?user=demo')).thermostats;
  });
  afterAll(async () => {
    await stack.handle?.close();
    await stack.sandbox?.close();
  });
  return stack;
}
