import { describe, expect, it } from 'vitest';
import { countsInWords, runStatus } from '@/lib/runs/words';
import type { BulkItemOutcome } from '@/lib/runs/store';
import {
  activityOutcome,
  bulkItemOutcome,
  importOutcome,
  noticeOutcome,
  OUTCOMES,
  type OutcomeKind,
  outcomeWords,
} from '@/lib/outcomes';

describe('the outcome vocabulary', () => {
  it('gives each kind one word a manager reads, and a tone', () => {
    expect(
      Object.fromEntries(
        Object.entries(OUTCOMES).map(([kind, o]) => [kind, `${o.label} (${o.tone})`]),
      ),
    ).toEqual({
      done: 'Done (success)',
      unchanged: 'Unchanged (muted)',
      unconfirmed: 'May have been applied (caution)',
      failed: 'Failed (danger)',
      not_sent: 'Not sent (caution)',
      cancelled: 'Cancelled (caution)',
      blocked: 'Blocked (caution)',
      pending: 'Pending (muted)',
      sending: 'Sending… (muted)',
    });
  });

  it('puts the reason after the word when there is one', () => {
    expect(outcomeWords('failed', 'the service is unavailable')).toBe(
      'Failed: the service is unavailable',
    );
    expect(outcomeWords('done', null)).toBe('Done');
  });
});

describe('stored outcomes, read as the vocabulary', () => {
  it('reads every outcome a bulk run item can store', () => {
    const stored: Record<BulkItemOutcome, OutcomeKind> = {
      pending: 'pending',
      applied: 'done',
      failed: 'failed',
      not_sent: 'not_sent',
      unconfirmed: 'unconfirmed',
      cancelled: 'cancelled',
      unchanged: 'unchanged',
      blocked: 'blocked',
    };
    for (const [outcome, kind] of Object.entries(stored)) {
      expect(bulkItemOutcome({ outcome: outcome as BulkItemOutcome, attempts: 0 })).toBe(kind);
    }
  });

  it('says a pending item is on its way once a request carries it', () => {
    expect(bulkItemOutcome({ outcome: 'pending', attempts: 1 })).toBe('sending');
    // Attempts count the requests; a finished item reads as it ended, however often it was sent.
    expect(bulkItemOutcome({ outcome: 'applied', attempts: 2 })).toBe('done');
  });

  it('reads the activity log’s success and failure', () => {
    expect(activityOutcome('success')).toBe('done');
    expect(activityOutcome('failure')).toBe('failed');
  });

  it('reads an import line that was never checked as not sent, the rest as they are', () => {
    expect(importOutcome('not_attempted')).toBe('not_sent');
    expect(importOutcome('done')).toBe('done');
    expect(importOutcome('unchanged')).toBe('unchanged');
    expect(importOutcome('failed')).toBe('failed');
  });
});

describe('a bulk run in the vocabulary', () => {
  const run = {
    state: 'done' as const,
    total: 72,
    applied: 67,
    failed: 5,
    notSent: 0,
    cancelled: 0,
    cancelRequestedAt: null,
  };

  it('counts each outcome in its word', () => {
    expect(countsInWords(run)).toBe('67 done, 5 failed, 0 not sent (of 72).');
    expect(countsInWords({ ...run, applied: 10, failed: 0, cancelled: 62 })).toBe(
      '10 done, 0 failed, 0 not sent, 62 cancelled (of 72).',
    );
  });

  it('shows a run’s state as an outcome kind, never done with failures', () => {
    expect(runStatus({ ...run, failed: 0, applied: 72 })).toEqual({
      label: 'Done',
      outcome: 'done',
    });
    expect(runStatus(run)).toEqual({ label: 'Done with 5 failures', outcome: 'failed' });
    expect(runStatus({ ...run, applied: 0, notSent: 72, failed: 0 })).toEqual({
      label: 'Failed',
      outcome: 'failed',
    });
    expect(runStatus({ ...run, state: 'queued', applied: 0, failed: 0 })).toEqual({
      label: 'Queued',
      outcome: 'pending',
    });
    expect(runStatus({ ...run, state: 'running', applied: 20, failed: 5 })).toEqual({
      label: 'Running: 25 of 72',
      outcome: 'sending',
    });
    for (const state of ['queued', 'running'] as const) {
      expect(runStatus({ ...run, state, cancelRequestedAt: new Date() })).toEqual({
        label: 'Cancelling…',
        outcome: 'cancelled',
      });
    }
  });
});

describe('a notice of the delivery log, read as the vocabulary', () => {
  it('reads every state a notice can store', () => {
    expect(
      (['pending', 'held', 'digest', 'sent', 'failed', 'skipped', 'paused'] as const).map(
        noticeOutcome,
      ),
    ).toEqual(['pending', 'pending', 'pending', 'done', 'failed', 'not_sent', 'not_sent']);
  });
});
