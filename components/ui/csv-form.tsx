'use client';

import { type ReactNode, useActionState } from 'react';
import { ErrorSummary } from '@/components/ui/error-summary';
import { ErrorList, FormMessage } from '@/components/ui/form-parts';
import { OutcomeLabel } from '@/components/ui/outcome-label';
import { type Column, ResultTable } from '@/components/ui/result-table';
import { SubmitButton } from '@/components/ui/submit-button';
import { importOutcome } from '@/lib/outcomes';
import type { FormAction, FormState, ReportRow } from '@/lib/platform/forms';

type FieldName = 'csv' | 'file';
const idle: FormState<FieldName> = { status: 'idle' };

const columns = (subject: string): Column<ReportRow>[] => [
  { header: 'Line', cell: (row) => row.line, className: 'text-muted tabular-nums' },
  { header: subject, names: true, cell: (row) => row.subject },
  { header: 'Result', cell: (row) => <OutcomeLabel kind={importOutcome(row.outcome)} /> },
  { header: 'Detail', cell: (row) => row.detail },
];

/**
 * A CSV, pasted or as a file (the file wins), with one result a line (done, unchanged, refused
 * with why) under the button. Posts without JavaScript too. Used for a building's units and for
 * lease events; `id` prefixes its fields' ids.
 */
export function CsvForm({
  action: bound,
  id,
  title,
  textLabel,
  placeholder,
  hint,
  submit,
  subject,
}: {
  action: FormAction<FieldName>;
  id: string;
  /** The form's name, for assistive technology. */
  title: string;
  textLabel: string;
  placeholder: string;
  hint: ReactNode;
  submit: { label: string; pending: string };
  /** What a line is about, as the results' column names it. */
  subject: string;
}) {
  const [state, action] = useActionState(bound, idle);
  const errors = state.fieldErrors;
  const describedBy = (name: FieldName) => `${id}-${name}-hint ${id}-${name}-errors`;
  return (
    <form action={action} noValidate aria-label={title} className="grid gap-3">
      {/* The lines' results answer under the button; a refused form, at its top. */}
      <ErrorSummary
        state={state.report ? idle : state}
        level={3}
        fields={{
          csv: { label: textLabel, id: `${id}-csv` },
          file: { label: 'Or a CSV file', id: `${id}-file` },
        }}
      />
      <label htmlFor={`${id}-csv`} className="text-sm font-medium">
        {textLabel}
      </label>
      <textarea
        id={`${id}-csv`}
        name="csv"
        aria-describedby={describedBy('csv')}
        aria-invalid={errors?.csv ? true : undefined}
        defaultValue={state.values?.csv}
        placeholder={placeholder}
        className="min-h-36 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 aria-invalid:border-red-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      />
      <p id={`${id}-csv-hint`} className="text-xs text-muted">
        {hint}
      </p>
      <ErrorList id={`${id}-csv-errors`} errors={errors?.csv} />
      <label htmlFor={`${id}-file`} className="text-sm font-medium">
        Or a CSV file
      </label>
      <input
        id={`${id}-file`}
        name="file"
        type="file"
        accept=".csv,text/csv"
        aria-describedby={describedBy('file')}
        aria-invalid={errors?.file ? true : undefined}
        className="text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium dark:file:bg-slate-800 dark:file:text-slate-100"
      />
      <p id={`${id}-file-hint`} className="text-xs text-muted">
        Used instead of the text when chosen; at most 1 MB.
      </p>
      <ErrorList id={`${id}-file-errors`} errors={errors?.file} />
      <div>
        <SubmitButton pending={submit.pending}>{submit.label}</SubmitButton>
      </div>
      {state.report ? (
        <>
          <FormMessage state={state} />
          <ResultTable
            caption="Result for each line"
            columns={columns(subject)}
            rows={state.report}
            rowKey={(row) => String(row.line)}
          />
        </>
      ) : null}
    </form>
  );
}
