'use client';

import { useActionState } from 'react';
import { BuildingCheckboxes, type BuildingChoice } from '@/components/ui/building-checkboxes';
import { CopyField } from '@/components/ui/copy-field';
import { ErrorSummary } from '@/components/ui/error-summary';
import { Field } from '@/components/ui/field';
import { ErrorList } from '@/components/ui/form-parts';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';

type KeyField = 'name' | 'scopes' | 'buildings';
const idle: FormState<KeyField> = { status: 'idle' };

const FIELDS = {
  name: 'Name',
  scopes: { label: 'What it may do', id: 'key-scopes-errors' },
  buildings: { label: 'Which buildings', id: 'key-buildings-errors' },
} as const;

/** Makes an API key; the key comes back once, to copy into the other system. */
export function ApiKeyForm({
  action: bound,
  scopes,
  buildings,
}: {
  action: FormAction<KeyField>;
  scopes: { value: string; label: string }[];
  buildings: BuildingChoice[];
}) {
  const [state, action] = useActionState(bound, idle);
  const done = state.status === 'success';
  const errors = state.fieldErrors ?? {};
  return (
    <form action={action} className="grid gap-4" aria-label="Make an API key" noValidate>
      <ErrorSummary state={state} fields={FIELDS} level={3} />
      {done && state.secret ? (
        <CopyField id="api-key-secret" label="API key (shown once)" value={state.secret} />
      ) : null}
      <div key={done ? state.secret : 'editing'} className="grid gap-4">
        <Field
          label="Name"
          name="name"
          autoComplete="off"
          defaultValue={done ? '' : state.values?.name}
          errors={errors.name}
          hint="What uses it, such as your property-management system."
        />
        <fieldset className="grid gap-2" aria-describedby="key-scopes-errors">
          <legend className="text-sm font-medium">What it may do</legend>
          {scopes.map((scope) => (
            <label key={scope.value} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="scopes"
                value={scope.value}
                defaultChecked={scope.value === 'read'}
                className="size-4 accent-brand-600"
              />
              {scope.label}
            </label>
          ))}
          <ErrorList id="key-scopes-errors" errors={errors.scopes} />
        </fieldset>
        <fieldset className="grid gap-2" aria-describedby="key-buildings-errors">
          <legend className="text-sm font-medium">Which buildings</legend>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              name="every"
              defaultChecked
              className="size-4 accent-brand-600"
            />
            Every building (now and to come)
          </label>
          <p className="text-sm text-muted">
            Or untick it and choose some: the key sees nothing else.
          </p>
          <BuildingCheckboxes buildings={buildings} chosen={[]} empty="No buildings yet." />
          <ErrorList id="key-buildings-errors" errors={errors.buildings} />
        </fieldset>
        <div>
          <SubmitButton pending="Making the key…">Make key</SubmitButton>
        </div>
      </div>
    </form>
  );
}
