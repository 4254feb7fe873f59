'use server';

import { revalidatePath } from 'next/cache';
import { openAction } from '@/lib/actions';
import {
  type AddSource,
  type AddState,
  readAddRequest,
  runAddRequest,
} from '@/lib/portfolio/add-request';

/**
 * The add forms' actions, for a browser without JavaScript: one answer with every line's result
 * at the end. With JavaScript the forms post to `./import` instead, which streams each line's
 * result as it is checked; both read and check the same way (lib/portfolio/add-request).
 */
async function add(source: AddSource, form: FormData): Promise<AddState> {
  const opened = await openAction('manage_portfolio');
  if (!opened.ok) return opened.state;
  const read = await readAddRequest(source, form);
  if (!read.ok) return read.state;
  const state = await runAddRequest(opened.member, read.request);
  revalidatePath('/', 'layout');
  return state;
}

/** Adds thermostats by id: one, or a pasted list of ids with optional labels. */
export async function addFromList(_previous: AddState, form: FormData): Promise<AddState> {
  return add('list', form);
}

/** Adds the thermostats of a CSV file, with a result for every row. */
export async function addFromCsv(_previous: AddState, form: FormData): Promise<AddState> {
  return add('csv', form);
}

/** The sandbox's demo portfolio in one click (offered only against the local sandbox). */
export async function importSandboxDemo(_previous: AddState, form: FormData): Promise<AddState> {
  return add('demo', form);
}
