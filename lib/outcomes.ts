import type { activityLog, BULK_ITEM_OUTCOMES, NOTIFICATION_STATES } from '@/lib/db/schema';
import type { ReportRow } from '@/lib/platform/forms';

/**
 * The one vocabulary for what came of a piece of work: a line of an import, a thermostat of a
 * bulk run, an entry of the activity log. Each kind has the word a property manager reads and a
 * tone (the colour it is shown in). What is stored keeps its own names (the database's enums,
 * the streamed import's rows); the functions below map them to a kind where they are read, so
 * no stored value had to change.
 */

type BulkItemOutcome = (typeof BULK_ITEM_OUTCOMES)[number];

export type Tone = 'success' | 'caution' | 'danger' | 'muted';

export const OUTCOMES = {
  done: { label: 'Done', tone: 'success' },
  unchanged: { label: 'Unchanged', tone: 'muted' },
  failed: { label: 'Failed', tone: 'danger' },
  not_sent: { label: 'Not sent', tone: 'caution' },
  unconfirmed: { label: 'May have been applied', tone: 'caution' },
  cancelled: { label: 'Cancelled', tone: 'caution' },
  blocked: { label: 'Blocked', tone: 'caution' },
  pending: { label: 'Pending', tone: 'muted' },
  sending: { label: 'Sending…', tone: 'muted' },
} as const satisfies Record<string, { label: string; tone: Tone }>;

export type OutcomeKind = keyof typeof OUTCOMES;

const FROM_BULK_ITEM: Record<BulkItemOutcome, OutcomeKind> = {
  pending: 'pending',
  applied: 'done',
  failed: 'failed',
  not_sent: 'not_sent',
  unconfirmed: 'unconfirmed',
  cancelled: 'cancelled',
  unchanged: 'unchanged',
  blocked: 'blocked',
};

/** A bulk run's item as stored; a pending one a request already carries is on its way. */
export function bulkItemOutcome(item: { outcome: BulkItemOutcome; attempts: number }): OutcomeKind {
  return item.outcome === 'pending' && item.attempts > 0 ? 'sending' : FROM_BULK_ITEM[item.outcome];
}

/** An activity entry as stored (`success`, `failure`, or `unconfirmed`: perhaps applied). */
export function activityOutcome(stored: (typeof activityLog.$inferSelect)['outcome']): OutcomeKind {
  return stored === 'success' ? 'done' : stored === 'unconfirmed' ? 'unconfirmed' : 'failed';
}

/** A line of an import: a line that could not be read was never sent to the service. */
export function importOutcome(outcome: ReportRow['outcome']): OutcomeKind {
  return outcome === 'not_attempted' ? 'not_sent' : outcome;
}

const FROM_NOTICE: Record<(typeof NOTIFICATION_STATES)[number], OutcomeKind> = {
  pending: 'pending',
  held: 'pending',
  digest: 'pending',
  sent: 'done',
  failed: 'failed',
  skipped: 'not_sent',
  paused: 'not_sent',
};

/** A notice of the delivery log: waiting (to send, for quiet hours, the digest), sent or not. */
export function noticeOutcome(status: (typeof NOTIFICATION_STATES)[number]): OutcomeKind {
  return FROM_NOTICE[status];
}

/** "Failed: the service is unavailable": a kind's word with the reason after it, when there is one. */
export function outcomeWords(kind: OutcomeKind, reason?: string | null): string {
  return reason ? `${OUTCOMES[kind].label}: ${reason}` : OUTCOMES[kind].label;
}
