import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { ensureBuilding } from '@/lib/portfolio/store';
import type { ReportRow } from '@/lib/platform/forms';
import { addToPortfolio, type ImportWait } from '@/lib/portfolio/add';
import type { PortfolioEntry } from '@/lib/portfolio/entries';
import type { RunningSandbox } from '@/sandbox/src/server';
import { useDatabase } from '../support/database';
import { connectedOwner, control, startServiceForTests } from '../support/service';

// An import with more lines than the minute's call budget has room for, against the sandbox, the
// budget scaled down to 10 calls a minute (an import's share: 8). The window is made mostly full
// by calls taken 36 s ago, so the lines it cannot fit wait about 24 s for them to leave it:
// longer than a single call may wait for a slot, so before, those lines failed.
let sandbox: RunningSandbox;
let handle: DatabaseHandle;
let owner: Awaited<ReturnType<typeof connectedOwner>>;
let buildings: PortfolioEntry[][];

beforeAll(async () => {
  sandbox = await startServiceForTests({ SERVICE_RATE_LIMIT: '{"perMinute":10}' });
  handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
  owner = await connectedOwner(sandbox);
  const demo = (await control(sandbox, 'GET', '/portfolio?user=demo')) as {
    thermostats: { thermostatId: string; buildingId: string }[];
  };
  const byBuilding = new Map<string, PortfolioEntry[]>();
  for (const t of demo.thermostats) {
    const list = byBuilding.get(t.buildingId) ?? [];
    list.push({
      line: list.length + 1,
      thermostatId: t.thermostatId,
      unitLabel: '',
      building: t.buildingId,
    });
    byBuilding.set(t.buildingId, list);
  }
  buildings = [...byBuilding.values()].filter((list) => list.length >= 5);
});
afterAll(async () => {
  await handle?.close();
  await sandbox?.close();
});

beforeEach(async () => {
  // Five of the minute's calls taken and ended 36 s ago: three slots free now, the rest in 24 s.
  await handle.db.execute(sql`delete from service_calls`);
  await handle.db.execute(sql`
    insert into service_calls (kind, priority, at, ended_at)
    select 'api', 0, clock_timestamp() - interval '36 seconds', clock_timestamp() - interval '36 seconds'
    from generate_series(1, 5)`);
});

async function buildingOf(entry: PortfolioEntry | undefined): Promise<string> {
  const demo = (await control(sandbox, 'GET', '/portfolio?user=demo')) as {
    thermostats: { thermostatId: string; buildingId: string }[];
  };
  return demo.thermostats.find((t) => t.thermostatId === entry?.thermostatId)?.buildingId ?? '';
}

async function importLines(
  entries: PortfolioEntry[],
  options: Pick<Parameters<typeof addToPortfolio>[0], 'known' | 'waitLimitMs'> = {},
) {
  const events: ({ row: ReportRow } | { wait: ImportWait })[] = [];
  const started = Date.now();
  const report = await addToPortfolio({
    actor: owner,
    entries,
    onRow: (row) => events.push({ row }),
    onWait: (wait) => events.push({ wait }),
    ...options,
  });
  return { report, events, seconds: (Date.now() - started) / 1000 };
}

describe('an import beyond the minute’s call budget', () => {
  it('says which lines it did not send when the budget has no room within its limit', async () => {
    const entries = (buildings[1] ?? []).slice(0, 5);
    expect(entries).toHaveLength(5);
    // The building is known (as the demo import knows its buildings): one call a line.
    const known = new Map([[await buildingOf(entries[0]), { name: 'Known', timeZone: 'UTC' }]]);
    const { report, events, seconds } = await importLines(entries, { known, waitLimitMs: 5_000 });
    expect(seconds).toBeLessThan(10);
    expect(events.filter((event) => 'wait' in event)).toEqual([]);
    const outcomes = report.map((row) => row.outcome).sort();
    expect(outcomes).toEqual(['done', 'done', 'done', 'not_attempted', 'not_attempted']);
    for (const row of report.filter((row) => row.outcome === 'not_attempted')) {
      expect(row.detail).toMatch(
        /^Not checked: the service’s rate limit has no room for it before \d\d:\d\d:\d\d UTC \(in \d+ s\)\. Add it again then\.$/,
      );
    }
  });

  it('waits for the next window, saying how long, and adds every line', async () => {
    const entries = (buildings[0] ?? []).slice(0, 6);
    expect(entries).toHaveLength(6);
    // A building the manager added (the service does not say which building a thermostat is in).
    await ensureBuilding({
      orgId: owner.orgId,
      buildingId: await buildingOf(entries[0]),
      name: 'Added by hand',
      timeZone: 'America/Chicago',
    });
    const { report, events, seconds } = await importLines(entries);

    expect(report.map((row) => [row.line, row.outcome])).toEqual(
      entries.map((entry) => [entry.line, 'done']),
    );
    // The wait (about 24 s, for the lines not yet decided), then the lines.
    const waits = events.flatMap((event) => ('wait' in event ? [event.wait] : []));
    const firstWait = events.findIndex((event) => 'wait' in event);
    expect(firstWait).toBeGreaterThanOrEqual(0);
    expect(waits[0]?.seconds).toBeGreaterThanOrEqual(15);
    expect(waits[0]?.seconds).toBeLessThanOrEqual(30);
    expect(waits[0]?.lines).toBe(6 - firstWait);
    // Said again while it lasts (the stream never goes quiet for long), and when it is over.
    expect(waits.length).toBeGreaterThanOrEqual(3);
    expect(waits.at(-1)?.seconds).toBe(0);
    expect(events.filter((event) => 'row' in event)).toHaveLength(6);
    expect(seconds).toBeGreaterThanOrEqual(20);
  }, 90_000);
});
