'use client';

import { useRouter } from 'next/navigation';
import { useActionState, useEffect } from 'react';
import { Button } from '@/components/ui/button';
import { Field, SelectField } from '@/components/ui/field';
import { ErrorSummary } from '@/components/ui/error-summary';
import { ErrorList } from '@/components/ui/form-parts';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';

const idle: FormState = { status: 'idle' };

/**
 * A server action already bound to its thermostat. It is bound in the server page, not here:
 * an action bound in a client component cannot be sent by a form without JavaScript.
 */
type BoundAction = (previous: FormState, form: FormData) => Promise<FormState>;

export function ResidentModeForm({
  action: bound,
  isResidentMode,
}: {
  action: BoundAction;
  isResidentMode: boolean;
}) {
  const [state, action] = useActionState(bound, idle);
  return (
    <form action={action} className="grid gap-3">
      <ErrorSummary
        state={state}
        level={3}
        fields={{
          confirmReset: {
            label: 'I understand: reset this thermostat’s settings',
            id: 'confirmReset',
            errorsId: 'confirmReset-errors',
          },
        }}
      />
      <p className="text-sm">
        Resident mode is <strong>{isResidentMode ? 'on' : 'off'}</strong>.
      </p>
      {isResidentMode ? (
        <>
          <input type="hidden" name="isResidentMode" value="off" />
          <div className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-50">
            <p className="font-medium">
              Turning resident mode off resets most of this thermostat’s settings to defaults:
            </p>
            <p className="mt-1">
              its comfort settings, schedule, configuration, access control and alerts. This cannot
              be undone from Setpoint.
            </p>
            <label className="mt-3 flex items-start gap-2">
              <input
                id="confirmReset"
                type="checkbox"
                name="confirmReset"
                value="yes"
                className="mt-0.5 size-4"
                aria-describedby="confirmReset-errors"
                aria-invalid={state.fieldErrors?.confirmReset ? true : undefined}
              />
              <span>I understand: reset this thermostat’s settings.</span>
            </label>
            <ErrorList id="confirmReset-errors" errors={state.fieldErrors?.confirmReset} />
          </div>
          <div>
            <SubmitButton pending="Turning off…" variant="danger">
              Turn resident mode off
            </SubmitButton>
          </div>
        </>
      ) : (
        <>
          <input type="hidden" name="isResidentMode" value="on" />
          <div>
            <SubmitButton pending="Turning on…">Turn resident mode on</SubmitButton>
          </div>
        </>
      )}
    </form>
  );
}

export function MoveForm({
  action: bound,
  currentBuildingId,
  buildings,
}: {
  action: BoundAction;
  currentBuildingId: string;
  buildings: { buildingId: string; name: string }[];
}) {
  const [state, action] = useActionState(bound, idle);
  const others = buildings.filter((building) => building.buildingId !== currentBuildingId);
  if (others.length === 0) {
    return (
      <p className="text-sm text-muted">Add another building to your portfolio to move it there.</p>
    );
  }
  return (
    <form action={action} className="grid gap-3">
      <ErrorSummary
        state={state}
        level={3}
        fields={{ buildingId: { label: 'Move to', id: 'buildingId' } }}
      />
      {/* No building chosen until someone chooses one: a move is not a default. */}
      <SelectField
        id="buildingId"
        label="Move to"
        name="buildingId"
        defaultValue=""
        required
        errors={state.fieldErrors?.buildingId}
        options={[
          { value: '', label: 'Choose a building…', disabled: true },
          ...others.map((building) => ({ value: building.buildingId, label: building.name })),
        ]}
      />
      <div>
        <SubmitButton pending="Moving…" variant="secondary">
          Move thermostat
        </SubmitButton>
      </div>
    </form>
  );
}

export function RenameForm({
  action: bound,
  unitLabel,
}: {
  action: BoundAction;
  unitLabel: string;
}) {
  const [state, action, pending] = useActionState(bound, idle);
  return (
    <form action={action} className="grid gap-3">
      <ErrorSummary state={state} level={3} fields={{ unitLabel: 'Unit label' }} />
      <Field
        label="Unit label"
        name="unitLabel"
        defaultValue={state.values?.unitLabel ?? unitLabel}
        errors={state.fieldErrors?.unitLabel}
        hint="Your name for it in Setpoint, e.g. Unit 4B."
      />
      <div>
        <Button type="submit" variant="secondary" disabled={pending}>
          Save label
        </Button>
      </div>
    </form>
  );
}

export function UnitToggle({ action: choose, unit }: { action: FormAction; unit: 'F' | 'C' }) {
  const [state, action, pending] = useActionState(choose, idle);
  return (
    <form
      action={action}
      className="inline-flex self-start rounded-lg border border-slate-300 p-0.5 text-sm dark:border-slate-700"
    >
      {(['F', 'C'] as const).map((option) => (
        <button
          key={option}
          type="submit"
          name="unit"
          value={option}
          disabled={pending}
          aria-pressed={unit === option}
          className="rounded-md px-3 py-1 aria-pressed:bg-slate-900 aria-pressed:text-white dark:aria-pressed:bg-white dark:aria-pressed:text-slate-900"
        >
          °{option}
        </button>
      ))}
      {state.status === 'error' && state.message ? (
        <span role="alert" className="px-2 py-1 text-danger">
          {state.message}
        </span>
      ) : null}
    </form>
  );
}

/** While the service reports a pending mode change, look again every few seconds. */
export function RefreshWhilePending({ pending }: { pending: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => router.refresh(), 2000);
    return () => clearInterval(timer);
  }, [pending, router]);
  return null;
}
