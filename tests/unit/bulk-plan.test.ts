import { describe, expect, it } from 'vitest';
import {
  chunk,
  failChunk,
  MAX_PER_REQUEST,
  mergeResults,
  resultsOfChunk,
  runChunks,
  summarize,
  toRetry,
} from '@/lib/bulk/plan';

const ids = (n: number) => Array.from({ length: n }, (_, i) => String(100000000000 + i));

describe('splitting a selection', () => {
  it('makes requests of at most 25, in order, losing nothing', () => {
    const selection = ids(61);
    const chunks = chunk(selection);
    expect(chunks.map((c) => c.length)).toEqual([25, 25, 11]);
    expect(chunks.flat()).toEqual(selection);
    expect(chunk(ids(25))).toHaveLength(1);
    expect(chunk([])).toEqual([]);
    expect(MAX_PER_REQUEST).toBe(25);
  });
});

describe('results per thermostat', () => {
  it('reads success, fail and error items; an id the service left out is failed', () => {
    const [a, b, c, d] = ids(4) as [string, string, string, string];
    const results = resultsOfChunk([a, b, c, d], {
      succeeded: 1,
      failed: 2,
      results: [
        { thermostatId: a, status: 'success', data: {} },
        { thermostatId: b, status: 'error', code: 'thermostat_offline', message: 'offline' },
        { thermostatId: c, status: 'fail', data: { heatRange: 'outside the new range' } },
      ],
    });
    expect(results.map((r) => r.outcome)).toEqual(['applied', 'failed', 'failed', 'failed']);
    expect(results[1]?.detail).toMatch(/offline/);
    expect(results[2]?.detail).toMatch(/heatRange: outside/);
    expect(results[3]?.detail).toMatch(/did not report/);
  });

  it('a retry replaces earlier results; every selected id ends with one', () => {
    const selection = ids(3);
    const first = [
      { thermostatId: selection[0] as string, outcome: 'applied' as const, detail: '' },
      ...failChunk([selection[1] as string], 'failed', 'busy'),
    ];
    const merged = mergeResults(selection, first);
    expect(merged.map((r) => r.outcome)).toEqual(['applied', 'failed', 'not_attempted']);
    expect(toRetry(merged)).toEqual([selection[1], selection[2]]);
    const retried = mergeResults(
      selection,
      merged,
      toRetry(merged).map((thermostatId) => ({
        thermostatId,
        outcome: 'applied' as const,
        detail: '',
      })),
    );
    expect(summarize(retried)).toEqual({ applied: 3, failed: 0, not_attempted: 0, total: 3 });
  });
});

describe('running requests', () => {
  it('keeps at most N in flight and reports every chunk', async () => {
    let inFlight = 0;
    let peak = 0;
    const seen: number[] = [];
    const all = await runChunks(chunk(ids(130)), {
      concurrency: 3,
      work: async (chunkIds) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        return chunkIds.map((thermostatId) => ({ thermostatId, outcome: 'applied', detail: '' }));
      },
      onError: () => [],
      onChunk: (results) => {
        seen.push(results.length);
      },
    });
    expect(peak).toBe(3);
    expect(all).toHaveLength(130);
    expect(seen.reduce((a, b) => a + b, 0)).toBe(130);
  });

  it('a request that throws fails its ids; after a stop, the rest are not attempted', async () => {
    let stop: string | null = null;
    const all = await runChunks(chunk(ids(75)), {
      concurrency: 1,
      work: async () => {
        stop = 'Not sent: reconnect first.';
        throw new Error('boom');
      },
      onError: (chunkIds) => failChunk(chunkIds, 'failed', 'boom'),
      shouldStop: () => stop,
    });
    expect(summarize(all)).toEqual({ applied: 0, failed: 25, not_attempted: 50, total: 75 });
    expect(all.at(-1)?.detail).toBe('Not sent: reconnect first.');
  });
});
