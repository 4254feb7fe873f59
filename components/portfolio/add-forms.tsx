'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type FormEvent, useActionState, useState } from 'react';
import { addFromCsv, addFromList, importSandboxDemo } from '@/app/(app)/portfolio/add/actions';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { ReportTable } from '@/components/ui/report-table';
import type { ReportRow } from '@/lib/forms';
import type { AddSource, AddState, ImportEvent } from '@/lib/portfolio/add-request';

const idle: AddState = { status: 'idle' };

type Progress = { total: number; rows: ReportRow[] };

/**
 * One add form's state. Without JavaScript the form posts to its server action and the page
 * comes back with every line's result. With JavaScript it posts the same fields to the streamed
 * import, and each line's result shows the moment the service has answered for it, with a count.
 */
function useAddForm(
  source: AddSource,
  action: (previous: AddState, form: FormData) => Promise<AddState>,
) {
  const [actionState, formAction, actionPending] = useActionState(action, idle);
  const [streamed, setStreamed] = useState<AddState | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const router = useRouter();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setStreamed(null);
    setProgress({ total: 0, rows: [] });
    try {
      const state = await streamImport(source, form, setProgress);
      setStreamed(state);
      // The overview and building pages in the router's cache predate the new thermostats.
      if (state.report?.some((row) => row.outcome === 'done')) router.refresh();
    } catch {
      setStreamed({
        status: 'error',
        message:
          'The connection to Setpoint was lost during the import. Open your buildings to see what was added, then import again: thermostats already added are kept.',
      });
    }
    setProgress(null);
  }

  return {
    state: streamed ?? actionState,
    progress,
    pending: actionPending || progress !== null,
    formProps: { action: formAction, onSubmit },
  };
}

async function streamImport(
  source: AddSource,
  form: FormData,
  onProgress: (progress: Progress) => void,
): Promise<AddState> {
  const response = await fetch(`/portfolio/add/import?from=${source}`, {
    method: 'POST',
    body: form,
    // Signed out, the proxy answers with a redirect to sign in: said as such, not followed.
    redirect: 'manual',
  });
  if (response.type === 'opaqueredirect' || response.status === 401) {
    return { status: 'error', message: 'Your session has ended. Sign in again to continue.' };
  }
  if (!response.ok || !response.body) {
    // Refusals and field errors come back whole, as the action would give them.
    const state = (await response.json().catch(() => null)) as AddState | null;
    return state ?? { status: 'error', message: 'Setpoint could not start the import. Try again.' };
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let progress: Progress = { total: 0, rows: [] };
  for (;;) {
    const { value, done } = await reader.read();
    if (!done) buffered += value;
    const lines = buffered.split('\n');
    // A line is whole once its newline has come, or the stream has ended.
    buffered = done ? '' : (lines.pop() ?? '');
    for (const line of lines) {
      if (!line) continue;
      const event = JSON.parse(line) as ImportEvent;
      if ('done' in event) return event.done;
      progress =
        'total' in event
          ? { ...progress, total: event.total }
          : { ...progress, rows: [...progress.rows, event.row] };
    }
    if (done) break;
    onProgress(progress);
  }
  throw new Error('The import ended without its summary.');
}

function Checking({ progress }: { progress: Progress }) {
  const rows = [...progress.rows].sort((a, b) => a.line - b.line);
  return (
    <div className="grid gap-2">
      <progress
        aria-label="Lines checked"
        max={Math.max(1, progress.total)}
        value={progress.rows.length}
        className="h-3 w-full overflow-hidden rounded-full accent-brand-600"
      />
      <p role="status" className="text-sm">
        {progress.total
          ? `Checked ${progress.rows.length} of ${progress.total} lines with the service…`
          : 'Reading the list…'}
      </p>
      {rows.length ? <ReportTable rows={rows} caption="Result for each thermostat so far" /> : null}
    </div>
  );
}

function Result({ state, progress }: { state: AddState; progress: Progress | null }) {
  if (progress) return <Checking progress={progress} />;
  if (!state.message) return null;
  return (
    <div className="grid gap-3">
      <Notice tone={state.status === 'success' ? 'success' : 'error'}>
        {state.message}{' '}
        {state.status === 'success' ? (
          <Link href="/" className="font-medium underline">
            See your buildings
          </Link>
        ) : null}
      </Notice>
      {state.report?.length ? (
        <ReportTable rows={state.report} caption="Result for each thermostat" />
      ) : null}
    </div>
  );
}

const textareaClass =
  'min-h-36 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 aria-invalid:border-red-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100';

export function AddFromListForm() {
  const { state, progress, pending, formProps } = useAddForm('list', addFromList);
  const errors = state.fieldErrors?.list;
  return (
    <form {...formProps} className="grid gap-3">
      <label htmlFor="list" className="text-sm font-medium">
        Thermostat ids
      </label>
      <textarea
        id="list"
        name="list"
        className={textareaClass}
        aria-describedby="list-hint list-errors"
        aria-invalid={errors ? true : undefined}
        defaultValue={state.values?.list}
        placeholder={'318324702718, Unit 4B\n318324702719, Unit 4C'}
      />
      <p id="list-hint" className="text-xs text-muted">
        One per line: the 12-digit id, optionally a comma and the unit’s label. Each is checked with
        the service before it is added.
      </p>
      <div id="list-errors" aria-live="polite" className="text-sm text-danger">
        {errors?.map((error) => (
          <p key={error}>{error}</p>
        ))}
      </div>
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? 'Checking with the service…' : 'Add thermostats'}
        </Button>
      </div>
      <Result state={state} progress={progress} />
    </form>
  );
}

export function AddFromCsvForm() {
  const { state, progress, pending, formProps } = useAddForm('csv', addFromCsv);
  const errors = state.fieldErrors?.csv;
  return (
    <form {...formProps} className="grid gap-3">
      <label htmlFor="csv" className="text-sm font-medium">
        CSV file
      </label>
      <input
        id="csv"
        name="csv"
        type="file"
        accept=".csv,text/csv"
        aria-describedby="csv-hint csv-errors"
        aria-invalid={errors ? true : undefined}
        className="text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium dark:file:bg-slate-800 dark:file:text-slate-100"
      />
      <p id="csv-hint" className="text-xs text-muted">
        A header row naming a <code>thermostatId</code> column and, optionally,{' '}
        <code>unitLabel</code>. You get a result for every row.
      </p>
      <div id="csv-errors" aria-live="polite" className="text-sm text-danger">
        {errors?.map((error) => (
          <p key={error}>{error}</p>
        ))}
      </div>
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? 'Importing…' : 'Import file'}
        </Button>
      </div>
      <Result state={state} progress={progress} />
    </form>
  );
}

export function ImportDemoForm() {
  const { state, progress, pending, formProps } = useAddForm('demo', importSandboxDemo);
  return (
    <form {...formProps} className="grid gap-3">
      <div>
        <Button type="submit" variant="secondary" disabled={pending}>
          {pending ? 'Importing the demo portfolio…' : 'Import the sandbox demo portfolio'}
        </Button>
      </div>
      <Result state={state} progress={progress} />
    </form>
  );
}
