'use client';

import { useActionState } from 'react';
import { ConfirmSummary } from '@/components/ui/confirm-disclosure';
import { CopyField } from '@/components/ui/copy-field';
import { ErrorList, FormMessage } from '@/components/ui/form-parts';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';

const idle: FormState = { status: 'idle' };

/**
 * Makes the lease inbox its address and signing secret; the secret comes back once, to copy
 * into the property-management system. Where an inbox exists, making a new one retires it, so
 * the button sits behind a second step that says so (with or without JavaScript).
 */
export function LeaseInboxForm({ action: bound, exists }: { action: FormAction; exists: boolean }) {
  const [state, action] = useActionState(bound, idle);
  const form = (
    <form action={action} className="grid gap-3" aria-label="Make the inbox’s address and secret">
      <FormMessage state={state} />
      {state.status === 'success' && state.secret ? (
        <CopyField id="lease-secret" label="Signing secret (shown once)" value={state.secret} />
      ) : null}
      {exists && state.status !== 'success' ? (
        <p className="text-sm">
          The current address and secret stop working at once: events your system sends to them are
          refused until it has the new ones.
        </p>
      ) : null}
      <div>
        <SubmitButton pending="Making…" variant={exists ? 'danger' : 'secondary'}>
          {exists ? 'Make a new address and secret' : 'Make the address and secret'}
        </SubmitButton>
      </div>
    </form>
  );
  if (!exists) return form;
  return (
    <details className="group" open={state.status !== 'idle' || undefined}>
      <ConfirmSummary>Make a new address and secret…</ConfirmSummary>
      <div className="mt-2 rounded-lg border border-red-200 p-3 dark:border-red-900">{form}</div>
    </details>
  );
}

/**
 * Gives a unit the external id an unmatched event names, which applies the events waiting (the
 * action then sends the page back with a notice: the event has left this list).
 */
export function LeaseMapForm({
  action: bound,
  eventId,
  externalId,
  units,
}: {
  action: FormAction<'unitId'>;
  eventId: string;
  externalId: string;
  units: { id: string; label: string; buildingName: string }[];
}) {
  const [state, action] = useActionState(bound, idle as FormState<'unitId'>);
  const buildings = [...new Set(units.map((unit) => unit.buildingName))];
  const selectId = `map-${eventId}`;
  return (
    <form
      action={action}
      className="grid gap-2"
      aria-label={`Give a unit the id ${externalId}`}
      noValidate
    >
      <FormMessage state={state.fieldErrors ? idle : state} />
      <input type="hidden" name="eventId" value={eventId} />
      <label htmlFor={selectId} className="text-sm font-medium">
        The unit “{externalId}” is
      </label>
      <select
        id={selectId}
        name="unitId"
        defaultValue=""
        aria-describedby={`${selectId}-errors`}
        aria-invalid={state.fieldErrors?.unitId ? true : undefined}
        className="min-h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-700 dark:bg-slate-900"
      >
        <option value="">Choose a unit without an id…</option>
        {buildings.map((building) => (
          <optgroup key={building} label={building}>
            {units
              .filter((unit) => unit.buildingName === building)
              .map((unit) => (
                <option key={unit.id} value={unit.id}>
                  {unit.label}
                </option>
              ))}
          </optgroup>
        ))}
      </select>
      <ErrorList id={`${selectId}-errors`} errors={state.fieldErrors?.unitId} />
      <div>
        <SubmitButton pending="Applying…">Give it this id</SubmitButton>
      </div>
    </form>
  );
}
