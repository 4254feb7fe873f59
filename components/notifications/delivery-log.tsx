import { OutcomeLabel } from '@/components/ui/outcome-label';
import { ResultTable, timeColumn } from '@/components/ui/result-table';
import type { LogEntry } from '@/lib/db/notifications';
import { incidentSubject, incidentTitle, noticeStatusWords } from '@/lib/notifications/words';
import { noticeOutcome } from '@/lib/outcomes';

const EVENTS = { opened: 'Opened', resolved: 'Resolved', test: 'Test' } as const;

/** Every notice and what came of it: the delivery log. */
export function DeliveryLog({ entries, caption }: { entries: LogEntry[]; caption: string }) {
  return (
    <ResultTable
      caption={caption}
      className="min-w-[44rem]"
      rows={entries}
      rowKey={(entry) => entry.id}
      columns={[
        timeColumn<LogEntry>('When', (entry) => entry.createdAt),
        {
          header: 'Notice',
          names: true,
          cell: (entry) =>
            entry.incident
              ? `${EVENTS[entry.event]}: ${incidentTitle(entry.incident)}, ${incidentSubject(entry.incident)}`
              : 'Test message',
        },
        {
          header: 'To',
          cell: (entry) => `${entry.channel === 'email' ? 'Email' : 'Webhook'}: ${entry.recipient}`,
          className: 'break-all',
        },
        {
          header: 'Outcome',
          cell: (entry) => (
            <OutcomeLabel kind={noticeOutcome(entry.status)} label={noticeStatusWords(entry)} />
          ),
        },
        { header: 'Attempts', cell: (entry) => entry.attempts, className: 'text-right' },
      ]}
    />
  );
}
