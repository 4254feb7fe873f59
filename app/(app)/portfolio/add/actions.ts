'use server';

import { revalidatePath } from 'next/cache';
import { formStrings, openAction } from '@/lib/access/actions';
import { CHECK_FIELDS } from '@/lib/platform/forms';
import { type FormState, fieldErrorsOf } from '@/lib/platform/forms';
import {
  type AddSource,
  type AddState,
  readAddRequest,
  runAddRequest,
} from '@/lib/portfolio/add-request';
import {
  addBuilding,
  BUILDING_FIELDS,
  type BuildingField,
  newBuildingSchema,
} from '@/lib/portfolio/buildings';

/**
 * The add forms' actions, for a browser without JavaScript: one answer with every line's result
 * at the end. With JavaScript the forms post to `./import` instead, which streams each line's
 * result as it is checked; both read and check the same way (lib/portfolio/add-request).
 */
async function add(source: AddSource, form: FormData): Promise<AddState> {
  const opened = await openAction('manage_portfolio');
  if (!opened.ok) return opened.state;
  const read = await readAddRequest(source, form, opened.member.orgId);
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

/** Adds a building to the portfolio, so thermostats can be added to it. */
export async function addBuildingAction(
  _previous: FormState<BuildingField>,
  form: FormData,
): Promise<FormState<BuildingField>> {
  const opened = await openAction('manage_portfolio');
  if (!opened.ok) return opened.state;
  const values = formStrings(form, BUILDING_FIELDS);
  const parsed = newBuildingSchema.safeParse(
    Object.fromEntries(BUILDING_FIELDS.map((field) => [field, form.get(field) ?? ''])),
  );
  if (!parsed.success) {
    return {
      status: 'error',
      message: CHECK_FIELDS,
      fieldErrors: fieldErrorsOf(parsed.error),
      values,
    };
  }
  const added = await addBuilding(opened.member, parsed.data);
  if (!added.ok) {
    return { status: 'error', message: CHECK_FIELDS, fieldErrors: added.fieldErrors, values };
  }
  revalidatePath('/', 'layout');
  return { status: 'success', message: `Added ${parsed.data.name}.` };
}
