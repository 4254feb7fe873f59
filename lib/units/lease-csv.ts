import 'server-only';
import type { ReportRow } from '@/lib/platform/forms';
import { MAX_UNIT_LINES, readCsvRecords, words } from './csv';
import {
  type LeaseEvent,
  type LeaseEventOutcome,
  leaseEventSchema,
  receiveLeaseEvent,
} from './lease-events';

/**
 * Lease events as CSV, for property-management systems that export files: a header row
 * `event id,type,unit,occurred at,move-out on,move-in at,to unit`, then one event a line, each
 * recorded as a signed webhook's would be (lib/units/lease-events.ts): its event id taken once
 * (a file uploaded twice changes nothing the second time), and the file's events applied in the
 * order they happened whatever their order in the file.
 */

const COLUMNS = {
  id: ['event id', 'id'],
  type: ['type', 'event'],
  unit: ['unit', 'external id', 'unit id'],
  occurredAt: ['occurred at', 'at', 'when'],
  moveOutOn: ['move out on', 'move out day', 'move out'],
  moveInAt: ['move in at', 'move in'],
  toUnit: ['to unit', 'to'],
} as const;

const TYPES: Record<string, LeaseEvent['type']> = {
  notice: 'notice',
  'move out': 'move_out',
  'move in': 'move_in',
  transfer: 'transfer',
};

type CsvEvent = { line: number; id: string; event: LeaseEvent };
type CsvProblem = { line: number; subject: string; problem: string };

/** The lines of a lease-events CSV, each read on its own, or why the whole text cannot be read. */
export function parseLeaseCsv(
  text: string,
): { lines: (CsvEvent | CsvProblem)[] } | { error: string } {
  const read = readCsvRecords(text);
  if ('error' in read) return read;
  const column = (names: readonly string[]) =>
    read.header.findIndex((cell) => names.includes(cell));
  const at = Object.fromEntries(
    Object.entries(COLUMNS).map(([field, names]) => [field, column(names)]),
  ) as Record<keyof typeof COLUMNS, number>;
  if (at.id < 0 || at.type < 0 || at.unit < 0 || at.occurredAt < 0) {
    return {
      error:
        'The first row must name the columns: event id, type, unit, occurred at and, as the events need them, move-out on, move-in at and to unit.',
    };
  }
  if (read.rows.length === 0) return { error: 'There is no event under the header row.' };
  if (read.rows.length > MAX_UNIT_LINES) {
    return {
      error: `At most ${MAX_UNIT_LINES.toLocaleString('en-US')} events a file: this one has ${read.rows.length.toLocaleString('en-US')}. Split it; nothing was recorded.`,
    };
  }
  return {
    lines: read.rows.map(({ record, line }): CsvEvent | CsvProblem => {
      const cell = (field: keyof typeof COLUMNS) =>
        at[field] >= 0 ? (record[at[field]] ?? '').trim() : '';
      const id = cell('id');
      const subject = cell('unit') || '(no unit)';
      if (!id || id.length > 200) {
        return { line, subject, problem: 'Each event needs its id (at most 200 characters).' };
      }
      const type = TYPES[words(cell('type'))];
      if (!type) {
        return { line, subject, problem: 'The type is notice, move out, move in or transfer.' };
      }
      const optional = (field: keyof typeof COLUMNS) => cell(field) || undefined;
      const parsed = leaseEventSchema.safeParse({
        type,
        unit: cell('unit'),
        occurredAt: cell('occurredAt'),
        moveOutOn: optional('moveOutOn'),
        moveInAt: optional('moveInAt'),
        toUnit: optional('toUnit'),
      });
      if (!parsed.success) {
        const fields = parsed.error.issues.map((issue) => String(issue.path[0] ?? 'type'));
        return {
          line,
          subject,
          problem: `Check ${[...new Set(fields)].join(', ')}: a time is written as 2027-03-01T15:00:00-07:00, a day as 2027-03-01.`,
        };
      }
      return { line, id, event: parsed.data };
    }),
  };
}

const REPORTED: Record<LeaseEventOutcome, ReportRow['outcome']> = {
  applied: 'done',
  unchanged: 'unchanged',
  refused: 'failed',
  stale: 'unchanged',
  unmatched: 'not_attempted',
};

/**
 * Records the file's events, oldest first (one result row a line, in the file's order). The
 * action opens the page for an owner or admin first.
 */
export async function importLeaseEvents(input: {
  orgId: string;
  lines: readonly (CsvEvent | CsvProblem)[];
}): Promise<ReportRow[]> {
  const rows = new Map<number, ReportRow>();
  const events = input.lines
    .filter((line): line is CsvEvent => 'event' in line)
    .sort((a, b) => Date.parse(a.event.occurredAt) - Date.parse(b.event.occurredAt));
  for (const line of events) {
    const { event, replayed } = await receiveLeaseEvent({
      orgId: input.orgId,
      messageId: `csv:${line.id}`,
      source: 'csv',
      event: line.event,
    });
    rows.set(line.line, {
      line: line.line,
      subject: line.event.unit,
      outcome: replayed ? 'unchanged' : REPORTED[event.outcome],
      detail: replayed ? `Event ${line.id} was recorded before: ${event.detail}` : event.detail,
    });
  }
  return input.lines.map(
    (line) =>
      rows.get(line.line) ?? {
        line: line.line,
        subject: 'subject' in line ? line.subject : line.event.unit,
        outcome: 'failed',
        detail: 'problem' in line ? line.problem : 'Not recorded.',
      },
  );
}
