import 'server-only';
import { z } from 'zod';
import type { Actor } from '@/lib/activity/sink';
import { listOrganizationBuildings } from '@/lib/portfolio/store';
import type { FormState, ReportRow } from '@/lib/platform/forms';
import { addToPortfolio, type ImportWait, type KnownBuilding } from './add';
import { type EntryProblem, type PortfolioEntry, parseCsv, parsePastedList } from './entries';
import { fetchSandboxDemoPortfolio } from './sandbox-demo';

/**
 * The three ways of adding thermostats (a pasted list, a CSV file, the sandbox's demo), read the
 * same way for the forms' server actions (without JavaScript) and for the streamed import that
 * shows each line as it is checked: one set of limits and messages for both.
 */
export const ADD_SOURCES = ['list', 'csv', 'demo'] as const;
export type AddSource = (typeof ADD_SOURCES)[number];
export type AddField = 'list' | 'csv' | 'building';
export type AddState = FormState<AddField>;

/**
 * One line of the streamed import's answer (NDJSON): the count, each line's result, a wait for
 * the service's rate limit (when it begins and every few seconds while it lasts), the end.
 */
export type ImportEvent =
  | { total: number }
  | { row: ReportRow }
  | { waiting: ImportWait }
  | { done: AddState };

export type AddRequest = {
  entries: PortfolioEntry[];
  problems: EntryProblem[];
  /** The building of a line that names none. */
  defaultBuildingId?: string | null;
  known?: Map<string, KnownBuilding>;
  values: AddState['values'];
};

const MAX_CSV_BYTES = 512 * 1024;
const listSchema = z
  .string()
  .trim()
  .min(1, 'Paste at least one thermostat id.')
  .max(250_000, 'That list is too long.');

/**
 * The form's entries, or the state that says what is wrong with it (nothing checked yet). The
 * organisation's, for the import's building (`building`: one of its buildings' ids, or none when
 * every line names its own).
 */
export async function readAddRequest(
  source: AddSource,
  form: FormData,
  orgId: string,
): Promise<{ ok: true; request: AddRequest } | { ok: false; state: AddState }> {
  const refuse = (state: AddState) => ({ ok: false as const, state });
  let defaultBuildingId: string | null = null;
  if (source !== 'demo') {
    const chosen = form.get('building') ?? '';
    const buildings = await listOrganizationBuildings({ orgId });
    if (chosen !== '' && !buildings.some((building) => building.buildingId === chosen)) {
      return refuse({
        status: 'error',
        fieldErrors: { building: ['Choose one of your buildings.'] },
      });
    }
    defaultBuildingId = typeof chosen === 'string' && chosen !== '' ? chosen : null;
  }
  if (source === 'list') {
    const list = listSchema.safeParse(form.get('list') ?? '');
    if (!list.success) {
      return refuse({
        status: 'error',
        fieldErrors: { list: list.error.issues.map((issue) => issue.message) },
        values: { building: defaultBuildingId ?? '' },
      });
    }
    return {
      ok: true,
      request: {
        ...parsePastedList(list.data),
        defaultBuildingId,
        values: { list: list.data, building: defaultBuildingId ?? '' },
      },
    };
  }
  if (source === 'csv') {
    const file = form.get('csv');
    if (!(file instanceof File) || file.size === 0) {
      return refuse({ status: 'error', fieldErrors: { csv: ['Choose a CSV file.'] } });
    }
    if (file.size > MAX_CSV_BYTES) {
      return refuse({
        status: 'error',
        fieldErrors: { csv: ['That file is over 512 KB; split it.'] },
      });
    }
    const parsed = parseCsv(await file.text());
    if ('error' in parsed) return refuse({ status: 'error', fieldErrors: { csv: [parsed.error] } });
    return {
      ok: true,
      request: { ...parsed, defaultBuildingId, values: { building: defaultBuildingId ?? '' } },
    };
  }
  const demo = await fetchSandboxDemoPortfolio();
  if (!demo) {
    return refuse({
      status: 'error',
      message:
        'The demo portfolio is available only from the local sandbox with its control API on.',
    });
  }
  return { ok: true, request: { ...demo, problems: [], values: {} } };
}

/** How many lines a request has: each gets one row of the result. */
export function lineCount(request: AddRequest): number {
  return request.entries.length + request.problems.length;
}

/**
 * Checks and adds every entry; `onRow` hears each line's result as soon as it is known, `onWait`
 * when the lines left wait for the service's rate limit.
 */
export async function runAddRequest(
  actor: Actor,
  request: AddRequest,
  onRow?: (row: ReportRow) => void,
  onWait?: (wait: ImportWait) => void,
): Promise<AddState> {
  const report = await addToPortfolio({ actor, ...request, onRow, onWait });
  const added = report.filter((row) => row.outcome === 'done').length;
  const problems = report.filter(
    (row) => row.outcome === 'failed' || row.outcome === 'not_attempted',
  ).length;
  const ok = report.some((row) => row.outcome === 'done' || row.outcome === 'unchanged');
  return {
    status: ok ? 'success' : 'error',
    message: `${added} added${problems ? `, ${problems} not added (see below)` : ''}.`,
    report,
    values: request.values,
  };
}
