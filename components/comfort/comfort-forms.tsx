'use client';

import { useActionState } from 'react';
import { ErrorSummary, type SummaryFields } from '@/components/ui/error-summary';
import { Field, type Option, SelectField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormState } from '@/lib/platform/forms';

const idle: FormState = { status: 'idle' };

/**
 * Each form gets its server action already bound by the server component: an action bound in a
 * client component never finishes rendering in a no-JavaScript post.
 */
type BoundAction = (previous: FormState, form: FormData) => Promise<FormState>;
const FANS = ['auto', 'on'] as const;

export type SetpointHints = { heat: string; cool: string; note?: string };
export type ComfortValues = {
  name: string;
  desiredHeat: string;
  desiredCool: string;
  fanHeat: string;
  fanCool: string;
};

/** Fan choices; a value outside them (read from the service) stays visible, to be replaced. */
function fanOptions(current: string): Option[] {
  const known = FANS.map((fan) => ({ value: fan, label: fan }));
  return FANS.includes(current as never) ? known : [{ value: current, label: current }, ...known];
}

const SIDES = [
  {
    side: 'heat',
    setpoint: 'desiredHeat',
    fan: 'fanHeat',
    words: 'Heat',
    fanLabel: 'Fan when heating',
  },
  {
    side: 'cool',
    setpoint: 'desiredCool',
    fan: 'fanCool',
    words: 'Cool',
    fanLabel: 'Fan when cooling',
  },
] as const;

/** The fields a refused comfort setting's summary links to (their ids as `Fields` gives them). */
function summaryFields(prefix: string, unit: 'F' | 'C'): SummaryFields {
  return {
    name: { label: 'Name', id: `${prefix}-name` },
    desiredHeat: { label: `Heat setpoint (°${unit})`, id: `${prefix}-heat` },
    desiredCool: { label: `Cool setpoint (°${unit})`, id: `${prefix}-cool` },
    fanHeat: { label: 'Fan when heating', id: `${prefix}-fan-heat` },
    fanCool: { label: 'Fan when cooling', id: `${prefix}-fan-cool` },
  };
}

/** The five fields of a comfort setting, with the thermostat's rule beside the setpoints. */
function Fields({
  prefix,
  state,
  defaults,
  unit,
  hints,
}: {
  prefix: string;
  state: FormState;
  defaults: ComfortValues;
  unit: 'F' | 'C';
  hints: SetpointHints;
}) {
  const values = { ...defaults, ...state.values };
  const errors = state.fieldErrors ?? {};
  return (
    <>
      <Field
        id={`${prefix}-name`}
        label="Name"
        name="name"
        defaultValue={values.name}
        errors={errors.name}
        maxLength={64}
        autoComplete="off"
      />
      <div className="grid items-start gap-4 sm:grid-cols-2">
        {SIDES.map(({ side, setpoint, words }) => (
          <Field
            key={setpoint}
            id={`${prefix}-${side}`}
            label={`${words} setpoint (°${unit})`}
            name={setpoint}
            inputMode="decimal"
            defaultValue={values[setpoint]}
            errors={errors[setpoint]}
            hint={hints[side]}
          />
        ))}
        {SIDES.map(({ side, fan, fanLabel }) => (
          <SelectField
            key={fan}
            id={`${prefix}-fan-${side}`}
            label={fanLabel}
            name={fan}
            defaultValue={values[fan]}
            errors={errors[fan]}
            options={fanOptions(values[fan])}
          />
        ))}
      </div>
      {hints.note ? <p className="text-xs text-muted">{hints.note}</p> : null}
    </>
  );
}

export function CreateComfortSettingForm({
  create,
  unit,
  hints,
}: {
  create: BoundAction;
  unit: 'F' | 'C';
  hints: SetpointHints;
}) {
  const [state, action] = useActionState(create, idle);
  const blank = { name: '', desiredHeat: '', desiredCool: '', fanHeat: 'auto', fanCool: 'auto' };
  return (
    <form action={action} aria-label="New comfort setting" className="grid gap-4">
      <ErrorSummary state={state} fields={summaryFields('new', unit)} level={3} />
      <Fields prefix="new" state={state} defaults={blank} unit={unit} hints={hints} />
      <div>
        <SubmitButton pending="Creating…">Create comfort setting</SubmitButton>
      </div>
    </form>
  );
}

export function EditComfortSettingForm({
  update,
  comfortSettingRef,
  current,
  unit,
  hints,
}: {
  update: BoundAction;
  comfortSettingRef: string;
  current: ComfortValues;
  unit: 'F' | 'C';
  hints: SetpointHints;
}) {
  const [state, action] = useActionState(update, idle);
  return (
    <form action={action} aria-label={`Edit ${current.name}`} className="grid gap-4">
      <ErrorSummary
        state={state}
        fields={summaryFields(`edit-${comfortSettingRef}`, unit)}
        level={3}
      />
      <Fields
        prefix={`edit-${comfortSettingRef}`}
        state={state}
        defaults={current}
        unit={unit}
        hints={hints}
      />
      <div>
        <SubmitButton pending="Saving…" variant="secondary">
          Save changes
        </SubmitButton>
      </div>
    </form>
  );
}

export function DeleteComfortSettingForm({ remove, name }: { remove: BoundAction; name: string }) {
  const [state, action] = useActionState(remove, idle);
  return (
    <form action={action} aria-label={`Delete ${name}`} className="grid gap-3">
      <ErrorSummary state={state} level={3} />
      <p className="text-sm">
        Delete <strong>{name}</strong> from this thermostat? This cannot be undone.
      </p>
      <div>
        <SubmitButton pending="Deleting…" variant="danger">
          {`Yes, delete ${name}`}
        </SubmitButton>
      </div>
    </form>
  );
}
