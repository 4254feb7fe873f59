import { describe, expect, it } from 'vitest';
import type { BulkRun } from '@/lib/runs/store';
import { applyCostInWords, durationInWords } from '@/lib/templates/run-words';
import { plannedRunEntry } from '@/lib/runs/entry';
import { runTitle, runTitleAsSeen, skippedOf } from '@/lib/runs/words';

/** A planned run in words: its time, its title, what it skipped, and its one activity entry. */

const run = (overrides: Partial<BulkRun>): BulkRun =>
  ({
    id: '11111111-1111-4111-8111-111111111111',
    kind: 'template',
    title: 'Vacant unit',
    state: 'done',
    total: 60,
    applied: 55,
    failed: 2,
    notSent: 0,
    cancelled: 0,
    templateId: null,
    undoOf: null,
    undoOfEntry: null,
    cancelledByName: null,
    note: null,
    ...overrides,
  }) as BulkRun;

describe('a planned run in words', () => {
  it('says how long a plan takes, rounded up, in the right number', () => {
    expect(durationInWords(0)).toBe('under a second');
    expect(durationInWords(0.4)).toBe('under a second');
    expect(durationInWords(1)).toBe('1 second');
    expect(durationInWords(1.2)).toBe('2 seconds');
    expect(durationInWords(89)).toBe('89 seconds');
    expect(durationInWords(91)).toBe('2 minutes');
    expect(durationInWords(3600)).toBe('1 hour');
    expect(durationInWords(3661)).toBe('1 hour 2 minutes');
    expect(durationInWords(2 * 3600 + 60)).toBe('2 hours 1 minute');
  });

  it('says what applying a plan costs, without "at least under a second"', () => {
    expect(applyCostInWords(1, 0.02)).toBe(
      'Applying it takes 1 service call: under a second within the service’s limits, longer when other work shares them.',
    );
    expect(applyCostInWords(518, 63)).toBe(
      'Applying it takes 518 service calls: at least 63 seconds within the service’s limits, longer when other work shares them.',
    );
    expect(applyCostInWords(1500, 200)).toMatch(
      /^Applying it takes 1,500 service calls: at least 4 minutes/,
    );
    expect(applyCostInWords(0, 0)).toBe('Applying it sends nothing to the service.');
  });

  it('counts what a finished run skipped from its plan, and nothing while it goes on', () => {
    const summary = { unchanged: 2, blocked: 1 };
    expect(skippedOf(run({ planSummary: summary }))).toEqual({ skipped: 3, blocked: 1 });
    expect(skippedOf(run({ planSummary: summary, state: 'running' }))).toEqual({
      skipped: 0,
      blocked: 0,
    });
    expect(skippedOf(run({ planSummary: null }))).toEqual({ skipped: 0, blocked: 0 });
  });

  it('names a template run, an undo and a configuration run', () => {
    expect(runTitle(run({}))).toBe('Template “Vacant unit” on 60 thermostats');
    expect(runTitle(run({ kind: 'undo', title: 'Undo of template “Vacant unit”' }))).toBe(
      'Undo of template “Vacant unit” on 60 thermostats',
    );
    expect(runTitle(run({ kind: 'configuration', total: 1 }))).toBe(
      'Bulk configuration of 1 thermostat',
    );
  });

  it('names a building manager’s share of a run by their thermostats, never the whole count', () => {
    const undo = run({ kind: 'undo', title: 'Undo of template “Vacant unit”', total: 30 });
    expect(runTitleAsSeen(undo)).toBe('Undo of template “Vacant unit” on 30 thermostats');
    expect(runTitleAsSeen({ ...undo, total: 10, partView: true })).toBe(
      'Undo of template “Vacant unit” on 10 thermostats in your buildings',
    );
    expect(runTitleAsSeen({ ...run({}), total: 10, partView: true })).toBe(
      'Template “Vacant unit” on 10 thermostats in your buildings',
    );
  });

  it('records one entry per run: a failure when any thermostat failed or was blocked', () => {
    const failed = plannedRunEntry(run({ planSummary: { unchanged: 3, blocked: 0 } }), ['b1']);
    expect(failed).toMatchObject({
      action: 'template.apply',
      outcome: 'failure',
      error: '2 failed',
    });
    expect(failed.summary).toBe(
      'Template “Vacant unit” on 60 thermostats. Done with 2 failures: 55 done, 2 failed, 0 not sent, 3 unchanged (of 60).',
    );
    expect(failed.buildingId).toBe('b1');
    const blocked = plannedRunEntry(
      run({ applied: 57, failed: 0, planSummary: { unchanged: 0, blocked: 3 } }),
      ['b1'],
    );
    expect(blocked).toMatchObject({ outcome: 'failure', error: '3 failed' });
    expect(blocked.summary).toMatch(/3 blocked \(of 60\)/);
    const clean = plannedRunEntry(
      run({ kind: 'undo', applied: 60, failed: 0, planSummary: { unchanged: 0, blocked: 0 } }),
      ['b1', 'b2'],
    );
    expect(clean).toMatchObject({ action: 'change.undo', outcome: 'success', error: null });
    expect(clean.buildingId).toBeNull();
  });
});
