import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endCalls, recordServiceLimits, takeCalls } from '@/lib/service/budget-store';
import type { DatabaseHandle } from '@/lib/db/client';
import { rowsOf } from '@/lib/db/client';
import { createOrganization } from '@/lib/auth/store';
import { budgetWindows, tokenWindows } from '@/lib/service/budget';
import { databaseTargets, useDatabase } from '../support/database';

const PRODUCTION = {
  perSecond: 50,
  perMinute: 500,
  perHour: 10_000,
  tokenPerWindow: 120,
  tokenWindowSeconds: 7200,
};

describe('budget windows', () => {
  it('stay under the service’s limits, and leave room for what a person waits for', () => {
    expect(budgetWindows(PRODUCTION, 'interactive')).toEqual([
      { seconds: 1, cap: 40 },
      { seconds: 60, cap: 490 },
      { seconds: 3600, cap: 9800 },
    ]);
    const background = budgetWindows(PRODUCTION, 'background');
    for (const [index, window] of budgetWindows(PRODUCTION, 'page').entries()) {
      expect(window.cap).toBeGreaterThan(background[index]?.cap ?? Infinity);
    }
    // Scaled down for tests, every cap is still under the limit and at least 1.
    const small = { ...PRODUCTION, perSecond: 5, perMinute: 20, perHour: 40 };
    expect(budgetWindows(small, 'interactive').map((w) => w.cap)).toEqual([4, 19, 39]);
    expect(budgetWindows(small, 'background').every((w) => w.cap >= 1)).toBe(true);
    expect(tokenWindows(PRODUCTION)).toEqual([{ seconds: 7200, cap: 110 }]);
  });
});

describe.each(databaseTargets)('the shared call budget on $name', ({ target }) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await useDatabase(await target());
  });
  afterAll(async () => {
    await handle.close();
  });
  beforeEach(async () => {
    await handle.db.execute(sql`delete from service_calls`);
    await handle.db.execute(
      sql`update service_budget set hold_until = null, minute_remaining = null, hour_remaining = null`,
    );
  });

  /** Takes a call that ends at once, as a call answered in no time would. */
  const take = async (windows: { seconds: number; cap: number }[], priority = 0) => {
    const taken = await takeCalls({ kind: 'api', orgId: null, priority, count: 1, windows });
    if (taken.granted) await endCalls(taken.ids);
    return taken;
  };

  it('grants up to a window’s cap, then says how long until a slot frees', async () => {
    const windows = [{ seconds: 60, cap: 3 }];
    for (let i = 0; i < 3; i += 1) expect((await take(windows)).granted).toBe(true);
    const refused = await take(windows);
    expect(refused.granted).toBe(false);
    if (!refused.granted) {
      expect(refused.waitMs).toBeGreaterThan(55_000);
      expect(refused.waitMs).toBeLessThanOrEqual(60_000);
    }
  });

  it('never lets more than the cap into any second, however many callers race', async () => {
    const windows = [{ seconds: 1, cap: 5 }];
    const granted: boolean[] = [];
    const end = Date.now() + 2500;
    // Eight callers, as eight instances would, each taking a slot whenever it can.
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (Date.now() < end) {
          const result = await take(windows);
          granted.push(result.granted);
          if (!result.granted)
            await new Promise((r) => setTimeout(r, Math.min(result.waitMs, 100)));
        }
      }),
    );
    const rows = rowsOf<{ most: number | string }>(
      await handle.db.execute(sql`
        select max((select count(*) from service_calls b
          where b.at > a.at - interval '1 second' and b.at <= a.at)) as most
        from service_calls a`),
    );
    expect(Number(rows[0]?.most)).toBeLessThanOrEqual(5);
    expect(granted.filter(Boolean).length).toBeGreaterThanOrEqual(10);
  });

  it('counts a call from when it is taken until a window’s length after it ended', async () => {
    const windows = [{ seconds: 1, cap: 2 }];
    const slow = await takeCalls({ kind: 'api', orgId: null, priority: 0, count: 1, windows });
    if (!slow.granted) throw new Error('the first call was refused');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // Taken more than a second ago and still in flight: it may reach the service only now.
    expect((await take(windows)).granted).toBe(true);
    // Full: the next slot frees a second after the call that has ended, not the one in flight.
    const full = await take(windows);
    expect(full.granted).toBe(false);
    if (!full.granted) expect(full.waitMs).toBeGreaterThan(900);
    await endCalls(slow.ids);
    expect((await take(windows)).granted).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await take(windows)).granted).toBe(true);
  });

  it('holds every call until the time the service gave, and caps at what it said was left', async () => {
    const windows = [{ seconds: 60, cap: 100 }];
    await recordServiceLimits({ holdUntil: new Date(Date.now() + 450_000) });
    const held = await take(windows);
    expect(held.granted).toBe(false);
    if (!held.granted) expect(held.waitMs).toBeGreaterThan(440_000);

    await handle.db.execute(sql`update service_budget set hold_until = null`);
    await recordServiceLimits({ hourRemaining: 2 });
    expect((await take(windows)).granted).toBe(true);
    expect((await take(windows)).granted).toBe(true);
    expect((await take(windows)).granted).toBe(false);
  });

  it('keeps token calls apart from API calls', async () => {
    await takeCalls({
      kind: 'token',
      orgId: null,
      priority: 0,
      count: 1,
      windows: [{ seconds: 7200, cap: 1 }],
    });
    const api = await take([{ seconds: 60, cap: 1 }]);
    expect(api).toMatchObject({ granted: true });
    const second = await takeCalls({
      kind: 'token',
      orgId: null,
      priority: 0,
      count: 1,
      windows: [{ seconds: 7200, cap: 1 }],
    });
    expect(second.granted).toBe(false);
  });

  it('divides background calls fairly among organisations, and lets one alone use them all', async () => {
    const [a, b] = await Promise.all([
      createOrganization({ name: `Fair A ${Math.random()}` }),
      createOrganization({ name: `Fair B ${Math.random()}` }),
    ]);
    const windows = [{ seconds: 60, cap: 10 }];
    const fairShare = { fromPriority: 2, seconds: 60, cap: 10 };
    const background = (orgId: string) =>
      takeCalls({ kind: 'api', orgId, priority: 3, count: 1, windows, fairShare });
    // Alone, A may fill the whole minute…
    for (let i = 0; i < 8; i += 1) expect((await background(a.id)).granted).toBe(true);
    // …until B's background work wants in: refused by the window A filled, B counts from then
    // on, and each is held to half the minute.
    await handle.db.execute(sql`delete from service_calls`);
    for (let i = 0; i < 10; i += 1) await background(a.id);
    const bWaits = await background(b.id);
    expect(bWaits.granted).toBe(false);
    await handle.db.execute(sql`delete from service_calls where org_id = ${a.id}::uuid`);
    // A asks first and as often as it likes; B still gets its half.
    const grantedA: boolean[] = [];
    for (let i = 0; i < 8; i += 1) grantedA.push((await background(a.id)).granted);
    const grantedB: boolean[] = [];
    for (let i = 0; i < 8; i += 1) grantedB.push((await background(b.id)).granted);
    expect(grantedA.filter(Boolean)).toHaveLength(5);
    expect(grantedB.filter(Boolean)).toHaveLength(5);
    // What a person does is not held to a share: A's interactive call still goes through.
    expect(
      (
        await takeCalls({
          kind: 'api',
          orgId: a.id,
          priority: 0,
          count: 1,
          windows: [{ seconds: 60, cap: 100 }],
        })
      ).granted,
    ).toBe(true);
  });
});
