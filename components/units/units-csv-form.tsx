'use client';

import { useActionState } from 'react';
import { ErrorSummary } from '@/components/ui/error-summary';
import { ErrorList, FormMessage } from '@/components/ui/form-parts';
import { OutcomeLabel } from '@/components/ui/outcome-label';
import { type Column, ResultTable } from '@/components/ui/result-table';
import { SubmitButton } from '@/components/ui/submit-button';
import { importOutcome } from '@/lib/outcomes';
import type { FormAction, FormState, ReportRow } from '@/lib/platform/forms';

type FieldName = 'csv' | 'file';
const idle: FormState<FieldName> = { status: 'idle' };

const COLUMNS: Column<ReportRow>[] = [
  { header: 'Line', cell: (row) => row.line, className: 'text-muted tabular-nums' },
  { header: 'Unit', names: true, cell: (row) => row.subject },
  { header: 'Result', cell: (row) => <OutcomeLabel kind={importOutcome(row.outcome)} /> },
  { header: 'Detail', cell: (row) => row.detail },
];

const describedBy = (name: FieldName) => `units-${name}-hint units-${name}-errors`;

/**
 * A building's units as CSV, pasted or as a file: one result a line (done, unchanged, refused
 * with why) under the button. Posts without JavaScript too. A state is recorded as on a unit's
 * page, starting the run its policy asks for.
 */
export function UnitsCsvForm({ action: bound }: { action: FormAction<FieldName> }) {
  const [state, action] = useActionState(bound, idle);
  const errors = state.fieldErrors;
  return (
    <form action={action} noValidate aria-label="Units by CSV" className="grid gap-3">
      {/* The lines' results answer under the button; a refused form, at its top. */}
      <ErrorSummary
        state={state.report ? idle : state}
        level={3}
        fields={{
          csv: { label: 'Units as CSV', id: 'units-csv' },
          file: { label: 'Or a CSV file', id: 'units-file' },
        }}
      />
      <label htmlFor="units-csv" className="text-sm font-medium">
        Units as CSV
      </label>
      <textarea
        id="units-csv"
        name="csv"
        aria-describedby={describedBy('csv')}
        aria-invalid={errors?.csv ? true : undefined}
        defaultValue={state.values?.csv}
        placeholder={
          'label,external id,thermostat id,state\nUnit 4B,PM-4B,318324702718,occupied\nUnit 5A,PM-5A,,vacant'
        }
        className="min-h-36 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 aria-invalid:border-red-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      />
      <p id="units-csv-hint" className="text-xs text-muted">
        A header row <code>label,external id,thermostat id,state</code>, then a unit a line. Each
        line changes the unit of this building with that thermostat id, else that external id, else
        that label; one that matches none and names no thermostat adds an empty unit. An empty cell
        leaves the unit’s own. State, optional: occupied, vacant or make-ready (notice and move-ins
        are recorded on the unit’s page, with their dates). At most 2,000 lines.
      </p>
      <ErrorList id="units-csv-errors" errors={errors?.csv} />
      <label htmlFor="units-file" className="text-sm font-medium">
        Or a CSV file
      </label>
      <input
        id="units-file"
        name="file"
        type="file"
        accept=".csv,text/csv"
        aria-describedby={describedBy('file')}
        aria-invalid={errors?.file ? true : undefined}
        className="text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium dark:file:bg-slate-800 dark:file:text-slate-100"
      />
      <p id="units-file-hint" className="text-xs text-muted">
        Used instead of the text when chosen; at most 1 MB.
      </p>
      <ErrorList id="units-file-errors" errors={errors?.file} />
      <div>
        <SubmitButton pending="Importing…">Import units</SubmitButton>
      </div>
      {state.report ? (
        <>
          <FormMessage state={state} />
          <ResultTable
            caption="Result for each line"
            columns={COLUMNS}
            rows={state.report}
            rowKey={(row) => String(row.line)}
          />
        </>
      ) : null}
    </form>
  );
}
