import { describe, expect, it } from 'vitest';
import {
  chunk,
  failChunk,
  MAX_PER_REQUEST,
  refusedDetail,
  requestsOf,
  resultsOfChunk,
  runInLanes,
} from '@/lib/runs/steps';
import { countsInWords } from '@/lib/runs/words';
import { runEntryError, runEntryOutcome } from '@/lib/runs/entry';

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
      results: [
        { thermostatId: a, status: 'success' },
        { thermostatId: b, status: 'error', code: 'thermostat_offline', message: 'offline' },
        { thermostatId: c, status: 'fail', reasons: { heatRange: 'outside the new range' } },
      ],
    });
    expect(results.map((r) => r.outcome)).toEqual(['applied', 'failed', 'failed', 'failed']);
    expect(results[1]?.detail).toMatch(/offline/);
    // The setting by name, the service's reason, and what to do about a refused range.
    expect(results[2]?.detail).toBe(
      'Refused. Heat range: outside the new range. Change the comfort setting outside it on the thermostat’s page, or choose a wider range, then retry the failed ones.',
    );
    expect(results[3]?.detail).toMatch(/did not report/);
  });

  it('names a refused setting other than a range without advice that would not fit', () => {
    expect(refusedDetail({ fanMinimumOnTime: 'must be 0 to 55.' })).toBe(
      'Refused. Fan minimum on-time: must be 0 to 55.',
    );
    expect(refusedDetail({})).toBeNull();
  });

  it('a request that failed as a whole fails each of its ids, with the reason', () => {
    const failed = failChunk(ids(3), 'The thermostat service is not responding right now.');
    expect(failed.map((r) => r.outcome)).toEqual(['failed', 'failed', 'failed']);
    expect(failed.map((r) => r.thermostatId)).toEqual(ids(3));
    expect(new Set(failed.map((r) => r.detail))).toEqual(
      new Set(['The thermostat service is not responding right now.']),
    );
  });
});

describe('the requests of a run', () => {
  it('request k carries positions 25k..25k+24, so a resumed run sends the groups it planned', () => {
    const selection = ids(61).map((thermostatId, position) => ({ thermostatId, position }));
    expect(requestsOf(selection).map((r) => [r.request, r.thermostatIds.length])).toEqual([
      [0, 25],
      [1, 25],
      [2, 11],
    ]);
    // After a restart: request 0 done, two items of request 1 done, request 2 untouched.
    const pending = selection.filter((item) => item.position >= 27).reverse();
    const resumed = requestsOf(pending);
    expect(resumed.map((r) => r.request)).toEqual([1, 2]);
    expect(resumed[0]?.thermostatIds).toEqual(ids(50).slice(27));
    expect(resumed.flatMap((r) => r.thermostatIds)).toEqual(ids(61).slice(27));
  });
});

describe('running requests', () => {
  it('keeps at most N in flight, in order, and runs every one', async () => {
    let inFlight = 0;
    let peak = 0;
    const started: number[] = [];
    const tasks = requestsOf(
      ids(130).map((thermostatId, position) => ({ thermostatId, position })),
    );
    const outcome = await runInLanes(tasks, {
      concurrency: 3,
      work: async (task) => {
        started.push(task.request);
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
      },
    });
    expect(peak).toBe(3);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(outcome).toEqual({ started: 6, stopped: false });
  });

  it('once told to stop, starts nothing more and lets the ones in flight finish', async () => {
    let stop = false;
    const finished: number[] = [];
    const outcome = await runInLanes([0, 1, 2, 3, 4, 5, 6, 7], {
      concurrency: 2,
      work: async (task) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (task === 2) stop = true;
        finished.push(task);
      },
      shouldStop: async () => stop,
    });
    expect(outcome.stopped).toBe(true);
    expect(finished.sort()).toEqual([0, 1, 2, 3]);
    expect(outcome.started).toBe(4);
  });

  it('a task that throws stops the rest and the error comes back after the lanes end', async () => {
    const finished: number[] = [];
    await expect(
      runInLanes([0, 1, 2, 3, 4], {
        concurrency: 2,
        work: async (task) => {
          if (task === 0) throw new Error('database gone');
          await new Promise((resolve) => setTimeout(resolve, 10));
          finished.push(task);
        },
      }),
    ).rejects.toThrow('database gone');
    expect(finished).toEqual([1]);
  });
});

describe('a finished run in the activity log', () => {
  const run = { state: 'done' as const, applied: 5, unconfirmed: 0 };
  it('is done, failed, or perhaps applied when every thermostat not done may have been', () => {
    expect(runEntryOutcome(run, 0)).toBe('success');
    expect(runEntryOutcome(run, 2)).toBe('failure');
    expect(runEntryOutcome({ ...run, unconfirmed: 2 }, 2)).toBe('unconfirmed');
    expect(runEntryOutcome({ ...run, unconfirmed: 1 }, 2)).toBe('failure');
    expect(runEntryOutcome({ state: 'cancelled', unconfirmed: 0 }, 0)).toBe('failure');
  });

  it('says how many failed, and of those how many may have been applied', () => {
    expect(runEntryError(run, 0)).toBeNull();
    expect(runEntryError({ ...run, applied: 0 }, 3)).toBe('failed');
    expect(runEntryError({ ...run, unconfirmed: 1 }, 3)).toBe('3 failed (1 may have been applied)');
    expect(runEntryError({ ...run, applied: 0, unconfirmed: 3 }, 3)).toBe(
      '3 failed (3 may have been applied)',
    );
    expect(
      countsInWords({ applied: 5, failed: 3, unconfirmed: 1, notSent: 0, cancelled: 0, total: 8 }),
    ).toBe('5 done, 3 failed (1 of them may have been applied), 0 not sent (of 8).');
  });
});
