'use client';

import { useRouter } from 'next/navigation';
import { type FormEvent, type ReactNode, useActionState, useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ErrorSummary } from '@/components/ui/error-summary';
import { SelectField } from '@/components/ui/field';
import { ErrorList } from '@/components/ui/form-parts';
import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';
import { ProgressBar } from '@/components/ui/progress-bar';
import type { FormAction, ReportRow } from '@/lib/platform/forms';
import type { AddField, AddSource, AddState, ImportEvent } from '@/lib/portfolio/add-request';
import { ImportResults } from './import-results';

const idle: AddState = { status: 'idle' };

/** Lines so far, and how many seconds are left of a wait for the service's rate limit. */
type Progress = { total: number; rows: ReportRow[]; waitSeconds?: number };

/**
 * One add form's state. Without JavaScript the form posts to its server action and the page
 * comes back with every line's result. With JavaScript it posts the same fields to the streamed
 * import, and each line's result shows the moment the service has answered for it, with a count.
 */
function useAddForm(source: AddSource, action: FormAction<AddField>) {
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
      if ('total' in event) progress = { ...progress, total: event.total };
      // A wait's last word is 0 s: it has ended.
      else if ('waiting' in event)
        progress = { ...progress, waitSeconds: event.waiting.seconds || undefined };
      else progress = { ...progress, rows: [...progress.rows, event.row] };
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
      <ProgressBar label="Lines checked" value={progress.rows.length} max={progress.total} />
      <p role="status" className="text-sm">
        {progress.total
          ? `Checked ${progress.rows.length} of ${progress.total} lines with the service…`
          : 'Reading the list…'}
        {progress.waitSeconds
          ? ` Waiting for the service’s rate limit, about ${progress.waitSeconds} s, before checking the other ${progress.total - progress.rows.length}.`
          : ''}
      </p>
      {rows.length ? (
        <ImportResults rows={rows} caption="Result for each thermostat so far" />
      ) : null}
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
        <ImportResults rows={state.report} caption="Result for each thermostat" />
      ) : null}
    </div>
  );
}

/** The form's submit button (its pending words while the lines are checked), then the result. */
function SubmitAndResult({
  form,
  label,
  pending,
  variant = 'primary',
}: {
  form: ReturnType<typeof useAddForm>;
  label: string;
  pending: string;
  variant?: 'primary' | 'secondary';
}) {
  return (
    <>
      <div>
        <Button type="submit" variant={variant} disabled={form.pending}>
          {form.pending ? pending : label}
        </Button>
      </div>
      <Result state={form.state} progress={form.progress} />
    </>
  );
}

/** The props that tie a field's control to its label, hint and errors. */
const controlProps = (name: AddField, errors?: string[]) => ({
  id: name,
  name,
  'aria-describedby': `${name}-hint ${name}-errors`,
  'aria-invalid': errors ? true : undefined,
});

/** A field of an add form: its label, the control (given `controlProps`), a hint, its errors. */
function AddFormField({
  name,
  label,
  hint,
  errors,
  children,
}: {
  name: AddField;
  label: string;
  hint: ReactNode;
  errors?: string[];
  children: ReactNode;
}) {
  return (
    <>
      <label htmlFor={name} className="text-sm font-medium">
        {label}
      </label>
      {children}
      <p id={`${name}-hint`} className="text-xs text-muted">
        {hint}
      </p>
      <ErrorList id={`${name}-errors`} errors={errors} />
    </>
  );
}

/**
 * A refused form's fields, summarised at its top (its other answers, the lines' results, show
 * below its button). The same object while the answer stands, so the summary takes focus once.
 */
function FieldsRefused({ source, state }: { source: 'list' | 'csv'; state: AddState }) {
  const refused = useMemo<AddState>(
    () => (state.fieldErrors ? { status: 'error', fieldErrors: state.fieldErrors } : idle),
    [state],
  );
  return (
    <ErrorSummary
      state={refused}
      level={3}
      fields={{
        building: { label: 'Building', id: `${source}-building` },
        [source]: { label: source === 'list' ? 'Thermostat ids' : 'CSV file', id: source },
      }}
    />
  );
}

/** A building of the portfolio, to choose for an import. */
export type BuildingChoice = { buildingId: string; name: string };

/** The building for every line that names none. */
function ImportBuilding({
  source,
  buildings,
  state,
}: {
  source: AddSource;
  buildings: readonly BuildingChoice[];
  state: AddState;
}) {
  return (
    <SelectField
      id={`${source}-building`}
      label="Building"
      name="building"
      defaultValue={
        state.values?.building ?? (buildings.length === 1 ? buildings[0]?.buildingId : '')
      }
      errors={state.fieldErrors?.building}
      options={[
        { value: '', label: 'As each line says' },
        ...buildings.map((building) => ({ value: building.buildingId, label: building.name })),
      ]}
      hint="The service does not say which building a thermostat is in: choose it here, or name it on each line."
    />
  );
}

const textareaClass =
  'min-h-36 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 aria-invalid:border-red-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100';

export function AddFromListForm({
  action,
  buildings,
}: {
  action: FormAction<AddField>;
  buildings: readonly BuildingChoice[];
}) {
  const form = useAddForm('list', action);
  const errors = form.state.fieldErrors?.list;
  return (
    <form {...form.formProps} className="grid gap-3">
      <FieldsRefused source="list" state={form.state} />
      <ImportBuilding source="list" buildings={buildings} state={form.state} />
      <AddFormField
        name="list"
        label="Thermostat ids"
        errors={errors}
        hint="One per line: the 12-digit id, optionally followed by the unit’s label and the building’s name, separated by commas or tabs. Each is checked with the service before it is added."
      >
        <textarea
          {...controlProps('list', errors)}
          className={textareaClass}
          defaultValue={form.state.values?.list}
          placeholder={'318324702718, Unit 4B\n318324702719, Unit 4C, Harbor View'}
        />
      </AddFormField>
      <SubmitAndResult form={form} label="Add thermostats" pending="Checking with the service…" />
    </form>
  );
}

export function AddFromCsvForm({
  action,
  buildings,
}: {
  action: FormAction<AddField>;
  buildings: readonly BuildingChoice[];
}) {
  const form = useAddForm('csv', action);
  const errors = form.state.fieldErrors?.csv;
  return (
    <form {...form.formProps} className="grid gap-3">
      <FieldsRefused source="csv" state={form.state} />
      <ImportBuilding source="csv" buildings={buildings} state={form.state} />
      <AddFormField
        name="csv"
        label="CSV file"
        errors={errors}
        hint={
          <>
            A header row naming a <code>thermostatId</code> column and, optionally,{' '}
            <code>unitLabel</code> and <code>building</code> (a building’s name or id). You get a
            result for every row.
          </>
        }
      >
        <input
          {...controlProps('csv', errors)}
          type="file"
          accept=".csv,text/csv"
          className="text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium dark:file:bg-slate-800 dark:file:text-slate-100"
        />
      </AddFormField>
      <SubmitAndResult form={form} label="Import file" pending="Importing…" />
    </form>
  );
}

export function ImportDemoForm({ action }: { action: FormAction<AddField> }) {
  const form = useAddForm('demo', action);
  return (
    <form {...form.formProps} className="grid gap-3">
      <SubmitAndResult
        form={form}
        label="Import the sandbox demo portfolio"
        pending="Importing the demo portfolio…"
        variant="secondary"
      />
    </form>
  );
}
