import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { thermostatIdSchema } from '@/lib/service/schemas';

/**
 * One thermostat to add: its service id, the manager's label for it, and its building as the
 * line names it (a building's name or id; '' for the import's own building). The service does not
 * say which building a thermostat is in: the manager does.
 */
export type PortfolioEntry = {
  line: number;
  thermostatId: string;
  unitLabel: string;
  building: string;
};
export type EntryProblem = { line: number; input: string; problem: string };

/**
 * About four minutes of the service's 500 calls a minute: lines beyond a minute's budget wait for
 * the next (lib/portfolio/add.ts), within what one import request holds.
 */
export const MAX_ENTRIES_PER_IMPORT = 2000;
const unitLabelSchema = z.string().trim().max(64, 'A unit label has at most 64 characters.');

const buildingRefSchema = z
  .string()
  .trim()
  .max(64, 'A building is named in at most 64 characters.');

function checkEntry(
  line: number,
  rawId: string,
  rawLabel: string,
  rawBuilding = '',
): PortfolioEntry | EntryProblem {
  const id = thermostatIdSchema.safeParse(rawId.trim());
  if (!id.success) {
    return {
      line,
      input: rawId.trim() || '(empty)',
      problem: 'Not a thermostat id: it is 12 digits.',
    };
  }
  const label = unitLabelSchema.safeParse(rawLabel);
  if (!label.success)
    return { line, input: rawId.trim(), problem: label.error.issues[0]?.message ?? 'Bad label.' };
  const building = buildingRefSchema.safeParse(rawBuilding);
  if (!building.success) {
    return {
      line,
      input: rawId.trim(),
      problem: building.error.issues[0]?.message ?? 'Bad building.',
    };
  }
  return { line, thermostatId: id.data, unitLabel: label.data, building: building.data };
}

export type ParsedEntries = { entries: PortfolioEntry[]; problems: EntryProblem[] };

function finish(results: (PortfolioEntry | EntryProblem)[]): ParsedEntries {
  const entries: PortfolioEntry[] = [];
  const problems: EntryProblem[] = [];
  const seen = new Set<string>();
  for (const result of results) {
    if ('problem' in result) problems.push(result);
    else if (seen.has(result.thermostatId)) {
      problems.push({
        line: result.line,
        input: result.thermostatId,
        problem: 'Listed twice; added once.',
      });
    } else {
      seen.add(result.thermostatId);
      entries.push(result);
    }
  }
  if (entries.length > MAX_ENTRIES_PER_IMPORT) {
    for (const extra of entries.splice(MAX_ENTRIES_PER_IMPORT)) {
      problems.push({
        line: extra.line,
        input: extra.thermostatId,
        problem: `At most ${MAX_ENTRIES_PER_IMPORT} thermostats per import; import the rest separately.`,
      });
    }
  }
  return { entries, problems };
}

/**
 * A pasted list: one thermostat per line, the id optionally followed by a unit label and a
 * building (its name or id), separated by tabs (as a spreadsheet copies them) or else commas:
 * `318324702718, Unit 4B, Tower A`. Blank lines are skipped.
 */
export function parsePastedList(text: string): ParsedEntries {
  const results = text.split(/\r?\n/).flatMap((raw, index) => {
    const line = raw.trim();
    if (!line) return [];
    const [id = '', label = '', building = ''] = line.split(line.includes('\t') ? '\t' : ',');
    return [checkEntry(index + 1, id, label, building)];
  });
  return finish(results);
}

const ID_COLUMNS = ['thermostatid', 'thermostat_id', 'thermostat id', 'id', 'serial'];
const LABEL_COLUMNS = ['unitlabel', 'unit_label', 'unit label', 'unit', 'label', 'name'];
const BUILDING_COLUMNS = ['building', 'buildingid', 'building_id', 'building id', 'building name'];

/** Why a file could not be read as CSV, in words: the parser's own message names its internals. */
function csvProblem(error: unknown): string {
  const { code, lines } = (error ?? {}) as { code?: unknown; lines?: unknown };
  const where = typeof lines === 'number' ? `Line ${lines}` : 'A line';
  if (typeof code === 'string' && /QUOTE/.test(code)) {
    return `${where} has a double quote out of place: a value holding a comma or a quote goes in double quotes, with each quote inside written twice.`;
  }
  return `The file could not be read as CSV${typeof lines === 'number' ? ` at line ${lines}` : ''}.`;
}

/**
 * A CSV file with a header row naming an id column (`thermostatId`, `id`, `serial`) and
 * optionally a label column (`unitLabel`, `unit`, `label`, `name`) and a building column
 * (`building`, `buildingId`: a building's name or id). Line numbers are the file's.
 */
export function parseCsv(text: string): ParsedEntries | { error: string } {
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
    });
  } catch (error) {
    return { error: csvProblem(error) };
  }
  const header = (records[0] ?? []).map((cell) => cell.toLowerCase());
  const idColumn = header.findIndex((cell) => ID_COLUMNS.includes(cell));
  if (idColumn < 0) {
    return { error: 'The first row must name the columns, including thermostatId.' };
  }
  const labelColumn = header.findIndex((cell) => LABEL_COLUMNS.includes(cell));
  const buildingColumn = header.findIndex((cell) => BUILDING_COLUMNS.includes(cell));
  const cell = (record: string[], column: number) => (column >= 0 ? (record[column] ?? '') : '');
  const results = records
    .slice(1)
    .map((record, index) =>
      checkEntry(
        index + 2,
        record[idColumn] ?? '',
        cell(record, labelColumn),
        cell(record, buildingColumn),
      ),
    );
  return finish(results);
}
