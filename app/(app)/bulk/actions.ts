'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { notYours } from '@/lib/access/not-yours';
import { openAction } from '@/lib/access/actions';
import { type BulkFormState, MALFORMED, valuesFromForm } from '@/lib/bulk/form';
import { selectionFromForm } from '@/lib/groups/selection';
import { RUN_KINDS } from '@/lib/jobs/run-kinds';
import { runIdSchema } from '@/lib/runs/progress';
import { retryBulkRun, reviewBulkChange, startBulkRun } from '@/lib/bulk/runs';
import { cancelBulkRun, runPath } from '@/lib/runs/requests';
import type { FormState } from '@/lib/platform/forms';
import { applyPlannedRun, planUndoOfRun } from '@/lib/templates/runs';

/** Both steps' opening: the session and role, then the settings and a selection in scope. */
async function openBulkForm(form: FormData) {
  const opened = await openAction('change_thermostat');
  if (!opened.ok) return opened;
  const values = valuesFromForm(form);
  if (!values) {
    return { ok: false as const, state: { status: 'error' as const, message: MALFORMED } };
  }
  const selection = await selectionFromForm(opened.member, form);
  if (!selection.ok) {
    const state = { status: 'error' as const, message: selection.message, values };
    return { ok: false as const, state };
  }
  return { ok: true as const, member: opened.member, values, selected: selection.ids };
}

/** A refused review or start: its message and field errors, with the form refilled. */
function refusedForm(
  refusal: Pick<BulkFormState, 'message' | 'fieldErrors'>,
  { values, selected }: Pick<BulkFormState, 'values' | 'selected'>,
): BulkFormState {
  return {
    status: 'error',
    message: refusal.message,
    fieldErrors: refusal.fieldErrors,
    values,
    selected,
  };
}

/**
 * Step one of a bulk change: checks the selection and the settings and answers with what a
 * confirmation shows (how many thermostats, where, the change in words). Nothing is sent yet.
 * `intent=edit` goes back from the confirmation to the form, keeping what was entered.
 */
export async function reviewBulk(_previous: BulkFormState, form: FormData): Promise<BulkFormState> {
  const opened = await openBulkForm(form);
  if (!opened.ok) return opened.state;
  const { member, values, selected } = opened;
  if (form.get('intent') === 'edit') return { status: 'idle', values, selected };
  const reviewed = await reviewBulkChange({ member, thermostatIds: selected, values });
  if (!reviewed.ok) return refusedForm(reviewed, opened);
  return {
    status: 'success',
    review: { ...reviewed.review, selection: reviewed.thermostatIds.join(',') },
    values,
    selected: reviewed.thermostatIds,
  };
}

/** Step two, the confirmation: every check again, then the run is created and queued. */
export async function startBulk(_previous: BulkFormState, form: FormData): Promise<BulkFormState> {
  const opened = await openBulkForm(form);
  if (!opened.ok) return opened.state;
  const { member, values, selected } = opened;
  const started = await startBulkRun({ member, thermostatIds: selected, values });
  if (!started.ok) return refusedForm(started, opened);
  revalidatePath('/bulk');
  redirect(runPath(started.run));
}

/** An action on one run: the session, the role, and an id that can be one. */
async function openRun(runId: string) {
  const opened = await openAction('change_thermostat');
  if (!opened.ok) return opened;
  const id = runIdSchema.safeParse(runId);
  if (!id.success) {
    return { ok: false as const, state: { status: 'error' as const, message: notYours('run') } };
  }
  return { ok: true as const, member: opened.member, runId: id.data };
}

/** What a run's action answers: why it was refused, or the run's page (the list revalidated). */
function toRunPage(
  result: { ok: true; run: Parameters<typeof runPath>[0] } | { ok: false; message: string },
): FormState {
  if (!result.ok) return { status: 'error', message: result.message };
  revalidatePath('/bulk');
  redirect(runPath(result.run));
}

/** Cancels a run (confirmed on its page): at once, or between its requests. */
export async function cancelRun(
  runId: string,
  _previous: FormState,
  _form: FormData,
): Promise<FormState> {
  const opened = await openRun(runId);
  if (!opened.ok) return opened.state;
  const cancelled = await cancelBulkRun(opened, RUN_KINDS);
  if (cancelled.ok) revalidatePath(runPath(cancelled.run));
  return toRunPage(cancelled);
}

/** Retries the thermostats of a finished run that failed or were not sent, as a new run. */
export async function retryRun(
  runId: string,
  _previous: FormState,
  _form: FormData,
): Promise<FormState> {
  const opened = await openRun(runId);
  if (!opened.ok) return opened.state;
  return toRunPage(await retryBulkRun(opened));
}

/** Applies a plan the member was shown (confirmed on the run's page). */
export async function applyPlan(
  runId: string,
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const opened = await openRun(runId);
  if (!opened.ok) return opened.state;
  // Held in memory for the run only (lib/runs/passcodes.ts); never echoed back.
  return toRunPage(
    await applyPlannedRun({ ...opened, passcode: form.get('passcode') ?? undefined }),
  );
}

/** Plans the undo of a finished template or undo run, as a new run shown before it is applied. */
export async function undoRun(
  runId: string,
  _previous: FormState,
  _form: FormData,
): Promise<FormState> {
  const opened = await openRun(runId);
  if (!opened.ok) return opened.state;
  return toRunPage(await planUndoOfRun(opened));
}
