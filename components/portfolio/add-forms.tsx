'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import { addFromCsv, addFromList, importSandboxDemo } from '@/app/(app)/portfolio/add/actions';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { ReportTable } from '@/components/ui/report-table';
import type { FormState } from '@/lib/forms';

const idle = { status: 'idle' } as FormState<'list' | 'csv'>;

function Result({ state }: { state: FormState<'list' | 'csv'> }) {
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
  const [state, action, pending] = useActionState(addFromList, idle);
  const errors = state.fieldErrors?.list;
  return (
    <form action={action} className="grid gap-3">
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
      <p id="list-hint" className="text-xs text-slate-600 dark:text-slate-400">
        One per line: the 12-digit id, optionally a comma and the unit’s label. Each is checked with
        the service before it is added.
      </p>
      <div id="list-errors" aria-live="polite" className="text-sm text-red-700 dark:text-red-400">
        {errors?.map((error) => (
          <p key={error}>{error}</p>
        ))}
      </div>
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? 'Checking with the service…' : 'Add thermostats'}
        </Button>
      </div>
      <Result state={state} />
    </form>
  );
}

export function AddFromCsvForm() {
  const [state, action, pending] = useActionState(addFromCsv, idle);
  const errors = state.fieldErrors?.csv;
  return (
    <form action={action} className="grid gap-3">
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
      <p id="csv-hint" className="text-xs text-slate-600 dark:text-slate-400">
        A header row naming a <code>thermostatId</code> column and, optionally,{' '}
        <code>unitLabel</code>. You get a result for every row.
      </p>
      <div id="csv-errors" aria-live="polite" className="text-sm text-red-700 dark:text-red-400">
        {errors?.map((error) => (
          <p key={error}>{error}</p>
        ))}
      </div>
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? 'Importing…' : 'Import file'}
        </Button>
      </div>
      <Result state={state} />
    </form>
  );
}

export function ImportDemoForm() {
  const [state, action, pending] = useActionState(importSandboxDemo, idle);
  return (
    <form action={action} className="grid gap-3">
      <div>
        <Button type="submit" variant="secondary" disabled={pending}>
          {pending ? 'Importing the demo portfolio…' : 'Import the sandbox demo portfolio'}
        </Button>
      </div>
      <Result state={state} />
    </form>
  );
}
