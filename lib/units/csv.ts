import { parse } from 'csv-parse/sync';
import { thermostatIdSchema } from '@/lib/service/schemas';
import type { UnitStateName } from './lifecycle';

/**
 * A building's units as CSV, read (pure: lib/units/import.ts matches and writes): a header row
 * `label,external id,thermostat id,state`, then one unit a line. A state is one of the three a
 * line can record alone (occupied, vacant, make-ready); notice given and a scheduled move-in take
 * a day (and a time) and are recorded on the unit's page. Line numbers are the file's.
 */

export const MAX_UNIT_LINES = 2000;
export const MAX_UNITS_CSV_BYTES = 1024 * 1024;

/** The states a CSV line may set, by their words on the pages (any case, '-', '_' or a space). */
export type CsvState = Extract<UnitStateName, 'occupied' | 'vacant' | 'make_ready'>;

export type UnitLine = {
  line: number;
  /** '' where the cell is empty: an existing unit keeps its own. */
  label: string;
  externalId: string | null;
  thermostatId: string | null;
  state: CsvState | null;
};
export type UnitLineProblem = { line: number; subject: string; problem: string };

const COLUMNS = {
  label: ['label', 'unit', 'unit label'],
  externalId: ['external id', 'externalid'],
  thermostatId: ['thermostat id', 'thermostatid', 'thermostat'],
  state: ['state', 'occupancy'],
} as const;

export const words = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');

const STATES: Record<string, CsvState> = {
  occupied: 'occupied',
  vacant: 'vacant',
  'make ready': 'make_ready',
};
const ON_THE_UNIT_PAGE: Record<string, string> = {
  'notice given':
    'Notice given is recorded on the unit’s page, with the move-out day; a CSV line records occupied, vacant or make-ready.',
  'move in scheduled':
    'A move-in is scheduled on the unit’s page, with its day and time; a CSV line records occupied, vacant or make-ready.',
};

function checkLine(line: number, cells: Record<keyof typeof COLUMNS, string>) {
  const label = cells.label.trim();
  const externalId = cells.externalId.trim();
  const thermostatId = cells.thermostatId.trim();
  const state = words(cells.state);
  const subject = label || externalId || thermostatId || '(no label)';
  const refuse = (problem: string): UnitLineProblem => ({ line, subject, problem });
  if (label.length > 64) return refuse('A unit’s label has at most 64 characters.');
  if (externalId.length > 64) return refuse('An external id has at most 64 characters.');
  if (thermostatId && !thermostatIdSchema.safeParse(thermostatId).success) {
    return refuse('Not a thermostat id: it is 12 digits.');
  }
  if (state && !STATES[state]) {
    return refuse(
      ON_THE_UNIT_PAGE[state] ??
        'Not a state a line can record: write occupied, vacant or make-ready.',
    );
  }
  return {
    line,
    label,
    externalId: externalId || null,
    thermostatId: thermostatId || null,
    state: STATES[state] ?? null,
  } satisfies UnitLine;
}

/** Why the text could not be read as CSV, in words (the parser's own names its internals). */
function csvProblem(error: unknown): string {
  const { code, lines } = (error ?? {}) as { code?: unknown; lines?: unknown };
  const where = typeof lines === 'number' ? `Line ${lines}` : 'A line';
  if (typeof code === 'string' && /QUOTE/.test(code)) {
    return `${where} has a double quote out of place: a value holding a comma or a quote goes in double quotes, with each quote inside written twice.`;
  }
  return `The CSV could not be read${typeof lines === 'number' ? ` at line ${lines}` : ''}.`;
}

/** A CSV's records, each with the line it ends on, and its header's cells as words. */
export type CsvRecords = {
  header: string[];
  rows: { record: string[]; line: number }[];
};

/** A CSV text read into its header and rows, or why it cannot be read, in words. */
export function readCsvRecords(text: string): CsvRecords | { error: string } {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // With `info`, each record comes with where it ends in the text (csv-parse's types miss it).
    records = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
    }) as unknown as typeof records;
  } catch (error) {
    return { error: csvProblem(error) };
  }
  const [header, ...rows] = records;
  return {
    header: (header?.record ?? []).map(words),
    rows: rows.map(({ record, info }) => ({ record, line: info.lines })),
  };
}

/** The lines of a units CSV, each checked on its own, or why the whole text cannot be read. */
export function parseUnitsCsv(
  text: string,
): { lines: (UnitLine | UnitLineProblem)[] } | { error: string } {
  const read = readCsvRecords(text);
  if ('error' in read) return read;
  const { header: named, rows } = read;
  const column = (names: readonly string[]) => named.findIndex((cell) => names.includes(cell));
  const at = {
    label: column(COLUMNS.label),
    externalId: column(COLUMNS.externalId),
    thermostatId: column(COLUMNS.thermostatId),
    state: column(COLUMNS.state),
  };
  if (at.label < 0 || at.externalId < 0 || at.thermostatId < 0) {
    return {
      error:
        'The first row must name the columns: label, external id, thermostat id and, optionally, state.',
    };
  }
  if (rows.length === 0) return { error: 'There is no unit under the header row.' };
  if (rows.length > MAX_UNIT_LINES) {
    return {
      error: `At most ${MAX_UNIT_LINES.toLocaleString('en-US')} units a file: this one has ${rows.length.toLocaleString('en-US')}. Split it; nothing was changed.`,
    };
  }
  const cell = (record: string[], index: number) => (index >= 0 ? (record[index] ?? '') : '');
  return {
    lines: rows.map(({ record, line }) =>
      checkLine(line, {
        label: cell(record, at.label),
        externalId: cell(record, at.externalId),
        thermostatId: cell(record, at.thermostatId),
        state: cell(record, at.state),
      }),
    ),
  };
}
