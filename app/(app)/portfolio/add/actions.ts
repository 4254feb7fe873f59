'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { openAction } from '@/lib/actions';
import type { FormState } from '@/lib/forms';
import { addToPortfolio } from '@/lib/portfolio/add';
import { type ParsedEntries, parseCsv, parsePastedList } from '@/lib/portfolio/entries';
import { fetchSandboxDemoPortfolio } from '@/lib/portfolio/sandbox-demo';

export type AddField = 'list' | 'csv';
type State = FormState<AddField>;

const MAX_CSV_BYTES = 512 * 1024;
const listSchema = z
  .string()
  .trim()
  .min(1, 'Paste at least one thermostat id.')
  .max(100_000, 'That list is too long.');

function summary(report: NonNullable<State['report']>): string {
  const added = report.filter((row) => row.outcome === 'done').length;
  const problems = report.filter(
    (row) => row.outcome === 'failed' || row.outcome === 'not_attempted',
  ).length;
  return `${added} added${problems ? `, ${problems} not added (see below)` : ''}.`;
}

async function addEntries(parsed: ParsedEntries, values: State['values']): Promise<State> {
  const opened = await openAction('manage_portfolio');
  if (!opened.ok) return opened.state;
  const report = await addToPortfolio({
    actor: opened.member,
    entries: parsed.entries,
    problems: parsed.problems,
  });
  revalidatePath('/', 'layout');
  const ok = report.some((row) => row.outcome === 'done' || row.outcome === 'unchanged');
  return { status: ok ? 'success' : 'error', message: summary(report), report, values };
}

/** Adds thermostats by id: one, or a pasted list of ids with optional labels. */
export async function addFromList(_previous: State, form: FormData): Promise<State> {
  const opened = await openAction('manage_portfolio');
  if (!opened.ok) return opened.state;
  const list = listSchema.safeParse(form.get('list') ?? '');
  if (!list.success) {
    return {
      status: 'error',
      fieldErrors: { list: list.error.issues.map((issue) => issue.message) },
    };
  }
  return addEntries(parsePastedList(list.data), { list: list.data });
}

/** Adds the thermostats of a CSV file, with a result for every row. */
export async function addFromCsv(_previous: State, form: FormData): Promise<State> {
  const opened = await openAction('manage_portfolio');
  if (!opened.ok) return opened.state;
  const file = form.get('csv');
  if (!(file instanceof File) || file.size === 0) {
    return { status: 'error', fieldErrors: { csv: ['Choose a CSV file.'] } };
  }
  if (file.size > MAX_CSV_BYTES) {
    return { status: 'error', fieldErrors: { csv: ['That file is over 512 KB; split it.'] } };
  }
  const parsed = parseCsv(await file.text());
  if ('error' in parsed) return { status: 'error', fieldErrors: { csv: [parsed.error] } };
  return addEntries(parsed, {});
}

/** The sandbox's demo portfolio in one click (offered only against the local sandbox). */
export async function importSandboxDemo(_previous: State): Promise<State> {
  const opened = await openAction('manage_portfolio');
  if (!opened.ok) return opened.state;
  const demo = await fetchSandboxDemoPortfolio();
  if (!demo) {
    return {
      status: 'error',
      message:
        'The demo portfolio is available only from the local sandbox with its control API on.',
    };
  }
  const report = await addToPortfolio({
    actor: opened.member,
    entries: demo.entries,
    known: demo.known,
  });
  revalidatePath('/', 'layout');
  return { status: 'success', message: summary(report), report };
}
