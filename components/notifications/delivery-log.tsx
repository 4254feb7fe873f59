import { OutcomeLabel } from '@/components/ui/outcome-label';
import { ResultTable, timeColumn } from '@/components/ui/result-table';
import type { LogEntry } from '@/lib/notifications/store';
import {
  incidentSubject,
  incidentTitle,
  noticeCodes,
  noticeStatusWords,
} from '@/lib/notifications/words';
import { noticeOutcome } from '@/lib/outcomes';

const EVENTS = { opened: 'Opened', resolved: 'Resolved' } as const;

/** What a notice told, in words: an incident's event, a unit's change, a run's end, a test. */
function noticeWords(entry: LogEntry): string {
  const payload = entry.payload ?? {};
  const named = (value: unknown, key: string) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>)[key] === 'string'
      ? ((value as Record<string, unknown>)[key] as string)
      : null;
  switch (entry.event) {
    case 'opened':
    case 'resolved':
      return entry.incident
        ? `${EVENTS[entry.event]}: ${incidentTitle(entry.incident)}, ${incidentSubject(entry.incident)}`
        : `${EVENTS[entry.event]}: an incident since removed`;
    case 'unit_state':
      return `Unit occupancy changed: ${named(payload.unit, 'label') ?? 'a unit'}`;
    case 'run_finished':
      return `Run finished: ${named(payload.run, 'title') ?? 'a run'}`;
    case 'test':
      return 'Test message';
  }
}

/**
 * A system's code behind a failure ("ENOTFOUND", "HTTP 500"), folded away for a technician: the
 * words beside it are what everyone reads.
 */
export function TechnicalDetail({ codes }: { codes: readonly string[] }) {
  if (codes.length === 0) return null;
  return (
    <details className="mt-1 text-xs text-muted">
      <summary className="cursor-pointer">Technical detail</summary>
      <p className="mt-1">
        System code: <code className="break-all">{codes.join(', ')}</code>
      </p>
    </details>
  );
}

/** Every notice and what came of it: the delivery log. */
export function DeliveryLog({
  entries,
  caption,
  zone,
}: {
  entries: LogEntry[];
  caption: string;
  /** The reader's zone, for the times. */
  zone: string;
}) {
  return (
    <ResultTable
      caption={caption}
      className="min-w-[44rem]"
      rows={entries}
      rowKey={(entry) => entry.id}
      columns={[
        timeColumn<LogEntry>('When', (entry) => entry.createdAt, zone),
        {
          header: 'Notice',
          names: true,
          cell: noticeWords,
        },
        {
          header: 'To',
          cell: (entry) => `${entry.channel === 'email' ? 'Email' : 'Webhook'}: ${entry.recipient}`,
          className: 'break-all',
        },
        {
          header: 'Outcome',
          cell: (entry) => (
            <>
              <OutcomeLabel kind={noticeOutcome(entry.status)} label={noticeStatusWords(entry)} />
              <TechnicalDetail codes={noticeCodes(entry)} />
            </>
          ),
        },
        { header: 'Attempts', cell: (entry) => entry.attempts, className: 'text-right' },
      ]}
    />
  );
}
